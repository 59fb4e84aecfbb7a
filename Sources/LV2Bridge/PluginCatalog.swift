import CLilv
import HostCore

/// Every installed LV2 plugin. Only URIs are read up front: describing a
/// plugin makes lilv load its data files, which for every installed plugin
/// costs more than a short render, so descriptions are made on demand, and
/// with a `PluginCache` taken from it while the plugin's bundles are
/// unchanged.
public struct PluginCatalog {
    package let world: LV2World
    /// Every plugin URI, sorted.
    package let uris: [String]
    private let handles: [String: OpaquePointer]
    private let store: PluginDescriptionStore?

    /// A catalog of a new world that loads every installed bundle.
    public init() { self.init(world: LV2World()) }

    /// A catalog of `world`'s plugins, describing them through `cache` when given.
    package init(world: LV2World, cache: PluginCache? = nil) {
        self.world = world
        store = cache.map(PluginDescriptionStore.init(cache:))
        var handles: [String: OpaquePointer] = [:]
        let all = lilv_world_get_all_plugins(world.world)
        var iterator = lilv_plugins_begin(all)
        while !lilv_plugins_is_end(all, iterator) {
            if let plugin = lilv_plugins_get(all, iterator), let uri = Lilv.string(lilv_plugin_get_uri(plugin)) {
                handles[uri] = plugin
            }
            iterator = lilv_plugins_next(all, iterator)
        }
        uris = handles.keys.sorted()
        self.handles = handles
    }

    /// All plugins, described (slow: loads every plugin's data, unless the
    /// cache holds them), sorted by URI.
    package var plugins: [PluginDescription] {
        guard let store else { return uris.compactMap(describe) }
        return zip(uris, allBundles()).map { uri, bundles in
            let plugin = handles[uri]!
            return store.description(of: uri, bundles: bundles) { PluginReader(world: world, plugin: plugin).read() }
        }
    }

    /// `bundles(of:)` for every plugin, asked before any plugin's data is
    /// loaded: lilv answers those questions slower the more data it holds.
    private func allBundles() -> [[String]] { uris.map { bundles(of: handles[$0]!) } }

    /// The description of one installed plugin.
    /// The description of one installed plugin, read through lilv: for one
    /// plugin that is cheaper than decoding the cache (`info`, and each
    /// plugin a patch uses).
    package func describe(_ uri: String) -> PluginDescription? {
        handles[uri].map { PluginReader(world: world, plugin: $0).read() }
    }

    /// What a listing shows of one installed plugin; from the cache's
    /// summaries when they hold, which is much cheaper than `describe`.
    package func summarize(_ uri: String) -> PluginSummary? {
        guard let plugin = handles[uri] else { return nil }
        let read = { PluginReader(world: world, plugin: plugin).read() }
        guard let store else { return PluginSummary(read()) }
        return store.summary(of: uri, bundles: bundles(of: plugin), read: read)
    }

    /// Summaries of the plugins whose URI or name contains `text`, ignoring
    /// case (all of them for nil), sorted by URI: what `search` finds.
    package func summaries(matching text: String?) -> [PluginSummary] {
        let needle = text?.lowercased() ?? ""
        guard let store else { return uris.compactMap(summarize).filter { $0.matches(needle) } }
        return zip(uris, allBundles()).map { uri, bundles in
            let plugin = handles[uri]!
            return store.summary(of: uri, bundles: bundles) { PluginReader(world: world, plugin: plugin).read() }
        }.filter { $0.matches(needle) }
    }

    /// Writes what this catalog described into its cache, if it has one and
    /// anything changed; a cache that cannot be written is left alone.
    package func saveCache() { store?.save(installed: uris) }

    var hasCache: Bool { store != nil }

    /// The lilv plugin for a URI from `plugins` (owned by the world).
    func lilvPlugin(_ uri: String) -> OpaquePointer? { handles[uri] }

    /// Plugins whose URI or name contains `text`, case-insensitively.
    package func search(_ text: String) -> [PluginDescription] {
        let needle = text.lowercased()
        guard !needle.isEmpty else { return plugins }
        return plugins.filter { PluginSummary($0).matches(needle) }
    }

    /// The plugin a patch means by `reference`: a full URI, or a unique short
    /// name — the last path component (`Overdrive`), the last two
    /// (`mda/Overdrive`), fragments included (`fil4#stereo`) — matched
    /// case-insensitively.
    package func resolve(_ reference: String) throws(UnitError) -> PluginDescription {
        try describe(resolveURI(reference))!
    }

