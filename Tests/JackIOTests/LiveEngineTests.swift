import CJack
import CCoreShim
import Foundation
import JackIO
import TestSupport
import XCTest

/// The engine live on a private dummy server, measured from outside by a
/// loopback client that feeds it a constant 1 and records its outputs. With
/// RealtimeSanitizer linked into this test process and halt_on_error its
/// default (RealtimeSanitizerTests proves both), any allocation or lock in
/// the callback would kill the run.
final class LiveEngineTests: XCTestCase {
    func testGainsBypassAndPlanSwapsTakeEffectAt64Frames() throws {
        try runLiveScenario(serverFrames: 64)
    }

    /// 256-frame periods through 64-frame programs: four chunks per cycle.
    func testGainsBypassAndPlanSwapsTakeEffectAt256Frames() throws {
        try runLiveScenario(serverFrames: 256)
    }

    /// Every frame recorded is silence (before the connections) or one of
    /// the expected levels, and the levels come in the order set. A run
    /// that does not, during which the server reported an xrun, is run again
    /// (see `retakingOnXruns`): a missed cycle records a cycle of silence mid-run.
    private func runLiveScenario(serverFrames: Int) throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the realtime checks below need the sanitizer linked")
        let options = ProcessInfo.processInfo.environment["RTSAN_OPTIONS"] ?? ""
        XCTAssertFalse(options.contains("halt_on_error=false") || options.contains("halt_on_error=0"),
                       "a violation must halt this process, or the run below would prove nothing")
        let ((levels, expected), note) = try retakingOnXruns({ _ in try liveScenario(serverFrames: serverFrames) },
                                                              passes: { $0.levels == $0.expected })
        XCTAssertEqual(levels, expected, note)
    }

    /// One run of the scenario on a new server: the levels recorded in turn,
    /// those expected, and the xruns the engine was told of.
    private func liveScenario(serverFrames: Int) throws -> ((levels: [[Float]], expected: [[Float]]), xruns: Int) {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: serverFrames)
        var engine: LiveEngine? = try LiveEngine(client: JackClient(name: "engine", server: server.name),
                                                 inputs: ["in"], outputs: ["out_1", "out_2"])
        let doubler = Doubler()
        var first: TestProgram? = TestProgram(blockFrames: 64, doubler: doubler, gains: (0.5, 0.25, 0.25), bypass: false)
        weak let weakFirst = first
        try engine!.publish(first!.live())
        try engine!.start()

        let loopback = try LoopbackClient(server: server.name, channels: 2, capacity: 48_000 * 20)
        // Outputs first, then the source: both outputs turn on in the same block.
        try loopback.client.connect("engine:out_.*", to: "loopback:record_.*")
        try loopback.client.connect(loopback.source.name, to: "engine:in")

        // out1 = gain1 × (bypass ? 1 : 2 × gain2), out2 = gain3, for an input of 1.
        var expected: [[Float]] = []
        func expect(_ out1: Float, _ out2: Float, after step: String) {
            expected.append([out1, out2])
            waitUntilLatest(loopback, equals: [out1, out2], step: step)
            Thread.sleep(forTimeInterval: 0.2)
        }
        expect(0.25, 0.25, after: "start")
        try engine!.send(.setFloat(first!.gain2, 2))
        expect(2, 0.25, after: "gain2 = 2")
        try engine!.send(.setFlag(first!.bypass, 1))
        expect(0.5, 0.25, after: "bypass on")
        try engine!.send(.setFloat(first!.gain3, 0.125))
        expect(0.5, 0.125, after: "gain3 = 0.125")

        var second: TestProgram? = TestProgram(blockFrames: 64, doubler: doubler, gains: (3, 1, 1), bypass: false)
        weak let weakSecond = second
        try engine!.publish(second!.live())
        first = nil
        expect(6, 1, after: "first plan swap")
        try engine!.send(.setFloat(second!.gain1, 1.5))
        expect(3, 1, after: "gain1 = 1.5")

        var third: TestProgram? = TestProgram(blockFrames: 64, doubler: doubler, gains: (0.75, 1, 0.5), bypass: true)
        weak let weakThird = third
        try engine!.publish(third!.live())
        second = nil
        expect(0.75, 0.5, after: "second plan swap")
        try engine!.send(.setFlag(third!.bypass, 0))
        expect(1.5, 0.5, after: "bypass off")
        XCTAssertTrue(engine!.waitUntilPublishedProgramRuns(timeout: 60))
        // Retired programs were freed, and their owners released, on this
        // thread while the engine runs; the current one lives on.
        XCTAssertNil(weakFirst)
        XCTAssertNil(weakSecond)

        // Snapshot while everything still runs: deactivating a client
        // disconnects its ports first, so its last cycles record silence.
        let recording = loopback.recording()
        engine!.stop()
        let statistics = engine!.statistics
        let hookCalls = third!.hookCalls.pointee
        third = nil

        var levels: [[Float]] = []
        for frame in 0..<recording[0].count {
            let value = [recording[0][frame], recording[1][frame]]
            if levels.isEmpty && value == [0, 0] { continue }
            if levels.last != value { levels.append(value) }
        }

        XCTAssertEqual(statistics.programSwaps, 3)
        XCTAssertEqual(statistics.commandsApplied, 5)
        XCTAssertGreaterThan(statistics.cycles, 0)
        XCTAssertEqual(statistics.frames, statistics.cycles * serverFrames)
        XCTAssertGreaterThan(hookCalls, 0, "the hook op of the running program ran")
        XCTAssertGreaterThanOrEqual(statistics.callbackNanoseconds, statistics.renderNanoseconds)
        print("live scenario at \(serverFrames) frames: \(statistics); host overhead",
              "\(Int(statistics.hostOverheadNanosecondsPerCycle)) ns per cycle")

        // The current program lives as long as the engine.
        XCTAssertNotNil(weakThird)
        engine = nil
        XCTAssertNil(weakThird)
        return ((levels, expected), statistics.xruns)
    }

    func testBufferSizeChangesAreSeenAndLargerPeriodsRenderInChunks() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 64)
        let engine = try LiveEngine(client: JackClient(name: "engine", server: server.name),
                                    inputs: ["in"], outputs: ["out_1", "out_2"])
        let program = TestProgram(blockFrames: 64, doubler: Doubler(), gains: (0.5, 1, 0.25), bypass: false)
        try engine.publish(program.live())
        try engine.start()
        let loopback = try LoopbackClient(server: server.name, channels: 2, capacity: 48_000 * 20)
        try loopback.client.connect(loopback.source.name, to: "engine:in")
        try loopback.client.connect("engine:out_.*", to: "loopback:record_.*")
        waitUntilLatest(loopback, equals: [1, 0.25], step: "start")
        XCTAssertNil(engine.takeBufferSizeChange())

        XCTAssertEqual(jack_set_buffer_size(try loopback.client.handle(), 512), 0)
        let deadline = Date().addingTimeInterval(60)
        var change: Int?
        while change == nil && Date() < deadline {
            change = engine.takeBufferSizeChange()
            usleep(5_000)
        }
        XCTAssertEqual(change, 512)
        XCTAssertNil(engine.takeBufferSizeChange(), "a change is reported once")
        let framesAtChange = loopback.recordedFrames
        try engine.send(.setFloat(program.gain3, 0.5))
        waitUntilLatest(loopback, equals: [1, 0.5], step: "gain3 = 0.5 at 512 frames")
        XCTAssertGreaterThan(loopback.recordedFrames, framesAtChange)
        engine.stop()
    }

    /// Publishing faster than the callback swaps: programs replaced before
    /// they ran, and ones waiting for the hand-back slot, are all freed, and
    /// the last one published is what plays.
    func testRapidPublishingFreesEveryReplacedProgram() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 64)
        let engine = try LiveEngine(client: JackClient(name: "engine", server: server.name),
                                    inputs: ["in"], outputs: ["out_1", "out_2"])
        let loopback = try LoopbackClient(server: server.name, channels: 2, capacity: 48_000 * 20)
        let doubler = Doubler()
        try engine.start()
        try loopback.client.connect("engine:out_.*", to: "loopback:record_.*")
        try loopback.client.connect(loopback.source.name, to: "engine:in")

        let count = 300
        var released: [WeakProgram] = []
        for index in 1...count {
            // out2 = gain3 = index / 1024: exact in binary, distinct per program.
            let program = TestProgram(blockFrames: 64, doubler: doubler, gains: (1, 1, Float(index) / 1024), bypass: false)
            released.append(WeakProgram(program))
            try engine.publish(program.live())
            if index % 50 == 0 { usleep(3_000) }  // sometimes let a swap happen mid-stream
        }
        XCTAssertTrue(engine.waitUntilPublishedProgramRuns(timeout: 60))
        waitUntilLatest(loopback, equals: [2, Float(count) / 1024], step: "the last publish")
        XCTAssertEqual(released.dropLast().filter { $0.program != nil }.count, 0, "every replaced program was freed")
        XCTAssertNotNil(released.last?.program)
        XCTAssertLessThanOrEqual(engine.statistics.programSwaps, count)
        engine.stop()
    }

    func testAServerThatGoesAwayIsNoticed() throws {
        let server = try JackServerProcess()
        let engine = try LiveEngine(client: JackClient(name: "engine", server: server.name), inputs: [], outputs: ["out"])
        try engine.start()
        XCTAssertFalse(engine.serverHasShutDown)
        server.stop()
        let deadline = Date().addingTimeInterval(60)
        while !engine.serverHasShutDown && Date() < deadline { usleep(5_000) }
        XCTAssertTrue(engine.serverHasShutDown)
    }

    func testProgramsMustMatchThePorts() throws {
        let server = try JackServerProcess()
        let engine = try LiveEngine(client: JackClient(name: "engine", server: server.name),
                                    inputs: ["in"], outputs: ["out_1"])
        let program = TestProgram(blockFrames: 64, doubler: Doubler(), gains: (1, 1, 1), bypass: false)
        XCTAssertThrowsError(try engine.publish(program.live())) { error in
            XCTAssertEqual(error as? LiveEngineError, .portCountMismatch(ports: 1, buffers: 2, inputs: false))
        }
    }

    func testAFullCommandQueueIsAnErrorNotAWait() throws {
        let server = try JackServerProcess()
        let engine = try LiveEngine(client: JackClient(name: "engine", server: server.name),
                                    inputs: [], outputs: [], commandCapacity: 2)
        let cell = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        defer { cell.deallocate() }
        try engine.send(.setFloat(cell, 1))
        try engine.send(.setFloat(cell, 2))
        XCTAssertThrowsError(try engine.send(.setFloat(cell, 3))) { error in
            XCTAssertEqual(error as? LiveEngineError, .commandQueueFull(capacity: 2))
        }
    }

    private func waitUntilLatest(_ loopback: LoopbackClient, equals wanted: [Float], step: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if loopback.latestFrame == wanted { return }
            usleep(2_000)
        }
        XCTFail("after \(step): output stayed \(loopback.latestFrame ?? []), expected \(wanted)", file: file, line: line)
    }
}

private final class WeakProgram {
    weak var program: TestProgram?
    init(_ program: TestProgram) { self.program = program }
}
