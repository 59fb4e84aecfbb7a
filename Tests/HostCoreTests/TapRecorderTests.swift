import Foundation
import TestSupport
import XCTest
@testable import HostCore

final class TapRecorderTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try makeScratchFolder(prefix: "fxhost-files-tests")
    }

    /// Pushes `blocks` blocks of `frames` frames of a counter (n, -n), with
    /// the push the recorder's policy calls for; returns how many were accepted.
    private func pushCounter(_ input: TapRecorder.Input, blocks: Int, frames: Int, from start: Int = 0) -> Int {
        let left = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        defer { left.deallocate(); right.deallocate() }
        let pointers = [UnsafePointer(left), UnsafePointer(right)]
        var accepted = 0
        for block in 0..<blocks {
            for index in 0..<frames {
                let value = Float(start + block * frames + index)
                left[index] = value
                right[index] = -value
            }
            switch input.policy {
            case .dropWhenFull:
                if pointers.withUnsafeBufferPointer({ input.push(channels: $0, frames: frames) }) { accepted += 1 }
            case .waitWhenFull:
                pointers.withUnsafeBufferPointer { input.pushWaiting(channels: $0, frames: frames) }
                accepted += 1
            }
        }
        return accepted
    }

    private func assertCounter(_ channels: [[Float]], values: [Int], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(channels[0], values.map(Float.init), file: file, line: line)
        XCTAssertEqual(channels[1], values.map { -Float($0) }, file: file, line: line)
    }

    /// With the writer stalled (not started), a 1000-frame ring takes
    /// floor(1000 / 64) = 15 blocks of 64; the other 5 of 20 are dropped
    /// whole: 320 frames.
    func testDropWhenFullCountsDropsExactly() throws {
        let path = directory.appendingPathComponent("live.wav").path
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 2, sampleRate: 48000,
                                       mode: .recording, policy: .dropWhenFull, ringFrames: 1000)
        XCTAssertEqual(pushCounter(recorder.input, blocks: 20, frames: 64), 15)
        XCTAssertEqual(recorder.framesDropped, 5 * 64)
        XCTAssertEqual(recorder.framesWritten, 0)
        try recorder.finish()
        XCTAssertEqual(recorder.framesWritten, 15 * 64)
        XCTAssertEqual(recorder.framesDropped, 5 * 64)
        XCTAssertEqual(recorder.secondsRecorded, Double(15 * 64) / 48000)
        let (_, output) = try AudioFileTestSupport.readAll(path)
        assertCounter(output, values: Array(0..<(15 * 64)))
    }

    /// Cycles the server played without running fxhost (an xrun) count as
    /// skipped: blocks of 256 at frame times 1000, 1256, then 2024 (two
    /// blocks left out: 512 frames), then across JACK's 32-bit wrap with
    /// none left out. A clock that jumps back, or on by minutes (another
    /// server), adds nothing.
    func testFramesTheServerLeftOutCountAsSkipped() throws {
        let path = directory.appendingPathComponent("xrun.wav").path
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 1, sampleRate: 48000,
                                       mode: .recording, policy: .dropWhenFull, ringFrames: 1000)
        let input = recorder.input
        input.follow(frameTime: 1000, frames: 256)
        input.follow(frameTime: 1256, frames: 256)
        XCTAssertEqual(recorder.framesSkipped, 0)
        input.follow(frameTime: 2024, frames: 256)
        XCTAssertEqual(recorder.framesSkipped, 512)
        input.follow(frameTime: 0xFFFF_FF00, frames: 256)  // the clock elsewhere (another server): not counted
        XCTAssertEqual(recorder.framesSkipped, 512)
        input.follow(frameTime: 0, frames: 256)  // 0xFFFF_FF00 + 256 wraps to 0: due on time
        XCTAssertEqual(recorder.framesSkipped, 512)
        input.follow(frameTime: 512, frames: 256)  // one block left out, after the wrap
        XCTAssertEqual(recorder.framesSkipped, 768)
        input.follow(frameTime: 100, frames: 256)  // back: no skip
        XCTAssertEqual(recorder.framesSkipped, 768)
        try recorder.finish()
    }

    /// Once the writer runs, the ring empties and later blocks fit again;
    /// the file holds exactly the accepted blocks, in order.
    func testDropWhenFullResumesAfterTheWriterCatchesUp() throws {
        let path = directory.appendingPathComponent("resume.wav").path
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 2, sampleRate: 48000,
                                       policy: .dropWhenFull, ringFrames: 100)
        XCTAssertEqual(pushCounter(recorder.input, blocks: 3, frames: 40), 2)     // 0..<80 kept, 80..<120 dropped
        try recorder.start()
        let deadline = Date().addingTimeInterval(60)
        while recorder.framesWritten < 80 && Date() < deadline { usleep(1000) }
        XCTAssertEqual(pushCounter(recorder.input, blocks: 2, frames: 40, from: 120), 2)   // 120..<200
        try recorder.finish()
        XCTAssertEqual(recorder.framesDropped, 40)
        let (_, output) = try AudioFileTestSupport.readAll(path)
        assertCounter(output, values: Array(0..<80) + Array(120..<200))
    }

    /// A ring far smaller than the take, blocks larger than the ring: the
    /// producer waits, and every frame arrives in order.
    func testWaitWhenFullLosesNothing() throws {
        let path = directory.appendingPathComponent("offline.wav").path
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 2, sampleRate: 48000,
                                       mode: .atomic, policy: .waitWhenFull, ringFrames: 256)
        try recorder.start()
        let blocks = 200, frames = 300
        XCTAssertEqual(pushCounter(recorder.input, blocks: blocks, frames: frames), blocks)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "atomic: nothing at the final name yet")
        try recorder.finish()
        XCTAssertEqual(recorder.framesDropped, 0)
        XCTAssertEqual(recorder.framesWritten, blocks * frames)
        let (_, output) = try AudioFileTestSupport.readAll(path)
        assertCounter(output, values: Array(0..<(blocks * frames)))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["offline.wav"])
    }

    /// Compiles only if the producer side is usable from another module's
    /// realtime code: `@inlinable`, and free of locks, allocation and ARC.
    @_noLocks @_noAllocation
    private static func realtimePush(_ input: UnsafePointer<TapRecorder.Input>,
                                     _ channels: UnsafeBufferPointer<UnsafePointer<Float>>, frames: Int) -> Bool {
        guard !input.pointee.isPaused, !input.pointee.hasFailed else { return false }
        return input.pointee.push(channels: channels, frames: frames)
    }

    func testRealtimeProducerThroughAPointer() throws {
        let path = directory.appendingPathComponent("rt.wav").path
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 1, sampleRate: 48000,
                                       policy: .dropWhenFull, ringFrames: 100)
        let input = UnsafeMutablePointer<TapRecorder.Input>.allocate(capacity: 1)
        input.initialize(to: recorder.input)
        defer { input.deallocate() }
        let samples: [Float] = (0..<60).map(Float.init)
        let results = samples.withUnsafeBufferPointer { buffer in
            [buffer.baseAddress!].withUnsafeBufferPointer { channels in
                (0..<2).map { _ in Self.realtimePush(input, channels, frames: 60) }
            }
        }
        XCTAssertEqual(results, [true, false])
        try recorder.finish()
        XCTAssertEqual(try AudioFileTestSupport.readAll(path).1, [samples])
    }

    /// `push` is the realtime half: even on a recorder whose policy is to
    /// wait, a full ring makes it drop and count, never wait for the writer
    /// (which is not started here, so a wait would never end).
    func testRealtimePushNeverWaitsWhateverThePolicy() throws {
        let path = directory.appendingPathComponent("never-waits.wav").path
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 1, sampleRate: 48000,
                                       mode: .atomic, policy: .waitWhenFull, ringFrames: 100)
        let input = UnsafeMutablePointer<TapRecorder.Input>.allocate(capacity: 1)
        input.initialize(to: recorder.input)
        defer { input.deallocate() }
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: 60)
        defer { samples.deallocate() }
        for index in 0..<60 { samples[index] = Float(index) }
        let results = UnsafeMutablePointer<Bool>.allocate(capacity: 2)
        results.initialize(repeating: false, count: 2)
        defer { results.deallocate() }
        // On a thread of its own, so a push that waited would fail the test, not hang it.
        let pushed = DispatchSemaphore(value: 0)
        let thread = try PosixThread(name: "test pusher") {
            [UnsafePointer(samples)].withUnsafeBufferPointer { channels in
                for attempt in 0..<2 { results[attempt] = Self.realtimePush(input, channels, frames: 60) }
            }
            pushed.signal()
        }
        let waited = pushed.wait(timeout: .now() + 60) == .timedOut
        XCTAssertFalse(waited, "the second push waited for room")
        if waited { try recorder.start() }  // the writer makes room, so the stuck push can end
        thread.join()
        XCTAssertEqual([results[0], results[1]], [true, false])
        XCTAssertEqual(recorder.framesDropped, 60)
        try recorder.finish()
        XCTAssertEqual(try AudioFileTestSupport.readAll(path).1, [(0..<60).map(Float.init)])
    }

    /// A write failure (file size limit, like a full disk) must not leave a
    /// waiting producer stuck: its later pushes return at once, nothing is
    /// counted as dropped (the take ended), and the error is reported, in
    /// plain words, naming the file meant.
    func testWriteFailureNeitherBlocksNorHides() throws {
        let restore = try Self.limitFileSize(to: 100_000)
        defer { restore() }
        let path = directory.appendingPathComponent("full.wav").path
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 2, sampleRate: 48000,
                                       mode: .atomic, policy: .waitWhenFull, ringFrames: 256)
        try recorder.start()
        XCTAssertEqual(pushCounter(recorder.input, blocks: 160, frames: 300), 160)
        XCTAssertThrowsError(try recorder.finish()) { error in
            XCTAssertEqual(error as? AudioFileError, .writeFailed(path: path, reason: "file too large"))
        }
        XCTAssertTrue(recorder.hasFailed)
        XCTAssertEqual(recorder.failure, .writeFailed(path: path, reason: "file too large"))
        XCTAssertEqual(recorder.framesDropped, 0)
        XCTAssertLessThan(recorder.framesWritten, 100_000 / 8)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    /// A live take that meets the limit ends there and then: the writer
    /// closes the file at its last whole frame (the header rewritten, so it
    /// reads back), raises `hasFailed` for the producer and signals the
    /// notifier, without waiting for `finish()`. The file is read while the
    /// recorder still lives: it must already be complete.
    func testALiveTakeThatCannotGrowIsClosedAtOnceAndReadable() throws {
        // 100,003 bytes: the write that meets it stops inside a frame.
        let limit = 100_003
        let restore = try Self.limitFileSize(to: limit)
        defer { restore() }
        let path = directory.appendingPathComponent("take.wav").path
        let notifier = EventNotifier()
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 2, sampleRate: 48000,
                                       mode: .recording, policy: .dropWhenFull, ringFrames: 4096,
                                       newTake: true, notifier: notifier)
        try recorder.start()
        // As the realtime side does: skip pushes once failed; wait for room otherwise (a slow writer is not the test).
        var pushed = 0
        let pushedAll = eventually(within: 60) {
            if recorder.input.hasFailed { return true }
            if recorder.input.ring.writableFrames >= 256 {
                XCTAssertEqual(pushCounter(recorder.input, blocks: 1, frames: 256, from: pushed * 256), 1)
                pushed += 1
            }
            return pushed * 256 * 8 > 4 * limit
        }
        XCTAssertTrue(pushedAll)
        XCTAssertTrue(recorder.input.hasFailed, "the writer met the limit")
        var descriptor = pollfd(fd: notifier.descriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&descriptor, 1, 60_000), 1, "the notifier was signalled")
        XCTAssertEqual(recorder.failure, .writeFailed(path: path, reason: "file too large"))
        XCTAssertEqual(recorder.framesDropped, 0)
        // Whole frames only, as many as the limit has room for after the header.
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertLessThanOrEqual(size, limit)
        XCTAssertLessThan(limit - size, 8, "cut back to the last whole frame, no further")
        let (_, output) = try AudioFileTestSupport.readAll(path)
        XCTAssertEqual(output[0].count, recorder.framesWritten)
        XCTAssertEqual(output[0].count * 8 + Self.headerBytes(path), size)
        assertCounter(output, values: Array(0..<recorder.framesWritten))
        XCTAssertThrowsError(try recorder.finish())
        XCTAssertEqual(try AudioFileTestSupport.readAll(path).1[0].count, recorder.framesWritten, "finish changes nothing")
    }

    /// Limits this process's file size (SIGXFSZ ignored, so writes past it
    /// fail with EFBIG as a full disk fails them); returns the undo.
    private static func limitFileSize(to bytes: Int) throws -> () -> Void {
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        let savedHandler = signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: saved.rlim_max)
        XCTAssertEqual(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit), 0)
        return {
            setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
            signal(SIGXFSZ, savedHandler)
        }
    }

    /// Where a WAV file's samples start: past the `data` chunk's header.
    private static func headerBytes(_ path: String) -> Int {
        let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            if bytes[offset..<offset + 4] == [0x64, 0x61, 0x74, 0x61] { return offset + 8 }
            offset += 8 + size + size % 2
        }
        return -1
    }

    func testDefaultRingHoldsTwoSeconds() throws {
        let recorder = try TapRecorder(path: directory.appendingPathComponent("r.wav").path, format: .wavFloat,
                                       channels: 1, sampleRate: 44100)
        XCTAssertEqual(recorder.input.ring.capacity, 2 * 44100)
        try recorder.finish()
    }

    func testUnfinishedAtomicRecorderLeavesNothing() throws {
        do {
            let recorder = try TapRecorder(path: directory.appendingPathComponent("gone.wav").path,
                                           format: .wavFloat, channels: 2, sampleRate: 48000, mode: .atomic)
            try recorder.start()
            _ = pushCounter(recorder.input, blocks: 10, frames: 64)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }
}
