/// One `map:` entry of `midi-control:`: a MIDI message (a controller or a
/// program change, on one channel or any) and what it drives.
package struct MIDIMapping: Sendable, Equatable, CustomStringConvertible, Codable {
    package enum Trigger: Sendable, Equatable, Codable {
        /// Control change number 0...127.
        case controller(Int)
        /// Program change number 0...127 (the number on the wire, from 0).
        case program(Int)
    }

    package enum Target: Sendable, Equatable, Codable {
        /// A plugin parameter; `range` nil: the parameter's own range.
        case parameter(node: String, symbol: String, range: ClosedRange<Double>?, curve: MIDICurve)
        /// A plugin node's bypass, as a switch: values from 64 mean bypassed.
        case bypass(node: String)
        case scene(String)
        /// `to: tempo:tap`: a value from 64 (a footswitch pressed) is a tap of tap tempo.
        case tempoTap
        /// `morph: [first, second]`: 0 is the first scene, 127 the second, each
        /// continuous value in between on its scale; switches at the midpoint.
        case morph(String, String)
    }

    /// What `to:` names for tap tempo: always tap tempo, never a node's parameter.
    package static let tempoTapDestination = "tempo:tap"

    package var trigger: Trigger
    /// 1...16; nil: any channel.
    package var channel: Int?
    package var target: Target
    package var location: SourceLocation?
    /// A program change's scene glides there over this many seconds; nil: it switches in one block.
    package var glide: Double?

    package init(trigger: Trigger, channel: Int? = nil, target: Target, location: SourceLocation? = nil, glide: Double? = nil) {
        self.trigger = trigger
        self.channel = channel
        self.target = target
        self.location = location
        self.glide = glide
    }

    /// The node the mapping changes, if any (a scene changes many).
    package var node: String? {
        switch target {
        case .parameter(let node, _, _, _), .bypass(let node): return node
        case .scene, .tempoTap, .morph: return nil
        }
    }

    /// The parameter (or `bypass`) it changes, as `node:param`.
    package var destination: String {
        switch target {
        case .parameter(let node, let symbol, _, _): return "\(node):\(symbol)"
        case .bypass(let node): return "\(node):bypass"
        case .scene(let name): return "scene \(name)"
        case .tempoTap: return Self.tempoTapDestination
        case .morph(let first, let second): return "morph \(first) \(second)"
        }
    }

    /// As the patch writes it: `{ cc: 7, to: amp:gain, range: [-30, 0] }`.
    package var description: String {
        var parts: [String] = []
        switch trigger {
        case .controller(let number): parts.append("cc: \(number)")
        case .program(let number): parts.append("program: \(number)")
        }
        switch target {
        case .parameter(let node, let symbol, let range, let curve):
            parts.append("to: \(node):\(symbol)")
            if let range { parts.append("range: [\(NumberText.format(range.lowerBound)), \(NumberText.format(range.upperBound))]") }
            if curve == .logarithmic { parts.append("curve: log") }
        case .bypass(let node):
            parts.append("to: \(node):bypass")
        case .scene(let name):
            parts.append("scene: \(name)")
            if let glide { parts.append("glide: \(SceneGlideTime.text(glide))") }
        case .tempoTap:
            parts.append("to: \(Self.tempoTapDestination)")
        case .morph(let first, let second):
            parts.append("morph: [\(first), \(second)]")
        }
        if let channel { parts.append("channel: \(channel)") }
        return "{ " + parts.joined(separator: ", ") + " }"
    }
}

/// How a controller's 0...127 spreads over a range.
package enum MIDICurve: UInt8, Sendable, Equatable, Codable {
    /// Equal steps: low + (high - low) × value / 127.
    case linear
    /// Equal ratios, for frequencies and times: low × (high / low)^(value / 127).
    case logarithmic
}
