import HostCore

/// A live session's MIDI control on the control thread: the mappings and
/// scenes (the patch's, then as `learn` and `unlearn` change them), a
/// `learn` waiting for a controller, and what the indices of each recent
/// realtime table mean, so a report read after a newer table was published
/// still names the right parameter.
struct LiveMIDIState {
    /// A scene resolved against one plan: where each value goes.
    struct ResolvedScene {
        var name: String
        var parameters: [(node: String, symbol: String, value: Float, target: UnsafeMutablePointer<Float>)]
        var bypasses: [(node: String, on: Bool, flag: UnsafeMutablePointer<UInt8>)]
    }

    /// What one table's indices mean.
    struct Resolution {
        /// Index `i` of a report is `mappings[i]`.
        var mappings: [MIDIMapping]
        var scenes: [ResolvedScene]
    }

    var control = MIDIControl()
    /// `learn NODE PARAM` waiting for the next controller: the node and the
    /// parameter's symbol (or `bypass`).
    var learning: (node: String, target: String)?
    var generation: Int32 = 0
    /// The last few tables' meanings, by generation.
    var resolutions: [Int32: Resolution] = [:]
    /// Changes taken from the realtime thread and recorded, not yet announced.
    var undelivered: [LiveSessionChange] = []
    /// How many tables back a report may come from and still be announced.
    static let keptResolutions: Int32 = 8
}
