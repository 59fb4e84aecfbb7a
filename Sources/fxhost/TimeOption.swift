import ArgumentParser
import Foundation
import HostCore
import JackIO
import LiveControl

/// A time option ("5s", "500ms", "1.5", "0"), in the patch's time syntax.
enum TimeOption {
    /// At most `longest` seconds (the render's longest range by default), so
    /// no time from the command line overflows a frame count.
    static func seconds(_ text: String, option: String,
                        atMost longest: Double = RenderOptions.longestRangeSeconds) throws -> Double {
        guard let value = PatchValueSyntax.seconds(text), value >= 0 else {
            throw ValidationError("\(option) takes a duration such as 5s, 500ms or 0, not `\(text)`")
        }
        guard value <= longest else {
            throw ValidationError("\(option) is at most \(NumberText.format(longest)) s, not \(NumberText.format(value)) s")
        }
        return value
    }
}
