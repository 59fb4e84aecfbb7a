import Foundation
import HostCore
@testable import LV2Bridge
import XCTest

/// `--chain`'s channel rule with small plugins whose sound is known, against arithmetic.
final class ChainChannelRulePluginTests: XCTestCase {
    /// Renders `--chain text` on `inputChannels` where channel c (from 0) at
    /// frame f carries a distinct ramp: (c + 1) / 10 + f / 10000.
    private func render(_ text: String, inputChannels: Int, frames: Int = 512) throws -> (plan: RenderPlan, out: [[Float]]) {
        let patch = try ChainSpec.patch(from: text, inputChannels: inputChannels, units: Installed.provider)
        let plan = try PatchLoader(units: Installed.provider).graph(for: patch)
            .compile(format: RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline))
        plan.connectPorts()
        var out = [[Float]](repeating: [], count: plan.outputs[0].channels.count)
        for start in stride(from: 0, to: frames, by: 256) {
            for (channel, buffer) in plan.sources[0].channels.enumerated() {
                for frame in 0..<256 { buffer[frame] = input(channel, start + frame) }
            }
            plan.program.render(frames: 256)
            for (channel, buffer) in plan.outputs[0].channels.enumerated() {
                out[channel] += UnsafeBufferPointer(start: buffer, count: 256)
            }
        }
        return (plan, out)
    }

    private func input(_ channel: Int, _ frame: Int) -> Float { Float(channel + 1) / 10 + Float(frame) / 10000 }

    private func assertClose(_ got: [Float], _ expected: (Int) -> Float, _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        for (frame, value) in got.enumerated() where abs(value - expected(frame)) > 1e-6 {
            return XCTFail("\(what): frame \(frame) is \(value), expected \(expected(frame))", file: file, line: line)
        }
    }

    func testAMonoAmpOnStereoRunsOncePerChannel() throws {
        // eg-amp multiplies by 10^(gain/20): -6 dB is ×0.501187.
        let (plan, out) = try render("eg-amp gain=-6", inputChannels: 2)
        XCTAssertEqual(plan.nodes.first { $0.name == "eg-amp" }?.instances, 2)
        XCTAssertEqual(out.count, 2)
        let gain = Float(pow(10, -6.0 / 20))
        assertClose(out[0], { self.input(0, $0) * gain }, "left")
        assertClose(out[1], { self.input(1, $0) * gain }, "right")
    }

    func testAMonoToStereoSplitterOnStereoTakesTheMeanOfLeftAndRight() throws {
        // swh's splitter copies its one input to two outputs; a stereo stream
        // reaches that input as (L + R) / 2, the downmix gain ×0.5 (-6.02 dB) per channel.
        let (plan, out) = try render("swh-plugins/split", inputChannels: 2)
        XCTAssertEqual(plan.nodes.first { $0.name == "split" }?.instances, 1)
        XCTAssertEqual(plan.nodes.first { $0.name == "split" }?.inputs, [["in:1 (-6.0 dB)", "in:2 (-6.0 dB)"]])
        XCTAssertEqual(out.count, 2, "the splitter's two outputs widen the stream")
        for channel in 0..<2 {
            assertClose(out[channel], { (self.input(0, $0) + self.input(1, $0)) / 2 }, "output \(channel + 1)")
        }
    }

    func testChannelOptionPicksOneChannelForTheSplitter() throws {
        let (_, out) = try render("swh-plugins/split @in=2", inputChannels: 2)
        for channel in 0..<2 { assertClose(out[channel], { self.input(1, $0) }, "output \(channel + 1)") }
    }

    func testMixMakesAMonoAmpRunOnceOnTheMean() throws {
        let (plan, out) = try render("eg-amp gain=0 @mix", inputChannels: 2)
        XCTAssertEqual(plan.nodes.first { $0.name == "eg-amp" }?.instances, 1)
        XCTAssertEqual(out.count, 1)
        assertClose(out[0], { (self.input(0, $0) + self.input(1, $0)) / 2 }, "mono")
    }
}