    /// The URI `reference` names; see `resolve`.
    package func resolveURI(_ reference: String) throws(UnitError) -> String {
        if handles[reference] != nil { return reference }
        let matches = Self.candidates(for: reference, among: uris)
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            throw UnitError("plugin name `\(reference)` is ambiguous: it matches \(matches.count) plugins: \(matches.joined(separator: ", "))",
                            suggestion: "write the full URI or a longer name")
        }
        throw UnitError("no installed LV2 plugin is called `\(reference)`", suggestion: suggestion(for: reference))
    }

    /// The URIs of `uris` that `reference` names, ignoring case: as a whole,
    /// or as one of their `shortNames`.
    static func candidates(for reference: String, among uris: [String]) -> [String] {
        let wanted = reference.lowercased()
        return uris.filter { uri in uri.lowercased() == wanted || shortNames(of: uri).contains(wanted) }
    }

    /// The last one and two components of a URI (split at `/` and `:`).
    static func shortNames(of uri: String, preservingCase: Bool = false) -> [String] {
        let text = preservingCase ? uri : uri.lowercased()
        let components = text.split(whereSeparator: { $0 == "/" || $0 == ":" }).map(String.init)
        guard let last = components.last else { return [] }
        var names = [last]
        if components.count >= 2 { names.append(components[components.count - 2] + "/" + last) }
        return names
    }
}

/// Reads one lilv plugin into a `PluginDescription`.
struct PluginReader {
    let world: LV2World
    let plugin: OpaquePointer
    private var nodes: LV2World.Nodes { world.nodes }

    func read() -> PluginDescription {
        let uri = Lilv.string(lilv_plugin_get_uri(plugin)) ?? ""
        let classLabel = lilv_plugin_get_class(plugin).flatMap { Lilv.string(lilv_plugin_class_get_label($0)) }
        let count = lilv_plugin_get_num_ports(plugin)
        let ports = (0..<count).compactMap { index in
            lilv_plugin_get_port_by_index(plugin, index).map { readPort($0, index: index) }
        }
        return PluginDescription(
            uri: uri,
            name: Lilv.takeString(lilv_plugin_get_name(plugin)) ?? uri,
            classLabel: classLabel,
            author: Lilv.takeString(lilv_plugin_get_author_name(plugin)),
            project: projectName(),
            ports: ports,
            presets: readPresets(),
            properties: readProperties(),
            // Sorted: lilv's order changes from run to run (it follows where
            // nodes landed in memory), and a listing should not.
            requiredFeatures: Lilv.takeStrings(lilv_plugin_get_required_features(plugin)).sorted(),
            optionalFeatures: Lilv.takeStrings(lilv_plugin_get_optional_features(plugin)).sorted(),
            reportsLatency: lilv_plugin_has_latency(plugin))
    }

    /// Writable properties, then those only readable, each by URI.
    private func readProperties() -> [PropertyDescription] {
        let uri = lilv_plugin_get_uri(plugin)
        func uris(_ predicate: OpaquePointer) -> [String] {
            Lilv.takeStrings(UnsafeMutableRawPointer(lilv_world_find_nodes(world.world, uri, predicate, nil)))
        }
        let writable = Set(uris(nodes.patchWritable))
        let readable = Set(uris(nodes.patchReadable)).subtracting(writable)
        return writable.sorted().map { readProperty($0, writable: true) }
            + readable.sorted().map { readProperty($0, writable: false) }
    }

    private func readProperty(_ uri: String, writable: Bool) -> PropertyDescription {
        let subject = lilv_new_uri(world.world, uri)
        defer { lilv_node_free(subject) }
        func value(_ predicate: OpaquePointer) -> OpaquePointer? { lilv_world_get(world.world, subject, predicate, nil) }
        let range = Lilv.takeString(value(nodes.rdfsRange))
        var property = PropertyDescription(
            uri: uri, label: Lilv.takeString(value(nodes.rdfsLabel)) ?? "", valueType: .init(range: range), range: range,
            minimum: Lilv.takeNumber(value(nodes.minimum)), maximum: Lilv.takeNumber(value(nodes.maximum)),
            defaultValue: Lilv.takeNumber(value(nodes.defaultValue)), isWritable: writable)
        if property.label.isEmpty { property.label = property.shortName }
        return property
    }

    private func projectName() -> String? {
        guard let project = lilv_plugin_get_project(plugin) else { return nil }
        defer { lilv_node_free(project) }
        let names = lilv_world_get(world.world, project, nodes.doapName, nil)
        return Lilv.takeString(names) ?? Lilv.string(project)
    }

