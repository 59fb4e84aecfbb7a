import Foundation
import XCTest

/// fxhost must give the same samples as other hosts for the same plugins and
/// parameters. The oracles are lv2file (plugin by plugin) and arithmetic.
final class ReferenceHostTests: XCTestCase {
    let overdrive = "http://drobilla.net/plugins/mda/Overdrive"
    let fil4 = "http://gareus.org/oss/lv2/fil4#stereo"
    let amp = "http://lv2plug.in/plugins/eg-amp"
    let ambience = "http://drobilla.net/plugins/mda/Ambience"

    func testEgAmpAtMinusSixDecibelsHalvesTheAmplitude() throws {
        let folder = try Tools.temporaryFolder()
        let input = Audio.noise(channels: 1, frames: 48000)
        try input.write(folder.appendingPathComponent("in.wav").path)
        try Tools.fxhost(["render", "--chain", "eg-amp gain=-6", "-i", folder.appendingPathComponent("in.wav").path,
                          "-o", folder.appendingPathComponent("out.wav").path, "--tail", "0", "--quiet"])
        let output = try Audio.read(folder.appendingPathComponent("out.wav").path)
        XCTAssertEqual(output.frames, input.frames)
        XCTAssertEqual(output.channels.count, 1, "a mono chain writes a mono file")
        let factor = 0.501187  // 10^(-6/20)
        for (out, inp) in zip(output.channels[0], input.channels[0]) {
            XCTAssertEqual(Double(out), Double(inp) * factor, accuracy: 1e-6 * abs(Double(inp)) + 1e-9)
        }
    }

    /// mda Overdrive (drive 0.7) → x42 fil4 stereo → eg-amp per channel →
    /// mda Ambience, against the same plugins run one after another in lv2file.
    func testStereoChainMatchesLv2fileStageByStage() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 2, frames: 48000 * 2, amplitude: 0.4, seed: 7).write(path("in.wav"))
        let block = "256"

        try Tools.fxhost(["render", "--chain", "mda/Overdrive drive=0.7 ! fil4#stereo ! eg-amp gain=-3 ! mda/Ambience",
                          "-i", path("in.wav"), "-o", path("fxhost.wav"), "--block", block, "--tail", "0", "--quiet"])

        func lv2file(_ arguments: [String]) throws {
            let result = try Tools.run("lv2file", ["-b", block] + arguments)
            XCTAssertEqual(result.status, 0, "lv2file \(arguments): \(result.stderr)\(result.stdout)")
        }
        try lv2file(["-i", path("in.wav"), "-o", path("s1.wav"), "-p", "drive:0.7", overdrive])
        try lv2file(["-i", path("s1.wav"), "-o", path("s2.wav"), fil4])
        // eg-amp is mono: run it on each channel, as fxhost does with one instance per channel.
        let stage2 = try Audio.read(path("s2.wav"))
        var amplified: [[Float]] = []
        for channel in 0..<2 {
            try stage2.channel(channel).write(path("s2-\(channel).wav"))
            try lv2file(["-i", path("s2-\(channel).wav"), "-o", path("s3-\(channel).wav"), "-p", "gain:-3", amp])
            amplified.append(try Audio.read(path("s3-\(channel).wav")).channels[0])
        }
        try Audio(channels: amplified, sampleRate: 48000).write(path("s3.wav"))
        try lv2file(["-i", path("s3.wav"), "-o", path("reference.wav"), ambience])

        XCTAssertIdentical(try Audio.read(path("fxhost.wav")), try Audio.read(path("reference.wav")))
    }
}
