import CJack
import Foundation

/// libjack prints its own diagnostics ("Cannot connect to server socket…")
/// on stderr, several lines a try, around the one sentence fxhost says about
/// the same event. A command-line tool silences them; FXHOST_JACK_VERBOSE=1
/// keeps them for debugging. Process-wide (it is libjack's own setting).
package enum JackMessages {
    package static func silenceUnlessVerbose() {
        guard ProcessInfo.processInfo.environment["FXHOST_JACK_VERBOSE"] == nil else { return }
        jack_set_error_function { _ in }
        jack_set_info_function { _ in }
    }
}
