import CLilv
import Foundation

/// Which bundles a plugin's description is read from, asked of what lilv
/// loaded from the bundles' manifests, so nothing of the plugin's own data
/// is parsed.
extension PluginCatalog {
    /// The plugin's bundle, the bundles of its data files (a bundle may add
    /// data to another's plugin) and of presets other bundles declare for
    /// it, sorted.
    func bundles(of plugin: OpaquePointer) -> [String] {
        var knownFolders: [String: String] = [:]
        return bundles(of: plugin, knownFolders: &knownFolders)
    }

    /// `bundles(of:)`, keeping in `knownFolders` the bundle of each folder a
    /// file lay in, for a caller asking about every plugin (most files of a
    /// bundle share a folder, and each lookup costs a system call).
    func bundles(of plugin: OpaquePointer, knownFolders: inout [String: String]) -> [String] {
        var files: [String] = []
        if let bundle = lilv_plugin_get_bundle_uri(plugin).flatMap(Self.path(ofFileURI:)) { files.append(bundle + "/manifest.ttl") }
        files += Self.nodes(lilv_plugin_get_data_uris(plugin)).compactMap(Self.path(ofFileURI:))
        if let uri = lilv_plugin_get_uri(plugin),
           let presets = lilv_world_find_nodes(world.world, nil, world.nodes.appliesTo, uri) {
            defer { lilv_nodes_free(presets) }
            var iterator = lilv_nodes_begin(presets)
            while !lilv_nodes_is_end(presets, iterator) {
                if let preset = lilv_nodes_get(presets, iterator),
                   let seeAlso = lilv_world_find_nodes(world.world, preset, world.nodes.seeAlso, nil) {
                    files += Self.nodes(UnsafeRawPointer(seeAlso)).compactMap(Self.path(ofFileURI:))
                    lilv_nodes_free(seeAlso)
                }
                iterator = lilv_nodes_next(presets, iterator)
            }
        }
        var bundles: Set<String> = []
        for file in files {
            let folder = Self.parentFolder(of: file)
            if let known = knownFolders[folder] { bundles.insert(known); continue }
            let bundle = Self.bundleFolder(of: file)
            knownFolders[folder] = bundle
            bundles.insert(bundle)
        }
        return bundles.sorted()
    }

    /// The bundle holding `file`: the nearest folder above it with a
    /// manifest.ttl, else the file's own folder.
    static func bundleFolder(of file: String) -> String {
        let parent = parentFolder(of: file)
        var folder = parent
        for _ in 0..<4 {
            if access(folder + "/manifest.ttl", F_OK) == 0 { return folder }
            let up = parentFolder(of: folder)
            if up == folder || up.isEmpty { break }
            folder = up
        }
        return parent
    }

    /// The folder holding `path` (`/` for a top-level path, empty for a bare
    /// name). Cut by hand: bridging to NSString for it cost milliseconds
    /// over every installed plugin's files.
    static func parentFolder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }

    static func path(ofFileURI node: OpaquePointer) -> String? {
        guard let text = lilv_node_as_uri(node), let path = lilv_file_uri_parse(text, nil) else { return nil }
        defer { lilv_free(path) }
        let result = String(cString: path)
        return result.count > 1 && result.hasSuffix("/") ? String(result.dropLast()) : result
    }

    /// The nodes of a collection lilv lends us (not freed).
    static func nodes(_ nodes: UnsafeRawPointer?) -> [OpaquePointer] {
        guard let nodes else { return [] }
        var result: [OpaquePointer] = []
        var iterator = lilv_nodes_begin(nodes)
        while !lilv_nodes_is_end(nodes, iterator) {
            if let node = lilv_nodes_get(nodes, iterator) { result.append(node) }
            iterator = lilv_nodes_next(nodes, iterator)
        }
        return result
    }
}
