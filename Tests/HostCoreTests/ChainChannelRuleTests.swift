import XCTest
@testable import HostCore

/// `--chain`'s channel rule: which stream channel feeds which stage input,
/// and the sound that comes out, against arithmetic.
final class ChainChannelRuleTests: XCTestCase {
    private let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 64, mode: .offline)
    /// Mean of two channels: the connection gain is 20·log10(1/2) dB.
    private let half = "(-6.0206 dB)"

    private func wiring(_ text: String, inputChannels: Int) throws -> [String] {
        try ChainSpec.patch(from: text, inputChannels: inputChannels, units: ChainTestUnits()).connections.map { connection in
            arrow(connection) + (connection.gainDecibels == 0 ? "" : String(format: " (%.4f dB)", connection.gainDecibels))
        }
    }

    private func failure(_ text: String, inputChannels: Int) -> String {
        do {
            _ = try ChainSpec.patch(from: text, inputChannels: inputChannels, units: ChainTestUnits())
            return "(built without error)"
        } catch {
            return error.description
        }
    }

    /// Renders the chain on `inputChannels` channels where channel c carries c × 1000 + frame.
    private func render(_ text: String, inputChannels: Int) throws -> (plan: RenderPlan, out: [[Float]]) {
        let patch = try ChainSpec.patch(from: text, inputChannels: inputChannels, units: ChainTestUnits())
        let plan = try PatchLoader(units: ChainTestUnits()).graph(for: patch).compile(format: format)
        let result = PlanHarness(plan: plan).render(frames: 64) { _, channel, frame in Float((channel + 1) * 1000 + frame) }
        return (plan, result["out"]!)
    }

    private func channel(_ number: Int) -> [Float] { (0..<64).map { Float(number * 1000 + $0) } }

    // MARK: Which channel feeds which input

    func testShapesThatFitAreWiredWhole() throws {
        XCTAssertEqual(try wiring("p4x2", inputChannels: 4), ["in -> p4x2", "p4x2 -> out"], "as wide as the inputs")
        XCTAssertEqual(try wiring("p2x2", inputChannels: 1), ["in -> p2x2", "p2x2 -> out"], "mono feeds every input")
        XCTAssertEqual(try wiring("p1x1", inputChannels: 6), ["in -> p1x1", "p1x1 -> out"], "one instance per channel")
    }

    func testAMonoInputWithWiderOutputsTakesTheMeanOfTheStream() throws {
        XCTAssertEqual(try wiring("p1x2", inputChannels: 2), ["in:1 -> p1x2:1 \(half)", "in:2 -> p1x2:1 \(half)", "p1x2 -> out"])
    }

    func testAWiderStreamIsFoldedOntoFewerInputs() throws {
        XCTAssertEqual(try wiring("p2x2", inputChannels: 4), [
            "in:1 -> p2x2:1 \(half)", "in:3 -> p2x2:1 \(half)", "in:2 -> p2x2:2 \(half)", "in:4 -> p2x2:2 \(half)", "p2x2 -> out",
        ])
        XCTAssertEqual(try wiring("p2x2", inputChannels: 3), [
            "in:1 -> p2x2:1 \(half)", "in:3 -> p2x2:1 \(half)", "in:2 -> p2x2:2", "p2x2 -> out",
        ], "a channel alone on its input keeps its level")
    }

    func testExtraInputsGetSilence() throws {
        XCTAssertEqual(try wiring("p4x2", inputChannels: 2), ["in:1 -> p4x2:1", "in:2 -> p4x2:2", "p4x2 -> out"])
    }

    func testExtraOutputsWidenTheStream() throws {
        // 1 → 4 outputs, then a 2-input stage folds the four.
        XCTAssertEqual(try wiring("p1x4 ! p2x2", inputChannels: 1), [
            "in -> p1x4", "p1x4:1 -> p2x2:1 \(half)", "p1x4:3 -> p2x2:1 \(half)", "p1x4:2 -> p2x2:2 \(half)", "p1x4:4 -> p2x2:2 \(half)",
            "p2x2 -> out",
        ])
    }

    func testStageOptions() throws {
        XCTAssertEqual(try wiring("p1x1 @mix", inputChannels: 2), ["in:1 -> p1x1:1 \(half)", "in:2 -> p1x1:1 \(half)", "p1x1 -> out"])
        XCTAssertEqual(try wiring("p2x2 @mix", inputChannels: 2), [
            "in:1 -> p2x2:1 \(half)", "in:2 -> p2x2:1 \(half)", "in:1 -> p2x2:2 \(half)", "in:2 -> p2x2:2 \(half)", "p2x2 -> out",
        ])
        XCTAssertEqual(try wiring("p1x2 @in=2", inputChannels: 2), ["in:2 -> p1x2:1", "p1x2 -> out"])
        XCTAssertEqual(try wiring("p2x2 @in=2,1", inputChannels: 2), ["in:2 -> p2x2:1", "in:1 -> p2x2:2", "p2x2 -> out"])
        XCTAssertEqual(try wiring("p1x2 @in=1+3", inputChannels: 3), ["in:1 -> p1x2:1 \(half)", "in:3 -> p1x2:1 \(half)", "p1x2 -> out"])
    }

    // MARK: Errors say what to type in the chain

    func testErrorsSuggestChainSyntax() {
        XCTAssertEqual(failure("p1x2 @in=1,2", inputChannels: 2),
                       "--chain:1:6: `p1x2` (p1x2) has 1 audio input, but `@in=1,2` feeds 2 (give one entry per input, such as `@in=1`; join channels with `+` to mix them)")
        XCTAssertEqual(failure("p2x2 @in=3", inputChannels: 2),
                       "--chain:1:6: `p2x2` (p2x2) has 2 audio inputs, but `@in=3` feeds 1 (give one entry per input, such as `@in=1,2`; join channels with `+` to mix them)")
        XCTAssertEqual(failure("p1x2 @in=3", inputChannels: 2),
                       "--chain:1:6: `@in=3` names channel 3, but the stream into `p1x2` (p1x2) has 2 channels (channels are 1 to 2)")
        XCTAssertEqual(failure("p0x2", inputChannels: 2),
                       "--chain:1:1: `p0x2` (p0x2) has no audio inputs, so it cannot process the chain's sound (a chain stage needs audio inputs and outputs; `fxhost info` shows a plugin's ports)")
        XCTAssertEqual(failure("a ! p2x0", inputChannels: 2),
                       "--chain:1:5: `p2x0` (p2x0) has no audio outputs, so nothing would reach the stage after it (a chain stage needs audio inputs and outputs; `fxhost info` shows a plugin's ports)")
        XCTAssertEqual(failure("a ! missing", inputChannels: 2),
                       "--chain:1:5: node `missing`: no installed LV2 plugin is called `missing` (did you mean `mixing`?)")
    }

    func testOptionSyntaxErrors() {
        XCTAssertEqual(chainFailure("a @mx"), "--chain:1:3: unknown stage option `@mx`; the options are `@mix` and `@in=CHANNELS` (did you mean `@mix`?)")
        XCTAssertEqual(chainFailure("a @mix=2"), "--chain:1:3: `@mix` takes no value; write `@mix`")
        XCTAssertEqual(chainFailure("a @in"),
                       "--chain:1:3: `@in` needs channels (write e.g. `@in=1` for the first channel, `@in=2,1` for two inputs, `@in=1+2` for the mean of two)")
        XCTAssertEqual(chainFailure("a @in=1,,2"),
                       "--chain:1:3: `@in=1,,2`: `` is not a channel number (1, 2, …) (write e.g. `@in=1` for the first channel, `@in=2,1` for two inputs, `@in=1+2` for the mean of two)")
        XCTAssertEqual(chainFailure("a @in=0"),
                       "--chain:1:3: `@in=0`: `0` is not a channel number (1, 2, …) (write e.g. `@in=1` for the first channel, `@in=2,1` for two inputs, `@in=1+2` for the mean of two)")
        XCTAssertEqual(chainFailure("a @mix @in=1"), "--chain:1:8: `@in=1` after `@mix`: a stage takes one channel option")
        XCTAssertEqual(chainFailure("@mix a"), "--chain:1:1: `@mix` looks like a stage option, but a plugin must come first")
    }

    // MARK: The sound, against arithmetic

    func testAMonoStageOnStereoRunsPerChannel() throws {
        let (plan, out) = try render("scale", inputChannels: 2)
        XCTAssertEqual(plan.nodes.first { $0.name == "scale" }?.instances, 2)
        XCTAssertEqual(out, [channel(1).map { $0 * 2 }, channel(2).map { $0 * 2 }])
    }

    func testMixTakesTheMeanOfTheStream() throws {
        // ×2 after the mean of 1000 + f and 2000 + f: 3000 + 2f.
        let (plan, out) = try render("scale @mix", inputChannels: 2)
        XCTAssertEqual(plan.nodes.first { $0.name == "scale" }?.instances, 1)
        XCTAssertEqual(out.count, 1)
        for (got, frame) in zip(out[0], 0...) { XCTAssertEqual(got, Float(3000 + 2 * frame), accuracy: 1e-3) }
    }

    func testFoldingFourChannelsOntoAStereoStage() throws {
        // Input 1 takes the mean of channels 1 and 3, input 2 of 2 and 4; ×2 gives their sums.
        let (_, out) = try render("scale2", inputChannels: 4)
        XCTAssertEqual(out.count, 2)
        for (got, frame) in zip(out[0], 0...) { XCTAssertEqual(got, Float(4000 + 2 * frame), accuracy: 1e-3) }
        for (got, frame) in zip(out[1], 0...) { XCTAssertEqual(got, Float(6000 + 2 * frame), accuracy: 1e-3) }
    }

    func testChannelMapSwaps() throws {
        let (_, out) = try render("scale2 @in=2,1", inputChannels: 2)
        XCTAssertEqual(out, [channel(2).map { $0 * 2 }, channel(1).map { $0 * 2 }])
    }
}
