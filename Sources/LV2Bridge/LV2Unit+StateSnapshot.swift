import CLilv
import HostCore

/// A unit's own LV2 state as a snapshot (`StateSnapshots`): taken from the
/// instance that plays live, beside its `run()`, and given back to a new
/// unit as a preset's state is, before its instances are made.
extension LV2Unit {
    /// True when the plugin keeps state of its own (`state:interface`).
    var keepsState: Bool {
        let interface = lilv_new_uri(world.world, LV2URI.stateInterface)
        defer { lilv_node_free(interface) }
        return lilv_plugin_has_extension_data(lilvPlugin, interface)
    }

    /// The plugin's own properties (no port values: the patch's text holds
    /// those) from the first instance, when it plays live (not a bounce's
    /// offline instances), its files put in `bundle`; nil: no live instance,
    /// or the plugin gave no state.
    func snapshotState(into bundle: String) -> OpaquePointer? {
        guard format?.mode == .live, let instance = instances.first else { return nil }
        return newState(of: instance, portValues: [], bundle: bundle)
    }

    /// Gives `state` (taken over) to every instance, those made later
    /// included, as a preset's state: it replaces the patch's preset's,
    /// and the message parameters set before are sent after it. Before the
    /// unit plays: a restore must not overlap `run()`.
    func restoreSnapshot(_ state: OpaquePointer) {
        for instance in instances { instance.restore(state) }
        if let presetState { lilv_state_free(presetState) }
        presetState = state
    }
}
