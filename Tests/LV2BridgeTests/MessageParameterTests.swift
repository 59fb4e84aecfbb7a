import CLilv
import Foundation
import HostCore
@testable import LV2Bridge
import TestSupport
import XCTest

/// Message parameters (`patch:writable`) sent as `patch:Set` and read back
/// from the plugin's notify output. Oracles: what eg-params itself reports
/// when asked (`patch:Get`), the samples of the file eg-sampler plays, and
/// the arithmetic of a single-impulse response through x42's convolver.
final class MessageParameterTests: XCTestCase {
    private let format = RenderFormat(sampleRate: 48_000, maxBlockFrames: 256, mode: .offline)

    /// Listed before any is set, with the kind a surface draws: each
    /// writable property of eg-params' .ttl by its `rdfs:range` (its
    /// readable-only `lfo` left out), the convolver's `ir` a path.
    func testEveryWritableParameterIsListedWithItsKindBeforeAnyIsSet() throws {
        let params = try Installed.unit("http://lv2plug.in/plugins/eg-params")
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: params.writableMessageParameters.map { ($0.name, $0.kind) }),
                       ["int": .number, "long": .number, "float": .number, "double": .number, "bool": .other,
                        "string": .text, "path": .path, "spring": .number])
        XCTAssertEqual(params.messageParameterValues(), [:], "none set yet")
        let convolver = try Installed.unit("http://gareus.org/oss/lv2/zeroconvolv#CfgMono")
        XCTAssertEqual(convolver.writableMessageParameters, [WritableMessageParameter(name: "ir", kind: .path)])
        XCTAssertEqual(try Installed.unit("http://lv2plug.in/plugins/eg-amp").writableMessageParameters, [], "ports only")
    }

    func testEgParamsReportsBackEveryTypeItWasSet() throws {
        let folder = try makeScratchFolder(prefix: "messages-params")
        let file = folder.appendingPathComponent("notes.txt").path
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let unit = try Installed.unit("http://lv2plug.in/plugins/eg-params")
        let driver = KernelDriver(try unit.prepareInstances(count: 1, format: format).kernels[0], maxBlock: 256)
        let settings: [(String, ParameterValue, PropertyValue)] = [
            ("int", .number(-7), .int(-7)),
            ("long", .number(1_234_567_890_123), .long(1_234_567_890_123)),
            ("float", .number(0.75), .float(0.75)),
            ("double", .number(0.125), .double(0.125)),
            ("bool", .toggle(true), .bool(true)),
            ("string", .label("fxhost was here"), .string("fxhost was here")),
            ("path", .label(file), .path(file)),
        ]
        for (name, value, _) in settings { try unit.setParameter(name, to: value, relativeTo: nil) }
        driver.runBlock(frames: 256) { _, _ in }
        unit.requestMessageParameterValues()
        driver.runBlock(frames: 256) { _, _ in }
        let reported = unit.reportedMessageParameterValues()
        for (name, _, expected) in settings {
            XCTAssertEqual(reported["http://lv2plug.in/plugins/eg-params#\(name)"], expected, name)
        }
        XCTAssertEqual(unit.messageParameterValues()["int"], "-7")
        XCTAssertEqual(unit.messageParameterValues()["path"], file)
    }

    func testWrongValuesAreRefusedWithASentence() throws {
        let unit = try Installed.unit("http://lv2plug.in/plugins/eg-params")
        func refusal(_ name: String, _ value: ParameterValue) -> String {
            do {
                try unit.setParameter(name, to: value, relativeTo: "/tmp")
                return "accepted"
            } catch {
                return error.message
            }
        }
        XCTAssertEqual(refusal("int", .number(2.5)), "`int` takes whole numbers, not 2.5")
        XCTAssertEqual(refusal("float", .label("loud")), "`float` takes a number, not \"loud\"")
        XCTAssertEqual(refusal("bool", .number(3)), "`bool` is true or false (or 1/0), not 3")
        XCTAssertEqual(refusal("path", .label("no-such-file.wav")), "`path` takes a file path, and /tmp/no-such-file.wav does not exist")
        XCTAssertEqual(refusal("path", .number(1)), "`path` takes a file path, not 1")
        XCTAssertEqual(refusal("lfo", .number(0.5)), "`lfo` is reported by the plugin (patch:readable), not set by the host")
        XCTAssertEqual(refusal("nope", .number(1)), "`Example Parameters` has no parameter `nope`")
        let sampler = try Installed.unit("http://lv2plug.in/plugins/eg-sampler")
        XCTAssertThrowsError(try sampler.setParameter("gain", to: .number(30), relativeTo: nil)) { error in
            XCTAssertEqual((error as? UnitError)?.message, "`gain` is 30, outside its range -20…20")
        }
    }

    /// A path to a FIFO, a directory, a device or a loop of symbolic links
    /// is refused before the plugin could open it (a FIFO would hang its
    /// worker, and a live run's `quit` that waits for it).
    func testAPathThatIsNotARegularFileIsRefused() throws {
        let folder = try makeScratchFolder(prefix: "messages-not-regular")
        let fifo = folder.appendingPathComponent("fifo.wav").path
        try FIFOs.make(fifo)
        let loop = folder.appendingPathComponent("loop.wav").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let unit = try Installed.unit("http://lv2plug.in/plugins/eg-sampler")
        func refusal(_ path: String) -> String? {
            FIFOs.promptly(fifo) { () -> String in
                do {
                    try unit.setParameter("sample", to: .label(path), relativeTo: folder.path)
                    return "accepted"
                } catch {
                    return (error as? UnitError)?.message ?? "\(error)"
                }
            }
        }
        let only = "not a regular file; fxhost reads and writes only regular files"
        XCTAssertEqual(refusal("fifo.wav"), "`sample` takes a file, and `\(fifo)` is a FIFO, \(only)")
        XCTAssertEqual(refusal(folder.path), "`sample` takes a file, and `\(folder.path)` is a directory, \(only)")
        XCTAssertEqual(refusal("/dev/zero"), "`sample` takes a file, and `/dev/zero` is a character device, \(only)")
        XCTAssertEqual(refusal("loop.wav"), "`sample` takes a file, and `\(loop)` is a loop of symbolic links")
        XCTAssertEqual(unit.messageParametersSet(), [], "nothing was sent")
    }

    /// eg-sampler given a file by `sample` plays that file's samples from
    /// the frame of a note-on.
    func testEgSamplerPlaysTheFileItWasGiven() throws {
        let folder = try makeScratchFolder(prefix: "messages-sampler")
        let path = folder.appendingPathComponent("ramp.wav").path
        let ramp = (0..<1000).map { Float($0) / 2000 }
        try Audio(channels: [ramp]).write(path)
        let unit = try Installed.unit("http://lv2plug.in/plugins/eg-sampler")
        try unit.setParameter("sample", to: .label(path), relativeTo: nil)
        let driver = KernelDriver(try unit.prepareInstances(count: 1, format: format).kernels[0], maxBlock: 256)
        driver.runBlock(frames: 256) { _, _ in }  // takes the message; its worker loads the file
        XCTAssertEqual(unit.reportedMessageParameterValues()["http://lv2plug.in/plugins/eg-sampler#sample"], .path(path))

        let control = try XCTUnwrap(unit.instances[0].atomPorts.first { $0.port.direction == .input })
        let midiType = unit.world.urids.map("http://lv2plug.in/ns/ext/midi#MidiEvent")
        var played: [Float] = []
        for block in 0..<5 {
            driver.runBlock(frames: 256, fill: { _, _ in },
                            beforeRun: { if block == 0 { Self.appendNoteOn(to: control, type: midiType) } })
            played += Array(UnsafeBufferPointer(start: driver.outputs[0], count: 256))
        }
        // eg-sampler stops on the file's last frame rather than after it.
        let differing = (0..<999).first { played[$0] != ramp[$0] }
        XCTAssertNil(differing, "the file's samples from the note-on on, first difference at \(differing ?? 0)")
        XCTAssertTrue(played.dropFirst(999).allSatisfy { $0 == 0 }, "the file ends, and so does the sound")
    }

    /// A note-on (middle C) at frame 0, after the fill hooks' events.
    private static func appendNoteOn(to port: AtomPortBuffer, type: LV2_URID) {
        let event = UnsafeMutableRawPointer.allocate(byteCount: 24, alignment: 8)
        defer { event.deallocate() }
        event.storeBytes(of: Int64(0), as: Int64.self)
        event.storeBytes(of: UInt32(3), toByteOffset: 8, as: UInt32.self)
        event.storeBytes(of: type, toByteOffset: 12, as: UInt32.self)
        for (index, byte) in [UInt8(0x90), 60, 100].enumerated() { event.storeBytes(of: byte, toByteOffset: 16 + index, as: UInt8.self) }
        _ = lv2_atom_sequence_append_event(port.sequence, port.capacity, event.assumingMemoryBound(to: LV2_Atom_Event.self))
    }
}

