import Foundation
import HostCore
@testable import LV2Bridge
import TestSupport
import XCTest

/// Plugin state snapshots (`StateSnapshots`) with the test peak hold
/// (Tests/TestPlugin/peak_hold.c), whose output is the largest |input| it
/// has seen: a state no port shows. The oracle is that arithmetic, and the
/// folder as the file system shows it: a snapshot is written when the held
/// value changed and only then, and a new unit given the snapshot holds the
/// old peak over a smaller input.
final class StateSnapshotsTests: XCTestCase {
    private let live = RenderFormat(sampleRate: 48_000, maxBlockFrames: 256, mode: .live)

    private func catalog() throws -> PluginCatalog {
        let bundle = try PeakHoldPlugin.install(in: try makeScratchFolder(prefix: "peak-hold-plugin"))
        return PluginCatalog(world: LV2World(bundles: [bundle.path]))
    }

    private func peakHold(in catalog: PluginCatalog) throws -> LV2Unit {
        try XCTUnwrap(try LV2UnitProvider(catalog: catalog).makeUnit(PeakHoldPlugin.uri) as? LV2Unit)
    }

    /// Plays one block of `level` through `driver`; returns the last output sample.
    @discardableResult
    private func play(_ level: Float, _ driver: KernelDriver) -> Float {
        driver.runBlock(frames: 256) { _, buffer in buffer.update(repeating: level, count: 256) }
        return driver.outputs[0][255]
    }

