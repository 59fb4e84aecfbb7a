import CSndFile

/// The libsndfile this process runs with.
package enum SndFileLibrary {
    /// The loaded library's version (`sf_version_string`, asked at run time),
    /// without its `libsndfile-` prefix: `1.2.0`.
    package static var version: String {
        guard let text = sf_version_string() else { return "unknown" }
        let full = String(cString: text)
        return full.hasPrefix("libsndfile-") ? String(full.dropFirst("libsndfile-".count)) : full
    }
}
