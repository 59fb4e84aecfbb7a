import Foundation
import HostCore
@testable import LV2Bridge
import XCTest

/// LV2's threading gate: LV2 units make and free their instances holding it
/// alone, so they wait for a block another thread renders holding it shared;
/// a set-up that already holds it alone (a batch file's) does not wait on
/// itself; an offline render holds it shared around each block.
final class PluginSetupGateTests: XCTestCase {
    private static let amp = "http://lv2plug.in/plugins/eg-amp"
    private let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline)

    func testMakingInstancesWaitsForABlockRenderingOnAnotherThread() throws {
        let unit = try Installed.unit(Self.amp)
        let events = EventLog()
        try whileABlockRenders(events) {
            _ = try unit.prepareInstances(count: 1, format: format)
            events.add("instances made")
        }
        XCTAssertEqual(events.entries, ["block ended", "instances made"])
    }

    func testFreeingInstancesWaitsForABlockRenderingOnAnotherThread() throws {
        var unit: LV2Unit? = try Installed.unit(Self.amp)
        var prepared: PreparedUnit? = try unit!.prepareInstances(count: 1, format: format)
        XCTAssertNotNil(prepared)
        let events = EventLog()
        try whileABlockRenders(events) {
            prepared = nil  // the kernels' hold on the instance
            unit = nil
            events.add("instances freed")
        }
        XCTAssertEqual(events.entries, ["block ended", "instances freed"])
    }

    /// Making and freeing instances inside a set-up neither waits on the
    /// gate the set-up holds nor lets go of it: a block still waits for the
    /// set-up's end.
    func testASetUpHoldingTheGateMakesAndFreesInstancesAndStillHoldsIt() throws {
        let format = format
        let events = EventLog()
        let prepared = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            PluginSetupGate.process.alone {
                // Made, prepared and let go of inside, as a batch file's set-up and tear-down do.
                do {
                    let unit = try Installed.unit(Self.amp)
                    _ = try unit.prepareInstances(count: 2, format: format)
                } catch {
                    events.add("\(error)")
                }
                prepared.signal()
                Thread.sleep(forTimeInterval: 0.5)
                events.add("set-up ended")
            }
            done.signal()
        }.start()
        XCTAssertEqual(prepared.wait(timeout: .now() + 30), .success, "the set-up waited on the gate it held")
        PluginSetupGate.process.shared { events.add("block") }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(events.entries, ["set-up ended", "block"])
    }

    /// A library render of LV2 units holds the gate shared block by block,
    /// so a set-up on another thread waits for the block it falls in.
    func testAnOfflineRenderHoldsTheGateSharedAroundEachBlock() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let amp = try graph.addUnit("amp", try Installed.unit(Self.amp))
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: amp)
        try graph.connect(amp, to: output)
        let plan = try graph.compile(format: format)
        let events = EventLog()
        let inBlock = DispatchSemaphore(value: 0)
        var options = RenderOptions()
        options.silentInputsWithoutFiles = true
        // Long enough for a block after the job's first 100 ms, when it reports progress first.
        options.endSeconds = 120
        options.maximumTailSeconds = 0
        var first = true
        // Called at the end of a block, inside it (the last time, after the
        // last block): the first one lasts half a second.
        options.progress = { progress in
            guard first, !progress.finished else { return }
            first = false
            inBlock.signal()
            Thread.sleep(forTimeInterval: 0.5)
            events.add("block ended")
        }
        let renderer = try OfflineRenderer(plan: plan, options: options)
        let done = DispatchSemaphore(value: 0)
        Thread {
            do { _ = try renderer.run() } catch { events.add("\(error)") }
            done.signal()
        }.start()
        XCTAssertEqual(inBlock.wait(timeout: .now() + 30), .success, "the render reported no progress before it ended")
        PluginSetupGate.process.alone { events.add("set-up") }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(events.entries, ["block ended", "set-up"])
    }

    /// Runs `body` while another thread holds the gate shared for half a
    /// second (a block), which it logs as ended when it lets go.
    private func whileABlockRenders(_ events: EventLog, _ body: () throws -> Void) throws {
        let entered = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            PluginSetupGate.process.shared {
                entered.signal()
                Thread.sleep(forTimeInterval: 0.5)
                events.add("block ended")
            }
            finished.signal()
        }.start()
        entered.wait()
        try body()
        finished.wait()
    }
}

/// What happened in which order, from several threads.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    func add(_ entry: String) { lock.withLock { list.append(entry) } }
    var entries: [String] { lock.withLock { list } }
}
