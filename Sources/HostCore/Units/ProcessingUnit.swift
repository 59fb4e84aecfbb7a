/// Something the graph can run that is not built in: an LV2 plugin today.
/// HostCore knows units only through this protocol, so it needs no lilv.
///
/// All of it is called off the realtime thread. What runs on the realtime
/// thread is the `ProcessorKernel`s a unit hands out: plain C function
/// pointers and memory, no Swift references.
public protocol ProcessingUnit: AnyObject {
    /// For messages and `check` output.
    var displayName: String { get }
    /// Main audio inputs of one instance, in channel order (sidechains and
    /// optional inputs are not listed: the unit feeds them silence).
    var inputPorts: [AudioPortInfo] { get }
    /// Main audio outputs of one instance, in channel order.
    var outputPorts: [AudioPortInfo] { get }
    /// Input control parameters.
    var parameters: [ParameterInfo] { get }
    /// Preset labels, for messages and suggestions.
    var presetNames: [String] { get }

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
}

extension ProcessingUnit {
    public func controlPointer(symbol: String) -> UnsafeMutablePointer<Float>? { nil }

    public func checkedValue(_ symbol: String, _ value: ParameterValue) throws(UnitError) -> Float {
        throw UnitError("`\(displayName)` cannot change parameters while it plays")
    }

    public func presetParameterValues(_ name: String) throws(UnitError) -> (values: [String: Float], carriesState: Bool)? {
        nil
    }
}

/// A unit's instances for one format, as the compiler takes them.
public struct PreparedUnit {
    /// One kernel per instance, in channel order.
    public var kernels: [ProcessorKernel]
    /// Processing latency in frames, as the instances report it before their first block.
    public var latencyFrames: Int

    public init(kernels: [ProcessorKernel], latencyFrames: Int = 0) {
        self.kernels = kernels
        self.latencyFrames = latencyFrames
    }
}

/// Sample rate and block limits every unit in one plan shares.
public struct RenderFormat: Sendable, Equatable {
    public var sampleRate: Double
    /// The largest block `render` will be asked for.
    public var maxBlockFrames: Int
    public var mode: RenderMode

    public init(sampleRate: Double, maxBlockFrames: Int, mode: RenderMode) {
        self.sampleRate = sampleRate
        self.maxBlockFrames = maxBlockFrames
        self.mode = mode
    }
}

public enum RenderMode: Sendable, Equatable {
    /// Driven faster than realtime from files: the LV2 worker runs synchronously.
    case offline
    /// Driven by a realtime clock: the LV2 worker runs on its own thread.
    case live
}

public struct AudioPortInfo: Sendable, Equatable {
    public var symbol: String
    public var name: String

    public init(symbol: String, name: String) {
        self.symbol = symbol
        self.name = name
    }
}

public struct ParameterInfo: Sendable, Equatable {
    public var symbol: String
    public var name: String
    public var minimum: Float
    public var maximum: Float
    public var defaultValue: Float
    public var isToggle: Bool
    public var isInteger: Bool
    /// Enumeration labels and their values (lv2:enumeration scale points).
    public var enumeration: [(label: String, value: Float)]
    /// Unit label, such as "dB" or "ms", when the plugin says.
    public var unit: String?

    public init(symbol: String, name: String, minimum: Float, maximum: Float, defaultValue: Float,
                isToggle: Bool = false, isInteger: Bool = false,
                enumeration: [(label: String, value: Float)] = [], unit: String? = nil) {
        self.symbol = symbol
        self.name = name
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.isToggle = isToggle
        self.isInteger = isInteger
        self.enumeration = enumeration
        self.unit = unit
    }

    public static func == (lhs: ParameterInfo, rhs: ParameterInfo) -> Bool {
        lhs.symbol == rhs.symbol && lhs.name == rhs.name && lhs.minimum == rhs.minimum
            && lhs.maximum == rhs.maximum && lhs.defaultValue == rhs.defaultValue
            && lhs.isToggle == rhs.isToggle && lhs.isInteger == rhs.isInteger
            && lhs.enumeration.map(\.label) == rhs.enumeration.map(\.label)
            && lhs.enumeration.map(\.value) == rhs.enumeration.map(\.value) && lhs.unit == rhs.unit
    }
}

/// A unit refused a request. The message is one sentence without location;
/// the caller adds where the request came from.
public struct UnitError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var suggestion: String?

    public init(_ message: String, suggestion: String? = nil) {
        self.message = message
        self.suggestion = suggestion
    }

    public var description: String { suggestion.map { "\(message) (\($0))" } ?? message }
}

/// Finds units by the name a patch gives them (URI or short name).
public protocol UnitProvider {
    /// A new unit for `reference`. Unknown and ambiguous names are errors that
    /// list what was meant or the candidates.
    func makeUnit(_ reference: String) throws(UnitError) -> any ProcessingUnit
}
