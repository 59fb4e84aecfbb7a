import CLilv
import Foundation
import HostCore
@testable import LV2Bridge
import XCTest

/// What the fake plugin below saw: responses summed, end_run calls counted.
private struct FakePluginLog {
    var responseSum: Int32 = 0
    var responses = 0
    var endRuns = 0
}

/// A worker interface whose work() answers each request with the same
/// bytes, so a test can follow a message through schedule → work → response.
private let echoInterface = LV2_Worker_Interface(
    work: { _, respond, respondHandle, size, data in respond!(respondHandle, size, data) },
    work_response: { handle, size, body in
        let log = handle!.assumingMemoryBound(to: FakePluginLog.self)
        if size == 4 { log.pointee.responseSum += body!.loadUnaligned(as: Int32.self) }
        log.pointee.responses += 1
        return LV2_WORKER_SUCCESS
    },
    end_run: { handle in
        handle!.assumingMemoryBound(to: FakePluginLog.self).pointee.endRuns += 1
        return LV2_WORKER_SUCCESS
    })

final class WorkerTests: XCTestCase {
    private func schedule(_ worker: LV2Worker, _ value: Int32, arena: CArena) -> LV2_Worker_Status {
        let feature = worker.makeScheduleFeature(in: arena)
        var message = value
        return feature.pointee.schedule_work!(feature.pointee.handle, 4, &message)
    }

    /// Offline: work() runs at once, the response waits for the after-run hook.
    func testOfflineWorkerDeliversResponsesAfterRun() throws {
        let log = UnsafeMutablePointer<FakePluginLog>.allocate(capacity: 1)
        log.initialize(to: FakePluginLog())
        defer { log.deallocate() }
        var interface = echoInterface
        let worker = LV2Worker(mode: .offline)
        try withUnsafePointer(to: &interface) { pointer in
            worker.attach(interface: pointer, plugin: UnsafeMutableRawPointer(log))
            try worker.start()
            let arena = CArena()
            XCTAssertEqual(schedule(worker, 7, arena: arena), LV2_WORKER_SUCCESS)
            XCTAssertEqual(schedule(worker, 35, arena: arena), LV2_WORKER_SUCCESS)
            XCTAssertEqual(log.pointee.responses, 0, "responses must not reach the plugin inside run()")
            let hook = worker.afterRunHook
            hook.function(hook.context)
            XCTAssertEqual(log.pointee.responses, 2)
            XCTAssertEqual(log.pointee.responseSum, 42)
            XCTAssertEqual(log.pointee.endRuns, 1)
        }
    }

    /// Live: requests cross to the worker thread and responses come back.
    func testLiveWorkerThreadAnswers() throws {
        let log = UnsafeMutablePointer<FakePluginLog>.allocate(capacity: 1)
        log.initialize(to: FakePluginLog())
        defer { log.deallocate() }
        var interface = echoInterface
        let worker = LV2Worker(mode: .live)
        try withUnsafePointer(to: &interface) { pointer in
            worker.attach(interface: pointer, plugin: UnsafeMutableRawPointer(log))
            try worker.start()
            let arena = CArena()
            for value in 1...100 { XCTAssertEqual(schedule(worker, Int32(value), arena: arena), LV2_WORKER_SUCCESS) }
            let hook = worker.afterRunHook
            let deadline = Date().addingTimeInterval(60)
            while log.pointee.responses < 100 && Date() < deadline {
                hook.function(hook.context)
                usleep(1000)
            }
            XCTAssertEqual(log.pointee.responses, 100)
            XCTAssertEqual(log.pointee.responseSum, 5050) // 1 + 2 + … + 100
            worker.stop()
        }
    }

    /// Real plugins that require worker:schedule run offline and live without hanging.
    func testWorkerPluginsRun() throws {
        for uri in ["http://gareus.org/oss/lv2/convoLV2#Mono", "http://lv2plug.in/plugins/eg-sampler"] {
            let plugin = try Installed.catalog.resolve(uri)
            XCTAssertTrue(plugin.requiredFeatures.contains(LV2URI.workerSchedule), uri)
            for mode in [RenderMode.offline, .live] {
                let outcome = runWithTimeout(seconds: 60) { renderOneSecond(plugin, mode: mode) }
                guard let outcome else { return XCTFail("\(uri) hung in \(mode) mode") }
                guard case .rendered(let nonFinite) = outcome else {
                    return XCTFail("\(uri) refused in \(mode) mode: \(outcome)")
                }
                XCTAssertFalse(nonFinite, uri)
            }
        }
    }

    func testRingKeepsMessagesInOrderAcrossWrap() {
        let ring = ByteRing(capacity: 64)
        defer { ring.deallocate() }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        defer { buffer.deallocate() }
        for round in 0..<50 {
            var values: [UInt8] = (0..<10).map { UInt8(($0 + round) & 0xff) }
            XCTAssertTrue(ring.write(&values, size: 10))
            var more: [UInt8] = [UInt8(round)]
            XCTAssertTrue(ring.write(&more, size: 1))
            XCTAssertEqual(ring.take(into: buffer), 10)
            XCTAssertEqual(Array(UnsafeRawBufferPointer(start: buffer, count: 10)), values)
            XCTAssertEqual(ring.take(into: buffer), 1)
            XCTAssertEqual(buffer.load(as: UInt8.self), UInt8(round))
            XCTAssertNil(ring.take(into: buffer))
        }
        var big = [UInt8](repeating: 1, count: 61)
        XCTAssertFalse(ring.write(&big, size: 61), "4 + 61 bytes cannot fit in 64")
    }
}
