import CJack

/// The JACK client library this process runs with.
package enum JackLibrary {
    /// What the loaded libjack says its version is (`jack_get_version_string`,
    /// asked at run time: under `pw-jack` it is PipeWire's JACK library that answers).
    package static var version: String {
        guard let text = jack_get_version_string() else { return "unknown" }
        return String(cString: text)
    }
}
