import Foundation
import TestSupport
import XCTest

/// `--chain` on the command line: plugins whose channels differ from the
/// stream's render, and channel mistakes are answered in the chain's own terms.
final class ChainCommandLineTests: XCTestCase {
    func testAMonoToStereoPluginOnAStereoFileHearsTheMeanOfBothChannels() throws {
        let folder = try Tools.temporaryFolder()
        let input = Audio.noise(channels: 2, frames: 4800)
        try input.write(folder.appendingPathComponent("in.wav").path)
        let out = folder.appendingPathComponent("out.wav").path
        // swh's splitter copies its one input to both outputs.
        try Tools.fxhost(["render", "--chain", "swh-plugins/split", "-i", folder.appendingPathComponent("in.wav").path, "-o", out, "--tail", "0"])
        let output = try Audio.read(out)
        XCTAssertEqual(output.channels.count, 2)
        guard output.frames == input.frames else { return XCTFail("\(output.frames) frames, expected \(input.frames)") }
        for channel in output.channels {
            for (frame, value) in channel.enumerated() {
                let mean = (input.channels[0][frame] + input.channels[1][frame]) / 2
                if abs(value - mean) > 1e-6 { return XCTFail("frame \(frame): \(value), expected \(mean)") }
            }
        }
    }

    func testChannelMistakesSuggestWhatToTypeInTheChain() throws {
        let result = try Tools.run(Tools.fxhost, ["check", "--chain", "swh-plugins/split @in=1,2"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "fxhost: error: --chain:1:19: `split` (Mono to Stereo splitter) has 1 audio input, but `@in=1,2` feeds 2 (give one entry per input, such as `@in=1`; join channels with `+` to mix them)\n")
        XCTAssertFalse(result.stderr.contains("->"), "no patch-file wiring in advice for a chain")
    }
}
