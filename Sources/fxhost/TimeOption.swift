import ArgumentParser
import Foundation
import HostCore
import JackIO
import LiveControl

/// A time option ("5s", "500ms", "1.5", "0"), in the patch's time syntax.
enum TimeOption {
    static func seconds(_ text: String, option: String) throws -> Double {
        guard let value = PatchValueSyntax.seconds(text), value >= 0 else {
            throw ValidationError("\(option) takes a duration such as 5s, 500ms or 0, not `\(text)`")
        }
        return value
    }
}
