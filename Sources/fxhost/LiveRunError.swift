import ArgumentParser
import Foundation
import HostCore
import JackIO
import LiveControl

/// Why `fxhost run` ended with an error after it had started playing.
enum LiveRunError: UserFacingError {
    case serverShutDown(taps: Int)

    var description: String {
        switch self {
        case .serverShutDown(let taps):
            return "the JACK server shut down, so fxhost stopped" + (taps > 0 ? " (every tap was finalised and is readable)" : "")
        }
    }
}
