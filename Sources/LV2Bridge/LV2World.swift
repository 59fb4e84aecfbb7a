import CLilv
import Foundation

/// The lilv world: every installed plugin bundle (lilv honours LV2_PATH),
/// or only the bundles a render needs (`init(bundles:)`), the URI nodes the
/// bridge asks about, and the host's URID map.
///
/// Create one per process and keep it alive while any unit made from it
/// exists (units hold a reference). lilv is not thread-safe: use a world
/// and everything made from it from one thread at a time, except the URID
/// map, which plugins may call from any thread.
package final class LV2World {
    let world: OpaquePointer
    let urids = URIDMap()
    let nodes: Nodes
    private let arena = CArena()
    /// urid:map and urid:unmap feature data, shared by every instance and state.
    let uridFeatures: (map: UnsafeMutablePointer<LV2_URID_Map>, unmap: UnsafeMutablePointer<LV2_URID_Unmap>)

    /// Loads every bundle on LV2_PATH (or lilv's default path).
    package init() {
        world = lilv_world_new()
        lilv_world_load_all(world)
        nodes = Nodes(world: world)
        uridFeatures = urids.makeFeatureData(in: arena)
    }

    /// Loads only the bundle folders `bundles`, then what
    /// `lilv_world_load_all` loads after the bundles: the specifications
    /// those bundles declare and the plugin classes. Parsing every bundle's
    /// manifest and every specification is most of a short render's time.
    package init(bundles: [String]) {
        world = lilv_world_new()
        for bundle in bundles {
            // lilv wants a bundle's URI to end in a slash.
            let uri = lilv_new_file_uri(world, nil, bundle.hasSuffix("/") ? bundle : bundle + "/")
            lilv_world_load_bundle(world, uri)
            lilv_node_free(uri)
        }
        lilv_world_load_specifications(world)
        lilv_world_load_plugin_classes(world)
        nodes = Nodes(world: world)
        uridFeatures = urids.makeFeatureData(in: arena)
    }

    deinit {
        nodes.free()
        lilv_world_free(world)
    }

    /// Interned nodes, made once.
    struct Nodes {
        let audioPort, controlPort, cvPort, atomPort, outputPort: OpaquePointer
        let connectionOptional, isSideChain, toggled, integer, enumeration, logarithmic: OpaquePointer
        let designation, reportsLatency: OpaquePointer
        let minimumSize, preset, rdfsLabel, unitsUnit, unitsSymbol, doapName: OpaquePointer
        /// For `PluginCatalog.bundles(of:)`: presets other bundles declare.
        let appliesTo, seeAlso: OpaquePointer
        /// For `PluginBundleIndex`: the specifications a description reads.
        let coreSpecification, unitsSpecification, parametersSpecification: OpaquePointer
        /// For `PropertyDescription`: message parameters.
        let patchWritable, patchReadable, rdfsRange, minimum, maximum, defaultValue: OpaquePointer
        /// atom:supports (`PortDescription.supports`).
        let atomSupports: OpaquePointer

        init(world: OpaquePointer) {
            func node(_ uri: String) -> OpaquePointer { lilv_new_uri(world, uri) }
            audioPort = node(LV2URI.audioPort)
            controlPort = node(LV2URI.controlPort)
            cvPort = node(LV2URI.cvPort)
            atomPort = node(LV2URI.atomPort)
            outputPort = node(LV2URI.outputPort)
            connectionOptional = node(LV2URI.connectionOptional)
            isSideChain = node(LV2URI.isSideChain)
            toggled = node(LV2URI.toggled)
            integer = node(LV2URI.integer)
            enumeration = node(LV2URI.enumeration)
            logarithmic = node(LV2URI.logarithmic)
            designation = node(LV2URI.designation)
            reportsLatency = node(LV2URI.reportsLatency)
            minimumSize = node(LV2URI.minimumSize)
            preset = node(LV2URI.preset)
            rdfsLabel = node(LV2URI.rdfsLabel)
            unitsUnit = node(LV2URI.unitsUnit)
            unitsSymbol = node(LV2URI.unitsSymbol)
            doapName = node(LV2URI.doapName)
            appliesTo = node(LV2URI.appliesTo)
            seeAlso = node(LV2URI.rdfsSeeAlso)
            coreSpecification = node(LV2URI.coreSpecification)
            unitsSpecification = node(LV2URI.unitsSpecification)
            parametersSpecification = node(LV2URI.parametersSpecification)
            patchWritable = node(LV2URI.patchWritable)
            patchReadable = node(LV2URI.patchReadable)
            rdfsRange = node(LV2URI.rdfsRange)
            minimum = node(LV2URI.minimum)
            maximum = node(LV2URI.maximum)
            defaultValue = node(LV2URI.defaultValue)
            atomSupports = node(LV2URI.atomSupports)
        }

        func free() {
            for node in [audioPort, controlPort, cvPort, atomPort, outputPort, connectionOptional, isSideChain,
                         toggled, integer, enumeration, logarithmic, designation, reportsLatency, minimumSize, preset,
                         rdfsLabel, unitsUnit, unitsSymbol, doapName, appliesTo, seeAlso, coreSpecification,
                         unitsSpecification, parametersSpecification, patchWritable, patchReadable, rdfsRange, minimum, maximum, defaultValue,
                         atomSupports] {
                lilv_node_free(node)
            }
        }
    }
}

/// Reading lilv values into Swift.
enum Lilv {
    /// The string of a node lilv lent us (not freed).
    static func string(_ node: OpaquePointer?) -> String? {
        guard let node, let text = lilv_node_as_string(node) else { return nil }
        return String(cString: text)
    }

    /// The string of a node we own, which is freed.
    static func takeString(_ node: OpaquePointer?) -> String? {
        defer { if let node { lilv_node_free(node) } }
        return string(node)
    }

    /// A number node (float or int) we own, which is freed.
    static func takeNumber(_ node: OpaquePointer?) -> Float? {
        guard let node else { return nil }
        defer { lilv_node_free(node) }
        if lilv_node_is_float(node) || lilv_node_is_int(node) { return lilv_node_as_float(node) }
        if lilv_node_is_bool(node) { return lilv_node_as_bool(node) ? 1 : 0 }
        return nil
    }

    /// The URIs or strings of a node collection we own, which is freed.
    static func takeStrings(_ nodes: UnsafeMutableRawPointer?) -> [String] {
        guard let nodes else { return [] }
        defer { lilv_nodes_free(nodes) }
        var result: [String] = []
        var iterator = lilv_nodes_begin(nodes)
        while !lilv_nodes_is_end(nodes, iterator) {
            if let text = string(lilv_nodes_get(nodes, iterator)) { result.append(text) }
            iterator = lilv_nodes_next(nodes, iterator)
        }
        return result
    }
}
