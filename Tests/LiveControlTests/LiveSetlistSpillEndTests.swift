import XCTest
import HostCore
@testable import LiveControl

/// When a spill may be taken out: its deadline passed by the host's clock
/// AND each fade played to 0 by the audio's frames (a stalled server's
/// tail is never cut by the clock alone).
final class LiveSetlistSpillEndTests: XCTestCase {
    /// A 0.1 s fade at 1000 Hz run for `frames` frames of 0.5.
    private func fade(played frames: Int) throws -> SpilloverFadeUnit {
        let unit = SpilloverFadeUnit(seconds: 0.1)
        let kernel = try unit.prepareInstances(count: 1, format: RenderFormat(sampleRate: 1000, maxBlockFrames: 100, mode: .live))
            .kernels[0]
        var input = [Float](repeating: 0.5, count: frames), output = [Float](repeating: 0, count: frames)
        input.withUnsafeMutableBytes { kernel.connect(kernel.handle, 0, $0.baseAddress) }
        output.withUnsafeMutableBytes { kernel.connect(kernel.handle, 1, $0.baseAddress) }
        if frames > 0 { kernel.run(kernel.handle, UInt32(frames)) }
        return unit
    }

    func testASpillGoesOnlyWhenItsDeadlinePassedAndEveryFadeEnded() throws {
        let ended = try fade(played: 100), ringing = try fade(played: 99)
        XCTAssertTrue(ended.hasEnded)
        XCTAssertFalse(ringing.hasEnded, "one frame short of its 100")
        XCTAssertTrue(LiveSetlist.isOver(deadline: 10, now: 10, fades: [ended, ended]))
        XCTAssertFalse(LiveSetlist.isOver(deadline: 10, now: 11, fades: [ended, ringing]), "the server stalled: the clock is past, the audio is not")
        XCTAssertFalse(LiveSetlist.isOver(deadline: 10, now: 9.9, fades: [ended]), "the audio is done, the deadline not yet")
    }
}
