import HostCore
@testable import LV2Bridge
import XCTest

enum ChainOutcome {
    /// The plan's output width and the number of plugin instances.
    case rendered(outputChannels: Int, instances: Int)
    case refused(String)

    /// One line, for a walk in child processes (`ProcessWalk`).
    var line: String {
        switch self {
        case .rendered(let outputChannels, let instances): return "rendered \(outputChannels) \(instances)"
        case .refused(let reason): return "refused " + reason
        }
    }

    init?(line: String) {
        if line.hasPrefix("refused ") {
            self = .refused(String(line.dropFirst("refused ".count)))
            return
        }
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "rendered", let outputs = Int(parts[1]), let instances = Int(parts[2]) else { return nil }
        self = .rendered(outputChannels: outputs, instances: instances)
    }
}

/// Builds `--chain "URI"` the way the command line does (`ChainSpec`, then
/// `PatchLoader`, then `compile`) on a live input `inputChannels` wide, and
/// renders four blocks of noise through it.
func renderChain(_ plugin: PluginDescription, inputChannels: Int) -> ChainOutcome {
    let plan: RenderPlan
    do {
        let patch = try ChainSpec.patch(from: plugin.uri, inputChannels: inputChannels, units: Installed.provider)
        plan = try PatchLoader(units: Installed.provider).graph(for: patch)
            .compile(format: RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline))
    } catch {
        return .refused(error.description)
    }
    plan.connectPorts()
    var noise = Noise()
    for _ in 0..<4 {
        for source in plan.sources {
            for buffer in source.channels {
                for frame in 0..<256 { buffer[frame] = noise.next() }
            }
        }
        plan.program.render(frames: 256)
    }
    let stage = plan.nodes.first { $0.name != "in" && $0.name != "out" }
    return .rendered(outputChannels: plan.outputs[0].channels.count, instances: stage?.instances ?? 0)
}

final class ChainAllPluginsTests: XCTestCase {
    /// Every installed effect is a `--chain` stage on mono and on stereo
    /// input; only the effects the host refuses anyway are refused, with a reason.
    func testEveryEffectRendersAsAChainOnMonoAndStereo() {
        let effects = Installed.effects
        XCTAssertGreaterThan(effects.count, 100, "the Debian plugin packages should be installed")
        var rendered = 0
        var refused: [String: String] = [:]
        // Each in a child process (`ProcessWalk`): a crash fails that plugin, and the walk goes on.
        let walked = effects.flatMap { plugin in [1, 2].map { (plugin, $0) } }
        let results = ProcessWalk.walk(count: walked.count, secondsEach: 60, encode: \.line,
                                       decode: ChainOutcome.init(line:)) { renderChain(walked[$0].0, inputChannels: walked[$0].1) }
        for ((plugin, channels), result) in zip(walked, results) {
            guard case .finished(let outcome) = result else {
                XCTFail("\(plugin.uri) on \(channels) channel(s) did not render 4 blocks: \(result)")
                continue
            }
            switch outcome {
            case .rendered(let outputChannels, let instances):
                rendered += 1
                let inputs = plugin.mainAudioInputs.count, outputs = plugin.mainAudioOutputs.count
                // The rule: a mono effect runs per channel, anything else gives its outputs.
                let perChannel = inputs == 1 && outputs == 1
                XCTAssertEqual(outputChannels, perChannel ? channels : outputs, "\(plugin.uri) on \(channels) channel(s)")
                XCTAssertEqual(instances, perChannel ? channels : 1, "\(plugin.uri) on \(channels) channel(s)")
            case .refused(let reason):
                refused[plugin.uri] = reason
                let expected = Installed.refusedEffects[plugin.uri]
                XCTAssertNotNil(expected, "\(plugin.uri) on \(channels) channel(s) was refused: \(reason)")
                XCTAssertTrue(reason.contains(expected ?? "\u{0}"), "\(plugin.uri) refused for another reason: \(reason)")
            }
        }
        print("chain walk: \(effects.count) effects on mono and stereo, \(rendered) rendered, \(refused.count) refused")
        for (uri, reason) in refused.sorted(by: { $0.key < $1.key }) { print("  refused \(uri): \(reason)") }
    }
}
