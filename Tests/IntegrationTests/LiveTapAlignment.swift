import Foundation
import XCTest

/// A live tap and an offline render of the same file-driven patch, lined up:
/// the live tap starts whenever the server's cycles did, so the offset is
/// found by an exact match of the render's opening samples (256 of them,
/// from `opening`, where the file starts), never guessed.
struct LiveTapAlignment {
    /// The live tap's frames that correspond to the render's, and the render's.
    let live: Audio
    let render: Audio
    /// Where the render's frame 0 is in the live tap.
    let offset: Int

    /// Nil (after a failure naming why) when the opening is not in the tap.
    init?(live tap: Audio, render: Audio, opening: Int, file: StaticString = #filePath, line: UInt = #line) {
        let probe = Array(render.channels[0][opening..<(opening + 256)])
        guard let found = (0...(tap.frames - probe.count)).first(where: { start in
            tap.channels[0][start] == probe[0] && Array(tap.channels[0][start..<(start + probe.count)]) == probe
        }), found >= opening else {
            XCTFail("the render's opening is nowhere in the live tap", file: file, line: line)
            return nil
        }
        let offset = found - opening
        let overlap = min(render.frames, tap.frames - offset)
        self.offset = offset
        self.live = Audio(channels: tap.channels.map { Array($0[offset..<(offset + overlap)]) }, sampleRate: render.sampleRate)
        self.render = Audio(channels: render.channels.map { Array($0[0..<overlap]) }, sampleRate: render.sampleRate)
    }
}

extension LiveTapAlignment {
    /// Renders `patch` (whose file source starts 100 ms in and lasts 1 s)
    /// offline in blocks of the server's cycle, plays it with `fxhost run` on
    /// `server` tapping `node`, and asserts the live tap holds the render's
    /// samples once aligned. `runArguments` go to `fxhost run`.
    static func assertLiveRunMatchesRender(patch: String, node: String, server: LiveServer,
                                           runArguments: [String] = [], renderArguments: [String] = [],
                                           file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = URL(fileURLWithPath: patch).deletingLastPathComponent()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Tools.fxhost(["render", patch, "-o", path("offline.wav"), "--tail", "0", "--block", "\(server.bufferFrames)",
                          "--quiet"] + renderArguments, file: file, line: line)
        let run = try LiveRun(["run", patch, "--tap", "\(node)=\(path("live.wav"))", "--quiet"] + runArguments, on: server)
        // The file ends 1.1 s in: stop once the tap is past it, not after a time.
        XCTAssertTrue(run.waitForTap(path("live.wav"), seconds: 1.5), file: file, line: line)
        run.kill(SIGINT)
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr, file: file, line: line)
        guard let aligned = LiveTapAlignment(live: try Audio.read(path("live.wav")),
                                             render: try Audio.read(path("offline.wav")), opening: 4_800,
                                             file: file, line: line) else { return }
        XCTAssertGreaterThan(aligned.render.frames, 48_000, "the whole file played live", file: file, line: line)
        XCTAssertIdentical(aligned.live, aligned.render, file: file, line: line)
    }
}
