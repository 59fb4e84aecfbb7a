import Foundation
import HostCore
@testable import LV2Bridge
import XCTest

/// What one plugin that takes MIDI did with a short note sequence.
struct MIDIWalkOutcome {
    /// The loudest output sample (0 for a plugin with no audio outputs).
    var peak: Float = 0
    /// MIDI events it gave out (MIDI filters).
    var midiOut = 0
    var refused: String?

    /// One line, for a walk in child processes (`ProcessWalk`).
    var line: String { refused.map { "refused " + $0 } ?? "\(peak) \(midiOut)" }

    init(peak: Float = 0, midiOut: Int = 0, refused: String? = nil) {
        self.peak = peak
        self.midiOut = midiOut
        self.refused = refused
    }

    init?(line: String) {
        if line.hasPrefix("refused ") {
            self.init(refused: String(line.dropFirst("refused ".count)))
            return
        }
        let parts = line.split(separator: " ")
        guard parts.count == 2, let peak = Float(parts[0]), let midiOut = Int(parts[1]) else { return nil }
        self.init(peak: peak, midiOut: midiOut)
    }
}

/// Two seconds at 48 kHz in blocks of 256, silence on any audio input, a
/// C major chord fed to the plugin's first MIDI input (C4 at frame 1000,
/// E4 at 12000, G4 at 24000, all off at 60000), as a plan feeds it: after
/// the resets, through the kernel's `midiInputs`, and read back from its
/// `midiOutputs` after each run.
func playNotes(_ plugin: PluginDescription) -> MIDIWalkOutcome {
    do {
        let unit = try LV2Unit(plugin: plugin, catalog: Installed.catalog)
        let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline)
        guard let kernel = try unit.prepareInstances(count: 1, format: format).kernels.first,
              let input = kernel.midiInputs.first else {
            return MIDIWalkOutcome(refused: "no MIDI input")
        }
        let driver = KernelDriver(kernel, maxBlock: 256)
        let storage = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: 2 * MIDIEventList.capacityPerBlock)
        defer { storage.deallocate() }
        var notes = MIDIEventList(events: storage, capacity: MIDIEventList.capacityPerBlock)
        var heard = MIDIEventList(events: storage + MIDIEventList.capacityPerBlock, capacity: MIDIEventList.capacityPerBlock)
        let sequence: [(frame: Int, status: UInt8, note: UInt8, velocity: UInt8)] = [
            (1000, 0x90, 60, 100), (12000, 0x90, 64, 100), (24000, 0x90, 67, 100),
            (60000, 0x80, 60, 0), (60000, 0x80, 64, 0), (60000, 0x80, 67, 0),
        ]
        var outcome = MIDIWalkOutcome()
        var start = 0
        while start < 96000 {
            let frames = min(256, 96000 - start)
            notes.removeAll()
            for event in sequence where event.frame >= start && event.frame < start + frames {
                notes.insert(MIDIEvent(frame: UInt32(event.frame - start), size: 3, status: event.status,
                                       data1: event.note, data2: event.velocity))
            }
            driver.runBlock(frames: frames, fill: { _, buffer in buffer.update(repeating: 0, count: frames) },
                            beforeRun: {
                                withUnsafeMutablePointer(to: &notes) { input.function(input.context, UnsafeMutableRawPointer($0), UInt32(frames)) }
                            })
            for output in kernel.midiOutputs {
                withUnsafeMutablePointer(to: &heard) { output.function(output.context, UnsafeMutableRawPointer($0), UInt32(frames)) }
                outcome.midiOut += heard.count
            }
            for buffer in driver.outputs {
                for frame in 0..<frames where buffer[frame].isFinite { outcome.peak = max(outcome.peak, abs(buffer[frame])) }
            }
            start += frames
        }
        return outcome
    } catch {
        return MIDIWalkOutcome(refused: error.description)
    }
}

