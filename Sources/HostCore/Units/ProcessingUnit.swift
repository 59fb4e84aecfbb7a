/// Something the graph can run that is not built in: an LV2 plugin today.
/// HostCore knows units only through this protocol, so it needs no lilv.
///
/// All of it is called off the realtime thread. What runs on the realtime
/// thread is the `ProcessorKernel`s a unit hands out: plain C function
/// pointers and memory, no Swift references.
public protocol ProcessingUnit: AnyObject {
    /// For messages and `check` output.
    var displayName: String { get }
    /// What the patch names it by, when it has such a name (an LV2 plugin's URI).
    var identifier: String? { get }
    /// The labels of the presets `applyPreset` takes, for menus and completion.
    var presetLabels: [String] { get }
    /// Main audio inputs of one instance, in channel order (sidechains and
    /// optional inputs are not listed: the unit feeds them silence).
    var inputPorts: [AudioPortInfo] { get }
    /// Main audio outputs of one instance, in channel order.
    var outputPorts: [AudioPortInfo] { get }
    /// Input control parameters.
    var parameters: [ParameterInfo] { get }
    /// Port symbols of the MIDI inputs of one instance (an LV2 atom input
    /// that takes `midi:MidiEvent`), in the order of its kernels' `midiInputs`.
    var midiInputs: [String] { get }
    /// Port symbols of its MIDI outputs, in the order of `midiOutputs`.
    var midiOutputs: [String] { get }

    /// Sets an input control for every instance. Out-of-range values and
    /// unknown symbols are errors that say the range or what was meant.
    func setParameter(_ symbol: String, to value: ParameterValue) throws(UnitError)
    /// The current value of an input control.
    func parameterValue(_ symbol: String) -> Float?
    /// Applies an LV2 preset, by label or URI, to every instance (now and later ones).
    func applyPreset(_ name: String) throws(UnitError)

    /// The step before compiling: makes sure `count` instances exist for
    /// this format and returns their kernels and latency, all a compiler
    /// needs. Instances already made are kept (with their state) and returned
    /// first, so a rebuilt plan keeps a unit's sound. A different format makes
    /// new instances; the old ones live on in the plans that use them (each
    /// kernel's `owner`). What differs by format (the sample rate, whether
    /// the render freewheels) stays with that format's instances: preparing
    /// an offline render leaves the live instances as they play.
    func prepareInstances(count: Int, format: RenderFormat) throws(UnitError) -> PreparedUnit

    /// The input every instance reads its on/off from when the unit can
    /// bypass itself (an LV2 `lv2:enabled` port: it fades on its own, no
    /// click); nil: the host bypasses it with a passthrough. Plans store 1
    /// (on) or 0 (bypassed) into it before each run.
    var enabledControl: UnsafeMutablePointer<Float>? { get }

    /// Live control: the memory every instance reads an input control from,
    /// so a realtime command can store a new value between blocks. nil when
    /// the unit has no such parameter (or keeps no shared memory).
    func controlPointer(symbol: String) -> UnsafeMutablePointer<Float>?
    /// The number `setParameter` would store for `value`, checked the same
    /// way, without storing it (the live host stores it on the realtime thread).
    func checkedValue(_ symbol: String, _ value: ParameterValue) throws(UnitError) -> Float
    /// Live control: a preset's parameter values by symbol, without applying
    /// them, and whether it also carries plugin state (which only
    /// `applyPreset` restores, between runs). nil when the unit cannot tell.
    func presetParameterValues(_ name: String) throws(UnitError) -> (values: [String: Float], carriesState: Bool)?
    /// Saves the unit's whole state, with `portValues` as its parameters
    /// (by symbol), as a preset named `label` that `applyPreset` (and other
    /// hosts) can load; returns where it was written.
    func savePreset(_ label: String, portValues: [String: Float]) throws(UnitError) -> String

