import Foundation

/// How a `--chain` stage takes the stream before it, so that every effect
/// fits whatever the stream's width (documented in docs/patch-format.md,
/// "Channels in a chain"). With a stream of W channels and a plugin of I
/// audio inputs and O audio outputs, automatically:
///
/// - I = W: channels in order, one instance;
/// - W = 1: the mono stream feeds every input, one instance;
/// - I = 1 and O = 1: one instance per channel, and the stream stays W wide;
/// - otherwise I < W: the stream is folded onto the inputs: channel c feeds
///   input ((c − 1) mod I) + 1, and each input takes the mean of the
///   channels it gets (a stereo stream into a mono-in reverb: (L + R) / 2);
/// - I > W: the channels feed the first W inputs in order, the rest get silence.
///
/// After the stage the stream is O wide (W when it ran per channel). The mean,
/// not the sum, because it keeps a sound that is the same on every channel
/// at its level and never exceeds the loudest channel's peak.
enum ChainChannelRule {
    struct Wiring: Equatable {
        enum Feed: Equatable {
            /// `stream -> stage` as a whole: the graph pairs the channels
            /// (in order, mono to every input, or one instance per channel).
            case whole
            /// Per stage input, the stream channels (from 0) whose mean feeds
            /// it; none: silence.
            case inputs([[Int]])
        }
        var feed: Feed
        /// The stream's width after the stage.
        var outputWidth: Int
    }

    /// The wiring for `stage`, a plugin of `inputs` → `outputs` audio ports
    /// called `described` in messages, on a stream `streamWidth` wide.
    static func wiring(for stage: ChainStage, described: String, inputs: Int, outputs: Int,
                       streamWidth: Int) throws(GraphError) -> Wiring {
        let location = stage.plugin.pluginLocation
        guard inputs > 0 else {
            throw GraphError("\(described) has no audio inputs, so it cannot process the chain's sound", at: location,
                             suggestion: "a chain stage needs audio inputs and outputs; `fxhost info` shows a plugin's ports")
        }
        guard outputs > 0 else {
            throw GraphError("\(described) has no audio outputs, so nothing would reach the stage after it", at: location,
                             suggestion: "a chain stage needs audio inputs and outputs; `fxhost info` shows a plugin's ports")
        }
        switch stage.channels {
        case .automatic:
            if inputs == streamWidth || streamWidth == 1 { return Wiring(feed: .whole, outputWidth: outputs) }
            if inputs == 1 && outputs == 1 { return Wiring(feed: .whole, outputWidth: streamWidth) }
            if inputs < streamWidth {
                let folded = (0..<inputs).map { input in Array(stride(from: input, to: streamWidth, by: inputs)) }
                return Wiring(feed: .inputs(folded), outputWidth: outputs)
            }
            return Wiring(feed: .inputs((0..<inputs).map { $0 < streamWidth ? [$0] : [] }), outputWidth: outputs)
        case .mix:
            return Wiring(feed: .inputs(Array(repeating: Array(0..<streamWidth), count: inputs)), outputWidth: outputs)
        case .map(let entries):
            let optionLocation = stage.channelsLocation ?? location
            guard entries.count == inputs else {
                throw GraphError(
                    "\(described) has \(plural(inputs, "audio input")), but `\(stage.channels.text)` feeds \(entries.count)",
                    at: optionLocation,
                    suggestion: "give one entry per input, such as `@in=\(example(inputs: inputs, streamWidth: streamWidth))`; join channels with `+` to mix them")
            }
            if let channel = entries.joined().first(where: { $0 > streamWidth }) {
                throw GraphError("`\(stage.channels.text)` names channel \(channel), but the stream into \(described) has \(plural(streamWidth, "channel"))",
                                 at: optionLocation,
                                 suggestion: streamWidth == 1 ? "the only channel is 1" : "channels are 1 to \(streamWidth)")
            }
            return Wiring(feed: .inputs(entries.map { $0.map { $0 - 1 } }), outputWidth: outputs)
        }
    }

    /// The connection gain that makes `count` summed channels their mean.
    static func meanGainDecibels(of count: Int) -> Double {
        count > 1 ? Decibels.fromLinear(1 / Double(count)) : 0
    }

    private static func example(inputs: Int, streamWidth: Int) -> String {
        (0..<inputs).map { String($0 % streamWidth + 1) }.joined(separator: ",")
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