final class MIDIPluginsWalkTests: XCTestCase {
    /// Silent instruments, and why: they need something beyond notes.
    static let silentInstruments = [
        // A SoundFont player with no SoundFont loaded plays nothing.
        "http://calf.sourceforge.net/plugins/Fluidsynth": "needs a SoundFont",
    ]

    /// Installed plugins that may crash in the walk, and when. Calf
    /// Wavetable plays in `fxhost render` (also in a batch, beside Calf
    /// Vinyl, job after job) and when walked alone (30 times in a row) or
    /// after eg-sampler, but crashed (SIGSEGV) in every run tried where
    /// another Calf plugin (Fluidsynth, Vocoder, Organ and Monosynth, Vinyl)
    /// was made, run and freed before it in the same process, inside Calf's
    /// own code (gdb: `wavetable_audio_module::make_snapshot`, called by its
    /// `process` from `lv2_instance::run`). The walk runs each plugin in a
    /// child process that inherits what ran before it (`ProcessWalk`), so
    /// it meets the crash, reports it, and goes on.
    static let mayCrash = [
        "http://calf.sourceforge.net/plugins/Wavetable": "after other Calf plugins in one process",
    ]

    /// Every installed plugin that takes MIDI gets a chord. Instruments (no
    /// main audio input, audio out) must sound, MIDI-only plugins (x42's
    /// filters) must pass MIDI on, and effects with a MIDI input must run.
    /// A plugin that crashes is reported as crashed; only those known to
    /// (`mayCrash`) may.
    func testEveryPluginThatTakesMIDIPlaysANoteSequence() {
        let plugins = Installed.catalog.plugins.filter { $0.ports.contains { $0.supportsMIDI && $0.direction == .input } }
        XCTAssertGreaterThan(plugins.count, 60, "the Debian plugin packages should be installed")
        let results = ProcessWalk.walk(count: plugins.count, secondsEach: 60, encode: \.line,
                                       decode: MIDIWalkOutcome.init(line:)) { playNotes(plugins[$0]) }
        var instruments = 0, sounding: [String] = [], silent: [String] = [], crashed: [String] = []
        var filters = 0, passing = 0, effects = 0, refused: [String] = []
        for (plugin, result) in zip(plugins, results) {
            guard case .finished(let outcome) = result else {
                crashed.append(plugin.uri)
                XCTAssertNotNil(Self.mayCrash[plugin.uri], "\(plugin.uri) failed in the walk: \(result)")
                continue
            }
            if let reason = outcome.refused {
                refused.append("\(plugin.uri): \(reason)")
                continue
            }
            if plugin.mainAudioOutputs.isEmpty {
                filters += 1
                if outcome.midiOut > 0 { passing += 1 }
            } else if plugin.mainAudioInputs.isEmpty {
                instruments += 1
                if outcome.peak > 1e-4 { sounding.append(plugin.uri) } else { silent.append(plugin.uri) }
            } else {
                effects += 1
            }
        }
        print("MIDI walk: \(plugins.count) plugins take MIDI: \(instruments) instruments, \(sounding.count) of them make sound; "
              + "\(filters) MIDI-only, \(passing) of them give MIDI out; \(effects) effects with a MIDI input; "
              + "\(refused.count) refused; \(crashed.count) crashed")
        for uri in sounding { print("  sounding instrument \(uri)") }
        for uri in silent { print("  silent instrument \(uri)") }
        for uri in crashed { print("  crashed \(uri)") }
        for line in refused { print("  refused \(line)") }
        XCTAssertEqual(Set(silent), Set(Self.silentInstruments.keys), "every instrument but those named sounds")
        XCTAssertGreaterThanOrEqual(sounding.count, Self.soundingFloor)
        XCTAssertGreaterThanOrEqual(passing, Self.passingFloor)
    }

    /// Measured on Debian 12's packages (the test prints them): 7 of the 8
    /// instruments walked sound (Fluidsynth needs a SoundFont); all 35
    /// MIDI-only plugins (x42's MIDI filters, eg-midigate's kin) give MIDI out.
    static let soundingFloor = 7
    static let passingFloor = 35
}
