import Foundation

/// The folders lilv looks for bundles in, and a fingerprint of which bundles
/// they hold and of each bundle's manifest. A manifest says which plugins,
/// data files and presets a bundle brings, so while the fingerprint holds,
/// the bundles a plugin is read from (`PluginBundleIndex`) are still all of
/// them; the data files themselves are read afresh on every load.
package enum LV2Folders {
    /// lilv's own search path when LV2_PATH is unset (its compile-time
    /// LILV_DEFAULT_LV2_PATH, as Debian's liblilv-0 0.24 holds it).
    static let defaultPath = "~/.lv2:/usr/lib/x86_64-linux-gnu/lv2:/usr/lib/lv2:/usr/local/lib/lv2"

    /// The folders of LV2_PATH (else lilv's default), `~` expanded as lilv does.
    package static func searchPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let home = environment["HOME"] ?? ""
        return (environment["LV2_PATH"] ?? defaultPath).split(separator: ":").map { part in
            part == "~" ? home : part.hasPrefix("~/") ? home + part.dropFirst() : String(part)
        }
    }

    /// A fingerprint of `folders`: each folder's entries by name and, for
    /// each, its manifest.ttl's inode, size, modification and change times.
    /// The change time moves even when a package or `cp -p` restores the
    /// modification time, so a replaced manifest is noticed.
    package static func fingerprint(of folders: [String]) -> String {
        var hasher = BundleStamp.Hasher64()
        for folder in folders {
            hasher.add(folder)
            guard let directory = opendir(folder) else { hasher.add("missing"); continue }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(directory)
            for name in names.sorted() {
                hasher.add(name)
                var status = stat()
                guard stat(folder + "/" + name + "/manifest.ttl", &status) == 0 else { hasher.add("-"); continue }
                hasher.add("\(status.st_ino) \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) "
                           + "\(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec)")
            }
        }
        return String(hasher.value, radix: 16)
    }
}