    private func readPort(_ port: OpaquePointer, index: UInt32) -> PortDescription {
        func isA(_ node: OpaquePointer) -> Bool { lilv_port_is_a(plugin, port, node) }
        func has(_ node: OpaquePointer) -> Bool { lilv_port_has_property(plugin, port, node) }
        let kind: PortDescription.Kind =
            isA(nodes.audioPort) ? .audio : isA(nodes.controlPort) ? .control
            : isA(nodes.atomPort) ? .atom : isA(nodes.cvPort) ? .cv : .other
        var defaultNode: OpaquePointer?, minimumNode: OpaquePointer?, maximumNode: OpaquePointer?
        lilv_port_get_range(plugin, port, &defaultNode, &minimumNode, &maximumNode)
        let designation = Lilv.takeString(lilv_port_get(plugin, port, nodes.designation))
        let isLatency = designation == LV2URI.latency || has(nodes.reportsLatency)
        return PortDescription(
            index: index,
            symbol: Lilv.string(lilv_port_get_symbol(plugin, port)) ?? "port\(index)",
            name: Lilv.takeString(lilv_port_get_name(plugin, port)) ?? "",
            kind: kind,
            direction: isA(nodes.outputPort) ? .output : .input,
            minimum: Lilv.takeNumber(minimumNode),
            maximum: Lilv.takeNumber(maximumNode),
            defaultValue: Lilv.takeNumber(defaultNode),
            isToggle: has(nodes.toggled),
            isInteger: has(nodes.integer),
            isEnumeration: has(nodes.enumeration),
            isLogarithmic: has(nodes.logarithmic),
            scalePoints: readScalePoints(port),
            isOptional: has(nodes.connectionOptional),
            isSideChain: has(nodes.isSideChain),
            designation: isLatency ? .latency
                : designation == LV2URI.freeWheeling ? .freeWheeling
                : designation == LV2URI.enabled ? .enabled
                : designation == LV2URI.timeBeatsPerMinute ? .beatsPerMinute
                : designation == LV2URI.timeSpeed ? .speed : nil,
            minimumSize: Lilv.takeNumber(lilv_port_get(plugin, port, nodes.minimumSize)).map { Int($0) },
            unit: readUnit(port),
            supports: kind == .atom ? readSupports(port) : [])
    }

    /// atom:supports of an atom port, sorted.
    private func readSupports(_ port: OpaquePointer) -> [String] {
        guard let values = lilv_port_get_value(plugin, port, nodes.atomSupports) else { return [] }
        defer { lilv_nodes_free(values) }
        var result: [String] = []
        var iterator = lilv_nodes_begin(values)
        while !lilv_nodes_is_end(values, iterator) {
            if let uri = Lilv.string(lilv_nodes_get(values, iterator)) { result.append(uri) }
            iterator = lilv_nodes_next(values, iterator)
        }
        return result.sorted()
    }

    private func readScalePoints(_ port: OpaquePointer) -> [ScalePoint] {
        guard let points = lilv_port_get_scale_points(plugin, port) else { return [] }
        defer { lilv_scale_points_free(points) }
        var result: [ScalePoint] = []
        var iterator = lilv_scale_points_begin(points)
        while !lilv_scale_points_is_end(points, iterator) {
            if let point = lilv_scale_points_get(points, iterator),
               let label = Lilv.string(lilv_scale_point_get_label(point)) {
                let value = lilv_scale_point_get_value(point).map { lilv_node_as_float($0) } ?? 0
                result.append(ScalePoint(label: label, value: value))
            }
            iterator = lilv_scale_points_next(points, iterator)
        }
        return result.sorted { $0.value < $1.value }
    }

    private func readUnit(_ port: OpaquePointer) -> String? {
        guard let unit = lilv_port_get(plugin, port, nodes.unitsUnit) else { return nil }
        defer { lilv_node_free(unit) }
        if let symbol = Lilv.takeString(lilv_world_get(world.world, unit, nodes.unitsSymbol, nil)) { return symbol }
        // Standard units (units:db) name themselves; keep the fragment.
        return Lilv.string(unit).flatMap { $0.split(separator: "#").last.map(String.init) }
    }

    /// Presets with their labels; each preset resource is loaded so its label is known.
    func readPresets() -> [PresetDescription] {
        guard let related = lilv_plugin_get_related(plugin, nodes.preset) else { return [] }
        defer { lilv_nodes_free(related) }
        var result: [PresetDescription] = []
        var iterator = lilv_nodes_begin(related)
        while !lilv_nodes_is_end(related, iterator) {
            if let preset = lilv_nodes_get(related, iterator), let uri = Lilv.string(preset) {
                lilv_world_load_resource(world.world, preset)
                let label = Lilv.takeString(lilv_world_get(world.world, preset, nodes.rdfsLabel, nil))
                result.append(PresetDescription(label: label ?? uri, uri: uri))
            }
            iterator = lilv_nodes_next(related, iterator)
        }
        return result.sorted { $0.label.lowercased() < $1.label.lowercased() }
    }
}