    /// Message parameters (LV2 `patch:writable`: a file, a sample, a gain
    /// the plugin takes as a message, not a control port). `name` is the
    /// property's short name, label or URI; an input control's symbol wins
    /// over a property's short name (its URI always means the property).
    func isMessageParameter(_ name: String) -> Bool
    /// The short name of the message parameter `name` means (nil: none, or a control port).
    func messageParameterShortName(_ name: String) -> String?
    /// Sends a message parameter's value to every instance (and those made
    /// later); a relative path is taken from `folder` (nil: the working
    /// directory) and must exist. Returns the value as sent, as text.
    func setMessageParameter(_ name: String, to value: ParameterValue, relativeTo folder: String?) throws(UnitError) -> String
    /// Every message parameter's latest value (as set, or as the plugin last
    /// reported it) by short name, as text.
    func messageParameterValues() -> [String: String]
    /// Every message parameter the host may set, in the plugin's order,
    /// whether set yet or not (the `state` lists them all).
    var writableMessageParameters: [WritableMessageParameter] { get }
    /// True when setting this message parameter must not overlap the
    /// unit's run (it goes through plugin state): a live host sets it
    /// while the unit is silent.
    func messageParameterNeedsSilence(_ name: String) -> Bool
    /// `setMessageParameter`'s checks without sending: the value as it
    /// would be sent, as text (a path made absolute).
    func checkedMessageParameter(_ name: String, _ value: ParameterValue, relativeTo folder: String?) throws(UnitError) -> String
    /// The message parameters the host has set, in the order first set (what `save` writes).
    func messageParametersSet() -> [MessageParameterSetting]
    /// Where the plugin stands with what it was sent (`MessageOutcome`).
    func messageOutcome() -> MessageOutcome
    /// Takes back the record of the last `setMessageParameter` of `name`,
    /// which the plugin could not apply: `save` and later instances get
    /// the value before it.
    func withdrawMessageParameter(_ name: String)

    /// The gate an offline driver holds shared around each block that runs
    /// this unit, when its kind has threading rules across instances (LV2's);
    /// nil: none.
    var threadingGate: (any UnitThreadingGate)? { get }

    /// Whether what it outputs is out of time on purpose (a spillover's
    /// tail), so its output counts as latency 0: a latent node feeding it
    /// never delays the nodes it feeds, nor the plan. False for every plugin.
    var outputIgnoresLatency: Bool { get }
}

extension ProcessingUnit {
    public var identifier: String? { nil }

    public var outputIgnoresLatency: Bool { false }

    public var presetLabels: [String] { [] }

    public func isMessageParameter(_ name: String) -> Bool { false }

    public func messageParameterShortName(_ name: String) -> String? { nil }

    public func setMessageParameter(_ name: String, to value: ParameterValue,
                                    relativeTo folder: String?) throws(UnitError) -> String {
        throw UnitError("`\(displayName)` has no parameter `\(name)`")
    }

    public func messageParameterValues() -> [String: String] { [:] }

    public var writableMessageParameters: [WritableMessageParameter] { [] }

    public func messageParameterNeedsSilence(_ name: String) -> Bool { false }

    public func checkedMessageParameter(_ name: String, _ value: ParameterValue,
                                        relativeTo folder: String?) throws(UnitError) -> String {
        throw UnitError("`\(displayName)` has no parameter `\(name)`")
    }

    public func messageParametersSet() -> [MessageParameterSetting] { [] }

    public func messageOutcome() -> MessageOutcome { MessageOutcome() }

    public func withdrawMessageParameter(_ name: String) {}

    /// `setParameter`, or `setMessageParameter` for a message parameter:
    /// what a patch's `params:` and `--chain` do.
    public func setParameter(_ name: String, to value: ParameterValue, relativeTo folder: String?) throws(UnitError) {
        if isMessageParameter(name) {
            _ = try setMessageParameter(name, to: value, relativeTo: folder)
        } else {
            try setParameter(name, to: value)
        }
    }

    public var midiInputs: [String] { [] }

    public var midiOutputs: [String] { [] }

    public var enabledControl: UnsafeMutablePointer<Float>? { nil }

    public var threadingGate: (any UnitThreadingGate)? { nil }

    public func controlPointer(symbol: String) -> UnsafeMutablePointer<Float>? { nil }

    public func checkedValue(_ symbol: String, _ value: ParameterValue) throws(UnitError) -> Float {
        throw UnitError("`\(displayName)` cannot change parameters while it plays")
    }

    public func presetParameterValues(_ name: String) throws(UnitError) -> (values: [String: Float], carriesState: Bool)? {
        nil
    }

    public func savePreset(_ label: String, portValues: [String: Float]) throws(UnitError) -> String {
        throw UnitError("`\(displayName)` cannot save presets")
    }
}
