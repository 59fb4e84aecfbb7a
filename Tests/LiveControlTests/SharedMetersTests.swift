import Glibc
import HostCore
import JackIO
import LiveControl
import Synchronization
import XCTest

/// The supervisor's side of shared meters (`SharedMeters`) over a real
/// memfd region, with an "engine" that maps the same descriptor: its view
/// from `SharedMeterRegion.inherited`, and raw bytes scribbled as a broken
/// engine might. Oracles: 20·log10 of the peaks raised, and for garbage,
/// no reading at all (and no trap).
final class SharedMetersTests: XCTestCase {
    /// Peaks an engine raised reach every reader (none takes another's),
    /// named as its table says, each taken once.
    func testEveryReaderGetsThePeaksTheEngineRaised() throws {
        let (meters, engine, _) = try makeRegion()
        let outputs = try XCTUnwrap(engine.outputPeaks(channels: 3))
        let slot = try XCTUnwrap(engine.claimTapSlot(channels: 2))
        engine.publish(shared: true, entries: [.init(kind: .output, node: "main", first: 0, channels: 2),
                                               .init(kind: .output, node: "aux", first: 2, channels: 1),
                                               .init(kind: .tap, node: "amp", first: slot, channels: 2)])
        let first = OutputPeakReaders.Reader(number: 1), second = OutputPeakReaders.Reader(number: 2)
        meters.addReader(first)
        meters.addReader(second)
        raise(outputs, [0.5, 0.25, 1])
        raise(engine.tapPeaks(slot: slot), [0.125, 0.5])

        for reader in [first, second] {
            let read = try XCTUnwrap(meters.meters(reader))
            XCTAssertEqual(read.map(\.node), ["main", "aux"])
            assertDecibels(read.flatMap(\.decibels), [20 * log10(0.5), 20 * log10(0.25), 0])
            let taps = try XCTUnwrap(meters.tapMeters(reader))
            XCTAssertEqual(taps.map(\.node), ["amp"])
            assertDecibels(taps.flatMap(\.decibels), [20 * log10(0.125), 20 * log10(0.5)])
        }
        XCTAssertEqual(try XCTUnwrap(meters.meters(first)).flatMap(\.decibels), [-.infinity, -.infinity, -.infinity],
                       "taken once: nothing raised since")
    }

    /// Garbage where the table is (random bytes; a count, sizes and names
    /// out of every bound; a generation left odd) gives no readings, and reading it does not trap.
    func testGarbageInTheTableYieldsNoReadings() throws {
        let (meters, engine, raw) = try makeRegion()
        let reader = OutputPeakReaders.Reader(number: 1)
        meters.addReader(reader)
        raise(try XCTUnwrap(engine.outputPeaks(channels: 1)), [0.5])
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            for offset in stride(from: 8, to: 4096 + 8 * 320, by: 8) {
                (raw + offset).storeBytes(of: generator.next() as UInt64, as: UInt64.self)
            }
            (raw + 8).storeBytes(of: (raw + 8).load(as: UInt64.self) & ~1, as: UInt64.self)  // an even generation
            XCTAssertNil(meters.meters(reader))
            XCTAssertNil(meters.tapMeters(reader))
        }
        // Shared, but every entry out of bounds: listed, and none read.
        let entryBytes = 32 + SharedMeterRegion.maximumNameBytes
        let bad: [(kind: Int, first: Int, channels: Int, length: Int)] = [
            (1, 250, 100, 4), (1, -1, 1, 4), (1, 0, 0, 4), (1, 0, Int.max, 4), (1, Int.min, 2, 4),
            (2, 64, 1, 4), (2, 0, 65, 4), (2, -3, 1, 4), (1, 0, 1, 0), (1, 0, 1, 257), (1, 0, 1, -8), (3, 0, 1, 4), (-1, 0, 1, 4),
        ]
        (raw + 8).storeBytes(of: 2 as UInt64, as: UInt64.self)
        (raw + 16).storeBytes(of: 1, as: Int.self)
        (raw + 24).storeBytes(of: bad.count, as: Int.self)
        for (index, entry) in bad.enumerated() {
            let at = raw + 4096 + index * entryBytes
            at.storeBytes(of: entry.kind, as: Int.self)
            (at + 8).storeBytes(of: entry.first, as: Int.self)
            (at + 16).storeBytes(of: entry.channels, as: Int.self)
            (at + 24).storeBytes(of: entry.length, as: Int.self)
        }
        XCTAssertEqual(meters.meters(reader)?.count, 0)
        XCTAssertEqual(meters.tapMeters(reader)?.count, 0)
        for count in [-1, Int.min, 321, Int.max] {
            (raw + 24).storeBytes(of: count, as: Int.self)
            XCTAssertNil(meters.meters(reader), "\(count) entries")
        }
        (raw + 24).storeBytes(of: 0, as: Int.self)
        (raw + 8).storeBytes(of: 3 as UInt64, as: UInt64.self)  // odd: an engine died mid-write
        XCTAssertNil(meters.meters(reader))
        // The next engine writes it whole again, from the odd generation.
        let next = try XCTUnwrap(SharedMeterRegion.inherited(descriptor: dup(try XCTUnwrap(meters.descriptor))))
        next.publish(shared: true, entries: [.init(kind: .output, node: "main", first: 0, channels: 1)])
        XCTAssertEqual(try XCTUnwrap(meters.meters(reader)).map(\.node), ["main"])
    }

    // MARK: Helpers

    /// The supervisor's meters, an engine's view of the region, and the region's raw bytes.
    private func makeRegion() throws -> (SharedMeters, SharedMeterRegion, UnsafeMutableRawPointer) {
        let meters = SharedMeters()
        let descriptor = try XCTUnwrap(meters.descriptor, "no memfd on this system")
        let engine = try XCTUnwrap(SharedMeterRegion.inherited(descriptor: dup(descriptor)))
        let size = SharedMeterRegion.byteCount
        let raw = try XCTUnwrap(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0))
        XCTAssertNotEqual(raw, UnsafeMutableRawPointer(bitPattern: -1))
        addTeardownBlock { munmap(raw, size) }
        return (meters, engine, raw)
    }

    /// Each cell holding a peak, as the realtime thread leaves it after raising it.
    private func raise(_ cells: UnsafeMutablePointer<Atomic<UInt32>>, _ peaks: [Float]) {
        for (index, peak) in peaks.enumerated() { cells[index].store(peak.bitPattern, ordering: .relaxed) }
    }

    private func assertDecibels(_ read: [Double], _ expected: [Double], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(read.count, expected.count, "\(read)", file: file, line: line)
        for (value, wanted) in zip(read, expected) { XCTAssertEqual(value, wanted, accuracy: 1e-9, "\(read)", file: file, line: line) }
    }
}
