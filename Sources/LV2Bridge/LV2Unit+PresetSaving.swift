import CCoreShim
import CLilv
import Foundation
import HostCore

/// Saving a unit's whole state as an LV2 preset bundle, as jalv and lilv do,
/// so that `preset` here, and any other LV2 host, can load it.
extension LV2Unit {
    /// `ProcessingUnit`'s: into `~/.lv2`; returns the bundle's path.
    package func savePreset(_ label: String, portValues: [String: Float]) throws(UnitError) -> String {
        let preset: PresetDescription = try savePreset(label, portValues: portValues, in: Self.userPresetFolder)
        return URL(string: preset.uri).map { $0.deletingLastPathComponent().path } ?? preset.uri
    }

    /// Where `savePreset` puts bundles unless told: `~/.lv2`, on the LV2
    /// path every host searches.
    package static var userPresetFolder: URL {
        let home = ProcessInfo.processInfo.environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".lv2")
    }

    /// The bundle `savePreset` writes for `label`: `fxhost-LABEL.lv2`,
    /// anything but letters, digits, `-` and `_` written as `-`.
    package static func presetBundle(for label: String, in folder: URL) -> URL {
        let safe = String(label.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" ? Character($0) : "-"
        })
        return folder.appendingPathComponent("fxhost-\(safe).lv2", isDirectory: true)
    }

    /// Saves the plugin's state (its own, through LV2 state, with the files
    /// it refers to linked into the bundle) and `portValues` (input controls
    /// by symbol: the live session's record, since the realtime thread
    /// writes the controls) as preset `label` in `folder`'s
    /// `fxhost-LABEL.lv2`, replacing a preset saved there before, loads it
    /// into this unit's world and returns it. May run while the realtime
    /// thread runs the instance: LV2 lets state be saved beside `run()`.
    package func savePreset(_ label: String, portValues: [String: Float],
                            in folder: URL) throws(UnitError) -> PresetDescription {
        guard !label.trimmingCharacters(in: .whitespaces).isEmpty else { throw UnitError("a preset needs a name") }
        guard let instance = instances.first else {
            throw UnitError("`\(displayName)` has not run yet, so it has no state to save")
        }
        let bundle = Self.presetBundle(for: label, in: folder)
        let bundleNode = lilv_new_file_uri(world.world, nil, bundle.path + "/")
        defer { lilv_node_free(bundleNode) }
        do {
            if FileManager.default.fileExists(atPath: bundle.path) {
                lilv_world_unload_bundle(world.world, bundleNode)
                try FileManager.default.removeItem(at: bundle)
            }
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        } catch {
            throw UnitError("cannot write the preset bundle \(bundle.path) (\((error as NSError).localizedDescription))")
        }

        // Every input control port, in the plugin's own order of symbols.
        var values: [(String, Float)] = []
        for port in plugin.ports where port.kind == .control && port.direction == .input {
            values.append((port.symbol, portValues[port.symbol] ?? controls[Int(port.index)]))
        }
        let state = newState(of: instance, portValues: values, bundle: bundle.path)
        guard let state else { throw UnitError("`\(displayName)` gave no state to save") }
        defer { lilv_state_free(state) }
        lilv_state_set_label(state, label)
        let (map, unmap) = world.uridFeatures
        guard lilv_state_save(world.world, map, unmap, state, nil, bundle.path, "state.ttl") == 0 else {
            throw UnitError("lilv could not save the preset into \(bundle.path)")
        }
        lilv_world_load_bundle(world.world, bundleNode)
        plugin.presets = PluginReader(world: world, plugin: lilvPlugin).readPresets()
        let stateFile = bundle.appendingPathComponent("state.ttl").absoluteString
        guard let saved = plugin.presets.first(where: { $0.uri == stateFile }) ?? plugin.presets.first(where: { $0.label == label })
        else { throw UnitError("the preset saved in \(bundle.path) does not load back") }
        return saved
    }

    /// `instance`'s state as lilv makes it: the plugin's own properties
    /// (its save(), which LV2 lets run beside `run()`, marked as the culprit
    /// cell's state save) and `portValues` by symbol; the files it names
    /// copied or linked into `bundle`. nil: the plugin gave none.
    func newState(of instance: LV2Instance, portValues: [(String, Float)], bundle: String) -> OpaquePointer? {
        var values = PortValues()
        for (symbol, value) in portValues { values.add(symbol, value) }
        values.floatType = world.urids.map(LV2URI.atomFloat)
        defer { values.free() }
        return withUnsafeMutablePointer(to: &values) { context in
            PluginCall.marked(FXHOST_CALL_STATE_SAVE) { lilv_state_new_from_instance(
                lilvPlugin, instance.instance, world.uridFeatures.map, scratchFolder, bundle, bundle, bundle,
                { symbol, context, size, type in
                    guard let symbol, let context else { return nil }
                    let values = context.assumingMemoryBound(to: PortValues.self)
                    guard let pointer = values.pointee.pointer(String(cString: symbol)) else { return nil }
                    size?.pointee = UInt32(MemoryLayout<Float>.size)
                    type?.pointee = values.pointee.floatType
                    return UnsafeRawPointer(pointer)
                },
                context, UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue), instance.stateFeatures) }
        }
    }
}

/// Port values lilv asks for one symbol at a time while saving; each value
/// has a stable address until `free`.
private struct PortValues {
    private var symbols: [String] = []
    private var storage: [UnsafeMutablePointer<Float>] = []
    var floatType: UInt32 = 0

    mutating func add(_ symbol: String, _ value: Float) {
        let pointer = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        pointer.initialize(to: value)
        symbols.append(symbol)
        storage.append(pointer)
    }

    func pointer(_ symbol: String) -> UnsafeMutablePointer<Float>? {
        symbols.firstIndex(of: symbol).map { storage[$0] }
    }

    func free() {
        for pointer in storage { pointer.deallocate() }
    }
}
