import HostCore
import JackIO
import LV2Bridge

/// fxhost's version: the one place it is written.
enum FxhostVersion {
    static let number = "0.4.0"

    /// What `fxhost --version` prints: fxhost's version, then the versions
    /// of the libraries this process runs with (asked at run time, so an
    /// upgraded library or `pw-jack` shows).
    static var text: String {
        """
        fxhost \(number)
        lilv \(LilvLibrary.version ?? "unknown (\(LilvLibrary.file ?? "its library file was not found"))")
        JACK \(JackLibrary.version)
        libsndfile \(SndFileLibrary.version)
        """
    }
}