/// The convolver's impulse response set as a message parameter, saved in
/// a preset (its state holds the path) and restored into a new unit: the
/// restored plugin convolves with the same file. Oracle: a single 0.5 at
/// frame 480 gives the input ×0.5, 480 frames plus the reported latency late.
final class ConvolverPresetTests: XCTestCase {
    private let format = RenderFormat(sampleRate: 48_000, maxBlockFrames: 256, mode: .offline)
    private static let convolver = "http://gareus.org/oss/lv2/zeroconvolv#CfgMono"

    func testTheImpulseResponseComesBackFromASavedPreset() throws {
        let folder = try makeScratchFolder(prefix: "messages-conv-preset")
        var impulse = [Float](repeating: 0, count: 1024)
        impulse[480] = 0.5
        let irPath = folder.appendingPathComponent("cab.wav").path
        try Audio(channels: [impulse]).write(irPath)
        let catalog = PluginCatalog(world: LV2World())

        let first = try XCTUnwrap(try LV2UnitProvider(catalog: catalog).makeUnit(Self.convolver) as? LV2Unit)
        try first.setParameter("ir", to: .label(irPath), relativeTo: nil)
        try assertConvolves(first, delay: 480, gain: 0.5)
        _ = try first.savePreset("Cab", portValues: [:], in: folder.appendingPathComponent("presets"))
        let state = try String(contentsOf: folder.appendingPathComponent("presets/fxhost-Cab.lv2/state.ttl"), encoding: .utf8)
        XCTAssertTrue(state.contains("zeroconvolv#ir"), state)

        let restored = try XCTUnwrap(try LV2UnitProvider(catalog: catalog).makeUnit(Self.convolver) as? LV2Unit)
        try restored.applyPreset("Cab")
        try assertConvolves(restored, delay: 480, gain: 0.5)
    }

