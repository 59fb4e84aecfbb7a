import Foundation
@testable import HostCore
import TestSupport
import XCTest

/// A render refused for its range (a live `bounce --from` past the end of
/// the sources, as the soak sent every few seconds) must give back what it
/// took: its MIDI feeds' events were kept every time, since a class's
/// `deinit` does not run when its init throws. Oracle: the kernel's count of
/// this process's resident memory (VmRSS) over 20 refusals of a render
/// whose MIDI file holds 200,000 events.
final class RenderRefusalMemoryTests: XCTestCase {
    func testARefusedRangeGivesItsMIDIFeedsBack() throws {
        let events = (0..<200_000).map { index in (delta: 1, bytes: [UInt8(0x90), UInt8(index % 128), UInt8(64)]) }
            + [(delta: 0, bytes: [UInt8(0xFF), 0x2F, 0x00])]  // End of Track
        let bytes = MIDIFileBytes.format0(division: 480, events: events)
        let file = try StandardMIDIFile(bytes: bytes, path: "many.mid")
        let graph = AudioGraph()
        let notes = try graph.addMIDIFile("notes", file: MIDIFileSource(path: "many.mid", file: file))
        let out = try graph.addMIDIOutput("out")
        try graph.connect(notes, to: out)
        let plan = try graph.compile(format: RenderFormat(sampleRate: 48_000, maxBlockFrames: 256, mode: .offline))
        XCTAssertEqual(plan.midiSources.count, 1, "the file plays in the render")
        var options = RenderOptions()
        options.startSeconds = 86_000  // past the file's end: refused
        func refuse() {
            XCTAssertThrowsError(try RenderJob(plan: plan, options: options))
        }
        refuse()
        let before = try Self.residentKiB()
        for _ in 0..<20 { refuse() }
        let grown = try Self.residentKiB() - before
        // Each refusal used to keep the file's events (about 3 MiB here): 20 of them, some 60 MiB.
        XCTAssertLessThan(grown, 16 * 1024, "20 refused renders kept \(grown) KiB")
    }

    private static func residentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
