import CLilv
import Foundation

/// Where every installed plugin's data lives, so a render can make lilv
/// load only the bundles of the plugins it names instead of every bundle on
/// LV2_PATH: each plugin URI with the bundle folders its description is read
/// from (`PluginCatalog.bundles(of:)`: its own, those adding data to it, those
/// holding its presets), the bundles of the specifications a description
/// reads (plugin classes, unit symbols), and the `LV2Folders` fingerprint it
/// holds for. A small text file beside the plugin cache (`file(beside:)`):
/// reading it costs a fraction of a millisecond, where decoding the cache's
/// JSON would cost more than the loading it saves.
package struct PluginBundleIndex: Equatable {
    /// The LV2 folders watched, and their fingerprint when the index was made.
    package var folders: [String]
    package var fingerprint: String
    package var specificationBundles: [String]
    /// Bundle folders by plugin URI.
    package var plugins: [String: [String]]
    /// Installed plugins whose bundles are not indexed: naming one loads
    /// everything. Kept so that short names resolve among every plugin.
    package var unindexed: Set<String>

    package init(folders: [String], fingerprint: String, specificationBundles: [String], plugins: [String: [String]],
                 unindexed: Set<String> = []) {
        self.folders = folders
        self.fingerprint = fingerprint
        self.specificationBundles = specificationBundles
        self.plugins = plugins
        self.unindexed = unindexed
    }

    /// The index of a catalog whose world loaded every bundle of `folders`
    /// (their `fingerprint` taken before it loaded); nil when some bundle
    /// lies outside them (lilv searched folders we do not watch).
    /// Plugins with an `lv2:prototype` are left out, so naming one loads
    /// everything: their data may come from anywhere.
    package init?(catalog: PluginCatalog, folders: [String], fingerprint: String) {
        let world = catalog.world
        let prototype = lilv_new_uri(world.world, LV2URI.prototype)
        defer { lilv_node_free(prototype) }
        var plugins: [String: [String]] = [:]
        var unindexed: Set<String> = []
        var knownFolders: [String: String] = [:]
        for uri in catalog.uris {
            guard let plugin = catalog.lilvPlugin(uri) else { continue }
            if let prototypes = lilv_world_find_nodes(world.world, lilv_plugin_get_uri(plugin), prototype, nil) {
                defer { lilv_nodes_free(prototypes) }
                if lilv_nodes_size(prototypes) > 0 { unindexed.insert(uri); continue }
            }
            plugins[uri] = catalog.bundles(of: plugin, knownFolders: &knownFolders)
        }
        var specifications: [String] = []
        // lv2core for plugin classes, units for unit symbols, parameters for
        // the message parameters plugins borrow from it (eg-sampler's `param:gain`).
        for specification in [world.nodes.coreSpecification, world.nodes.unitsSpecification,
                              world.nodes.parametersSpecification] {
            guard let files = lilv_world_find_nodes(world.world, specification, world.nodes.seeAlso, nil) else { continue }
            defer { lilv_nodes_free(files) }
            specifications += PluginCatalog.nodes(UnsafeRawPointer(files)).compactMap(PluginCatalog.path(ofFileURI:))
                .map(PluginCatalog.bundleFolder(of:))
        }
        let watched = Set(folders)
        let bundles = plugins.values.joined() + specifications
        guard bundles.allSatisfy({ watched.contains(PluginCatalog.parentFolder(of: $0)) }) else { return nil }
        self.init(folders: folders, fingerprint: fingerprint,
                  specificationBundles: Array(Set(specifications)).sorted(), plugins: plugins, unindexed: unindexed)
    }

    /// Every installed plugin's URI, sorted.
    package var uris: [String] { (Array(plugins.keys) + unindexed).sorted() }

    /// Whether the index was made for `searchPath`, whose `LV2Folders`
    /// fingerprint is now `fingerprint`, and its folders are as they were then.
    package func holds(searchPath: [String], fingerprint: String) -> Bool {
        searchPath == folders && fingerprint == self.fingerprint
    }

    /// The URI each reference names, resolved as `PluginCatalog.resolveURI`
    /// resolves it among every installed plugin, and the bundles to load
    /// for them all; nil when a reference names no plugin, several, or one
    /// whose bundles are not indexed.
    package func bundles(for references: [String]) -> (uris: [String], bundles: [String])? {
        let all = uris
        var resolved: [String] = []
        for reference in references {
            let matches = plugins[reference] != nil || unindexed.contains(reference)
                ? [reference] : PluginCatalog.candidates(for: reference, among: all)
            guard matches.count == 1, plugins[matches[0]] != nil else { return nil }
            resolved.append(matches[0])
        }
        let bundles = Set(specificationBundles + resolved.flatMap { plugins[$0]! })
        return (resolved, bundles.sorted())
    }

    // MARK: The file

    /// The index file beside `cache`'s file (same LV2_PATH, same folder).
    package static func file(beside cache: PluginCache) -> URL {
        cache.file.deletingPathExtension().appendingPathExtension("bundles")
    }

    static let header = "fxhost plugin bundles 2"

    /// Lines of tab-separated fields: the header, `folder PATH` for each
    /// watched folder, `fingerprint HEX`, `specification BUNDLE`,
    /// `plugin URI BUNDLE...` and `unindexed URI`.
    package var text: String {
        var lines = [Self.header]
        lines += folders.map { "folder\t" + $0 }
        lines.append("fingerprint\t" + fingerprint)
        lines += specificationBundles.map { "specification\t" + $0 }
        lines += plugins.keys.sorted().map { (["plugin", $0] + plugins[$0]!).joined(separator: "\t") }
        lines += unindexed.sorted().map { "unindexed\t" + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The index `text` holds; nil when it is not one (another version, cut off, garbage).
    package init?(text: String) { self.init(utf8: Array(text.utf8)) }

    /// Parsed as bytes: splitting a `String` by characters would cost more
    /// than the rest of a render's start-up.
    init?(utf8 bytes: [UInt8]) {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let first = lines.first, String(decoding: first, as: UTF8.self) == Self.header, lines.last?.isEmpty == true
        else { return nil }
        var folders: [String] = [], fingerprint: String?, specifications: [String] = []
        var plugins: [String: [String]] = [:], unindexed: Set<String> = []
        for line in lines.dropFirst().dropLast() {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            switch (fields[0], fields.count) {
            case ("folder", 2): folders.append(fields[1])
            case ("fingerprint", 2): fingerprint = fields[1]
            case ("specification", 2): specifications.append(fields[1])
            case ("plugin", 2...): plugins[fields[1]] = Array(fields.dropFirst(2))
            case ("unindexed", 2): unindexed.insert(fields[1])
            default: return nil
            }
        }
        guard let fingerprint else { return nil }
        self.init(folders: folders, fingerprint: fingerprint, specificationBundles: specifications, plugins: plugins,
                  unindexed: unindexed)
    }

    /// The index in `file`; nil when it is missing, unreadable or not an index.
    package static func load(from file: URL) -> PluginBundleIndex? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return PluginBundleIndex(utf8: [UInt8](data))
    }

    /// Whether `file` can be written: its folder exists (made if need be)
    /// and is writable. Asked before an index is made, which takes a few
    /// milliseconds that a render into a read-only cache folder need not pay.
    package static func canWrite(to file: URL) -> Bool {
        let folder = file.deletingLastPathComponent()
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return false }
        return access(folder.path, W_OK) == 0
    }

    /// Writes the index to a temporary file beside `file`, then renames it
    /// over `file`, so a reader sees a whole index or none. An index that
    /// cannot be written (a read-only folder, a full disk), or holds a path
    /// or URI with a tab or line break, is not written: it only saves time.
    package func save(to file: URL) {
        let fields = folders + specificationBundles + plugins.keys + plugins.values.joined() + unindexed
        guard !fields.contains(where: { $0.utf8.contains(UInt8(ascii: "\t")) || $0.utf8.contains(UInt8(ascii: "\n")) }),
              Self.canWrite(to: file) else { return }
        let temporary = file.deletingLastPathComponent()
            .appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let bytes = Array(text.utf8)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { return }
        let written = write(descriptor, bytes, bytes.count)
        guard close(descriptor) == 0, written == bytes.count else { unlink(temporary.path); return }
        if rename(temporary.path, file.path) != 0 { unlink(temporary.path) }
    }
}
