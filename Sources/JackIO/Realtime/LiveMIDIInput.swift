import CJack
import HostCore

// Called by: the realtime thread only: `runLiveCycle` calls
// `applyMIDIControl` once per cycle, after commands and the program swap,
// before the first chunk is rendered.

/// Reads this cycle's MIDI events from the session's MIDI input port and
/// applies what the current program's table maps them to, before the
/// block renders: a controller's value is in the parameter (or the first
/// step of its ramp) in the block its event arrives in, and a program
/// change's scene is applied whole, in one cycle. Each applied value, and
/// while learning each controller seen, is reported to the control thread
/// through the activity ring; nothing is announced here.
@_noLocks
func applyMIDIControl(_ state: UnsafeMutablePointer<LiveEngineState>, frames: UInt32) {
    guard let port = state.pointee.midiPort else { return }
    state.pointee.midiRamps.slots.advance()
    let buffer = _unsafePerformance { jack_port_get_buffer(port, frames) }
    guard let buffer else { return }
    let count = _unsafePerformance { jack_midi_get_event_count(buffer) }
    guard count > 0 else { return }
    guard let slot = state.pointee.current else { return }
    let table = slot.pointee.midi
    let learning = state.pointee.midiLearning.load(ordering: .relaxed)
    // Blocks in `MIDIRampSlots.rampSeconds` (20 ms: a fiftieth of the rate), at least one.
    let rampFrames = state.pointee.sampleRate.load(ordering: .relaxed) / 50
    let rampSteps = max(1, (rampFrames + Int(frames) - 1) / max(Int(frames), 1))
    var event = jack_midi_event_t()
    // First which events are the last of their kind: only those are applied.
    state.pointee.latestMIDIEvents.beginCycle()
    for index in 0..<count {
        let read = _unsafePerformance { jack_midi_event_get(&event, buffer, index) }
        guard read == 0, event.size >= 2, let bytes = event.buffer else { continue }
        switch bytes[0] & 0xF0 {
        case 0xB0 where event.size >= 3:
            state.pointee.latestMIDIEvents.markController(bytes[1], channelIndex: bytes[0] & 0x0F, index: index)
        case 0xC0:
            state.pointee.latestMIDIEvents.markProgram(channelIndex: bytes[0] & 0x0F, index: index)
        default: continue
        }
    }
    for index in 0..<count {
        let read = _unsafePerformance { jack_midi_event_get(&event, buffer, index) }
        guard read == 0, event.size >= 2, let bytes = event.buffer else { continue }
        let status = bytes[0]
        let channel = (status & 0x0F) + 1
        switch status & 0xF0 {
        case 0xB0 where event.size >= 3:
            let controller = bytes[1] & 0x7F, value = Int(bytes[2] & 0x7F)
            if learning {
                state.pointee.midiActivity.push(MIDIActivity(kind: .controllerSeen, generation: table.generation, index: -1,
                                                             value: Float(value), controller: controller, channel: channel))
            }
            applyController(controller, channel: channel, value: value, table: table, state: state, rampSteps: rampSteps,
                            frameOffset: event.time,
                            isLast: state.pointee.latestMIDIEvents.isLastController(controller, channelIndex: status & 0x0F, index: index))
        case 0xC0:
            guard state.pointee.latestMIDIEvents.isLastProgram(channelIndex: status & 0x0F, index: index) else { continue }
            let program = bytes[1] & 0x7F
            var taken = false
            for entry in table.programs where entry.program == program && (entry.channel == 0 || entry.channel == channel) {
                taken = true
                if entry.glideFrames > 0 {
                    table.glideScene(Int(entry.scene), frames: entry.glideFrames, motions: state.pointee.motions)
                } else {
                    table.applyScene(Int(entry.scene), motions: state.pointee.motions)
                }
                state.pointee.midiActivity.push(MIDIActivity(kind: .scene, generation: table.generation, index: entry.scene,
                                                             value: 0, controller: 0, channel: channel))
            }
            if !taken && state.pointee.midiReportsPrograms.load(ordering: .relaxed) {
                state.pointee.midiActivity.push(MIDIActivity(kind: .program, generation: table.generation, index: Int32(program),
                                                             value: 0, controller: 0, channel: channel))
            }
        default:
            continue
        }
    }
}

/// Every mapping of `controller` on `channel`: scaled, then stored (a
/// continuous parameter through a ramp), and reported; `isLast`: no later
/// event of the cycle is this controller's (else only taps are taken).
@_noLocks
private func applyController(_ controller: UInt8, channel: UInt8, value: Int, table: MIDIControlTable,
                             state: UnsafeMutablePointer<LiveEngineState>, rampSteps: Int, frameOffset: UInt32,
                             isLast: Bool) {
    for entry in table.controllers where entry.controller == controller && (entry.channel == 0 || entry.channel == channel) {
        // A later event of this controller in the cycle stores over this one; every tap counts.
        guard isLast || entry.tapsTempo else { continue }
        if entry.tapsTempo {
            // A footswitch's press; its release (below 64) is no tap. The
            // frame is exact, so taps sent at exact frames give an exact tempo.
            guard value >= 64, let client = state.pointee.client else { continue }
            let cycleTime = _unsafePerformance { jack_last_frame_time(client) }
            state.pointee.midiActivity.push(MIDIActivity(kind: .tempoTap, generation: table.generation, index: entry.mapping,
                                                         value: Float(value), controller: controller, channel: channel,
                                                         frameTime: cycleTime &+ frameOffset))
            continue
        }
        if entry.morph >= 0 {
            applyMorph(Int(entry.morph), table: table, position: SceneMorph.position(controller: value), state: state,
                       rampSteps: rampSteps)
            // The controller's own value: the control thread blends the same values to announce them.
            state.pointee.midiActivity.push(MIDIActivity(kind: .parameter, generation: table.generation, index: entry.mapping,
                                                         value: Float(value), controller: controller, channel: channel))
            continue
        }
        let scaled = entry.scale.value(controller: value)
        if let flag = entry.flag {
            let on: UInt8 = scaled != 0 ? 1 : 0
            state.pointee.motions.store(on, in: flag)
            state.pointee.midiFeedback.heard(entry, channel: channel, value: on != 0 ? entry.scale.high : entry.scale.low)
            state.pointee.midiActivity.push(MIDIActivity(kind: .bypass, generation: table.generation, index: entry.mapping,
                                                         value: on != 0 ? 1 : 0, controller: controller, channel: channel))
        } else if let target = entry.value {
            if entry.smoothed {
                state.pointee.motions.ramp(target, to: scaled, steps: rampSteps)
            } else {
                state.pointee.motions.store(scaled, in: target)
            }
            state.pointee.midiFeedback.heard(entry, channel: channel, value: scaled)
            state.pointee.midiActivity.push(MIDIActivity(kind: .parameter, generation: table.generation, index: entry.mapping,
                                                         value: scaled, controller: controller, channel: channel))
        }
    }
}