    /// The folder's entries, and where the node's link points.
    private func listing(_ folder: URL) throws -> (names: [String], target: String?) {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let link = names.first { $0.hasSuffix(".lv2") && !$0.contains(".\(getpid())-") }
        return (names, try link.map { try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent($0).path) })
    }

    func testASnapshotIsWrittenWhenTheStateChangedAndOnlyThen() throws {
        let folder = try makeScratchFolder(prefix: "state-snapshots")
        let catalog = try catalog()
        let hold = try peakHold(in: catalog)
        let driver = KernelDriver(try XCTUnwrap(try hold.prepareInstances(count: 1, format: live).kernels.first), maxBlock: 256)
        let snapshots = StateSnapshots(folder: folder.path)

        XCTAssertEqual(play(0.5, driver), 0.5)
        XCTAssertEqual(snapshots.take(node: "hold", unit: hold, now: 0), .written)
        let first = try listing(folder)
        XCTAssertEqual(first.names.count, 2, "one bundle and the link to it: \(first.names)")
        let state = try String(contentsOfFile: folder.appendingPathComponent(try XCTUnwrap(first.target))
            .appendingPathComponent("state.ttl").path, encoding: .utf8)
        XCTAssertTrue(state.contains(PeakHoldPlugin.heldKey) && state.contains("0.5"), state)

        // 0.2 is under the peak: the held value, so the state, is the same.
        XCTAssertEqual(play(0.2, driver), 0.5)
        XCTAssertEqual(snapshots.take(node: "hold", unit: hold, now: 1), .unchanged)
        XCTAssertEqual(try listing(folder).names, first.names, "nothing written")

        XCTAssertEqual(play(-0.8, driver), 0.8)
        XCTAssertEqual(snapshots.take(node: "hold", unit: hold, now: 2), .written)
        let second = try listing(folder)
        XCTAssertEqual(second.names.count, 2, "the new bundle replaced the old one: \(second.names)")
        XCTAssertNotEqual(second.target, first.target)
        XCTAssertEqual(snapshots.take(node: "hold", unit: hold, now: 3), .unchanged)

        // A new unit given the snapshot holds 0.8 over an input of 0.2; without it, 0.2.
        let restored = try peakHold(in: catalog)
        let age = try XCTUnwrap(StateSnapshots(folder: folder.path).restore(node: "hold", into: restored))
        XCTAssertGreaterThanOrEqual(age, 0)
        let restoredDriver = KernelDriver(try XCTUnwrap(try restored.prepareInstances(count: 1, format: live).kernels.first),
                                          maxBlock: 256)
        XCTAssertEqual(play(0.2, restoredDriver), 0.8)
        let fresh = try peakHold(in: catalog)
        XCTAssertNil(StateSnapshots(folder: folder.path).restore(node: "other", into: fresh), "another node's is not restored")
        let freshDriver = KernelDriver(try XCTUnwrap(try fresh.prepareInstances(count: 1, format: live).kernels.first),
                                       maxBlock: 256)
        XCTAssertEqual(play(0.2, freshDriver), 0.2)

        // A node taken out of the graph takes its snapshot along.
        snapshots.keepOnly([])
        XCTAssertEqual(try listing(folder).names, [])
    }

    /// A restored state is the one compared with: an engine that restored a
    /// snapshot writes nothing until the state moves on.
    func testARestoredSnapshotIsNotWrittenAgainUntilTheStateChanges() throws {
        let folder = try makeScratchFolder(prefix: "state-snapshots-restored")
        let catalog = try catalog()
        let hold = try peakHold(in: catalog)
        let driver = KernelDriver(try XCTUnwrap(try hold.prepareInstances(count: 1, format: live).kernels.first), maxBlock: 256)
        play(0.3, driver)
        XCTAssertEqual(StateSnapshots(folder: folder.path).take(node: "hold", unit: hold, now: 0), .written)
        let before = try listing(folder)

        let restored = try peakHold(in: catalog)
        let snapshots = StateSnapshots(folder: folder.path)
        XCTAssertNotNil(snapshots.restore(node: "hold", into: restored))
        let restoredDriver = KernelDriver(try XCTUnwrap(try restored.prepareInstances(count: 1, format: live).kernels.first),
                                          maxBlock: 256)
        XCTAssertEqual(play(0.1, restoredDriver), 0.3)
        XCTAssertEqual(snapshots.take(node: "hold", unit: restored, now: 0), .unchanged)
        XCTAssertEqual(try listing(folder).names, before.names)
        XCTAssertEqual(play(0.9, restoredDriver), 0.9)
        XCTAssertEqual(snapshots.take(node: "hold", unit: restored, now: 1), .written)
        XCTAssertEqual(try listing(folder).names.count, 2, "the restored bundle was replaced")
    }

    /// A state bigger than a snapshot may take is skipped with one
    /// sentence, nothing left in the folder, and tried again only
    /// `retrySeconds` later.
    func testAStateTooBigIsSkippedWithASentenceAndTriedAgainLater() throws {
        let folder = try makeScratchFolder(prefix: "state-snapshots-big")
        let hold = try peakHold(in: try catalog())
        _ = try hold.prepareInstances(count: 1, format: live)
        let snapshots = StateSnapshots(folder: folder.path, largestBytes: 16)
        guard case .skipped(let sentence) = snapshots.take(node: "hold", unit: hold, now: 100) else {
            return XCTFail("a state over 16 bytes is skipped")
        }
        XCTAssertTrue(sentence.hasPrefix("the state of `hold` was not snapshotted: it is "), sentence)
        XCTAssertTrue(sentence.hasSuffix(" bytes, more than the 16 bytes a snapshot may take; it is tried again in 30 s"), sentence)
        XCTAssertEqual(try listing(folder).names, [])
        XCTAssertEqual(snapshots.take(node: "hold", unit: hold, now: 100 + StateSnapshots.retrySeconds - 1), .nothing)
        guard case .skipped = snapshots.take(node: "hold", unit: hold, now: 100 + StateSnapshots.retrySeconds) else {
            return XCTFail("tried again after \(StateSnapshots.retrySeconds) s")
        }
    }

    /// Only live instances are snapshotted (a bounce's offline ones are
    /// not the ones playing), plugins without state give nothing, and a
    /// hostile node name stays one file name inside the folder.
    func testWhatIsNotSnapshottedAndHostileNames() throws {
        let folder = try makeScratchFolder(prefix: "state-snapshots-names")
        let catalog = try catalog()
        let offline = try peakHold(in: catalog)
        _ = try offline.prepareInstances(count: 1, format: RenderFormat(sampleRate: 48_000, maxBlockFrames: 256, mode: .offline))
        let snapshots = StateSnapshots(folder: folder.path)
        XCTAssertEqual(snapshots.take(node: "hold", unit: offline, now: 0), .nothing)
        let amp = try Installed.unit("http://lv2plug.in/plugins/eg-amp")
        _ = try amp.prepareInstances(count: 1, format: live)
        XCTAssertEqual(snapshots.take(node: "amp", unit: amp, now: 0), .nothing, "eg-amp keeps no state of its own")
        XCTAssertEqual(try listing(folder).names, [])

        let hold = try peakHold(in: catalog)
        _ = try hold.prepareInstances(count: 1, format: live)
        let hostile = "../../x/\u{1b}[2J" + String(repeating: "long", count: 100)
        XCTAssertEqual(snapshots.take(node: hostile, unit: hold, now: 0), .written)
        let names = try listing(folder).names
        XCTAssertEqual(names.count, 2, "\(names)")
        XCTAssertTrue(names.allSatisfy { !$0.contains("/") && $0.utf8.count < 100 && $0.allSatisfy(\.isASCII) }, "\(names)")
        XCTAssertNotNil(StateSnapshots(folder: folder.path).restore(node: hostile, into: try peakHold(in: catalog)))
    }
}