    /// Live, the worker's thread answers later, but an instance is made
    /// with its file loaded all the same (the worker answers at once until
    /// its thread starts), so a live plan knows the latency too.
    func testALiveInstanceStartsWithItsFileAndItsLatency() throws {
        let folder = try makeScratchFolder(prefix: "messages-conv-live")
        var impulse = [Float](repeating: 0, count: 1024)
        impulse[300] = 0.5
        let irPath = folder.appendingPathComponent("cab.wav").path
        try Audio(channels: [impulse]).write(irPath)
        let unit = try Installed.unit(Self.convolver)
        try unit.setParameter("ir", to: .label(irPath), relativeTo: nil)
        try assertConvolves(unit, delay: 300, gain: 0.5, mode: .live)
    }

    /// Runs noise through one instance and checks every frame after the
    /// first blocks against the arithmetic.
    private func assertConvolves(_ unit: LV2Unit, delay: Int, gain: Float, mode: RenderMode = .offline,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let prepared = try unit.prepareInstances(count: 1, format: RenderFormat(sampleRate: 48_000, maxBlockFrames: 256, mode: mode))
        let driver = KernelDriver(prepared.kernels[0], maxBlock: 256)
        var noise = Noise()
        var input: [Float] = [], output: [Float] = []
        for _ in 0..<20 {
            driver.runBlock(frames: 256) { _, buffer in
                for index in 0..<256 { buffer[index] = noise.next() }
                input += Array(UnsafeBufferPointer(start: buffer, count: 256))
            }
            output += Array(UnsafeBufferPointer(start: driver.outputs[0], count: 256))
        }
        XCTAssertEqual(unit.instances[0].latencyFrames, prepared.latencyFrames, "the plan knew the latency the file gives",
                       file: file, line: line)
        let total = delay + prepared.latencyFrames
        let worst = (total..<output.count).map { abs(output[$0] - gain * input[$0 - total]) }.max() ?? 1
        XCTAssertLessThan(worst, 1e-5, file: file, line: line)
        XCTAssertLessThan(output.prefix(total).map(abs).max() ?? 1, 1e-6, "silence before the delayed copy", file: file, line: line)
    }

    /// x42's convolver leaves its three convolution threads behind when an
    /// instance that loaded an impulse response is deactivated and activated
    /// again (x42-plugins 20221119, with SCHED_OTHER as offline; they wait
    /// in freed memory once the instance is gone, and a signal waking them
    /// crashed fxhost). Every new instance — each bounce makes some — must
    /// therefore leave no thread behind once freed. Oracle: the kernel's
    /// count of this process's threads (/proc/self/task).
    func testInstancesOfTheConvolverLeaveNoThreadsBehind() throws {
        let folder = try makeScratchFolder(prefix: "messages-threads")
        let ir = folder.appendingPathComponent("ir.wav").path
        // Long enough that the convolver runs its later partitions on threads of its own.
        try Audio(channels: [[0.5] + [Float](repeating: 0, count: 96_000) + [0.25]]).write(ir)
        func threads() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count }
        let unit = try Installed.unit("http://gareus.org/oss/lv2/zeroconvolv#CfgMono")
        try unit.setParameter("ir", to: .label(ir), relativeTo: nil)
        let live = RenderFormat(sampleRate: 48_000, maxBlockFrames: 256, mode: .live)
        let kept = try unit.prepareInstances(count: 1, format: live)  // what a live session plays
        XCTAssertGreaterThan(kept.latencyFrames, 0, "the impulse response is loaded")
        let before = try threads()
        // Four bounces: each makes an offline instance beside the live one,
        // frees it, and takes the live one up again.
        for blockFrames in [512, 1024, 512, 1024] {
            let offline = try unit.prepareInstances(count: 1, format: RenderFormat(sampleRate: 48_000, maxBlockFrames: blockFrames,
                                                                                  mode: .offline))
            XCTAssertGreaterThan(offline.latencyFrames, 0, "the impulse response is loaded")
            XCTAssertIdentical(try unit.prepareInstances(count: 1, format: live).kernels.first?.owner, kept.kernels.first?.owner)
        }
        // The instances' own threads end as they are freed, some a moment later.
        XCTAssertTrue(eventually(within: 10) { ((try? threads()) ?? .max) <= before },
                      "four instances made and freed left \((try? threads()) ?? 0) threads where there were \(before)")
    }
}
