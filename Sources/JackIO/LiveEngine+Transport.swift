import CJack
import HostCore

/// The engine's transport (`LiveTransport`), from the control thread.
extension LiveEngine {
    /// Where the own clock starts (frame 0, at `tempo`, rolling or not) and
    /// the client JACK's transport is asked through. Before `start` only.
    package func prepareTransport(tempo: Tempo, rolling: Bool) {
        state.pointee.transport = LiveTransport(tempo: tempo, sampleRate: Double(client.sampleRate))
        state.pointee.transport.requestedRolling.store(rolling, ordering: .relaxed)
        state.pointee.transport.client = try? client.handle()
        // Generic metadata is made on first use, under a lock: not on the realtime thread.
        let tempoBits = state.pointee.transport.requestedTempo.load(ordering: .relaxed)
        state.pointee.transport.playingTempo.store(tempoBits, ordering: .relaxed)
        state.pointee.transport.playingMeter.store(state.pointee.transport.requestedMeter.load(ordering: .relaxed),
                                                   ordering: .relaxed)
    }

    /// The tempo and meter the own clock plays from the next cycle on.
    package func requestTempo(_ tempo: Tempo) {
        state.pointee.transport.requestedMeter.store(LiveTransport.meterCode(tempo), ordering: .relaxed)
        state.pointee.transport.requestedTempo.store(tempo.beatsPerMinute.bitPattern, ordering: .relaxed)
    }

    /// Starts or stops the transport: JACK's own when a timebase master is
    /// followed (every client of the server sees it), else the host's clock.
    package func requestRolling(_ rolling: Bool) {
        if followsJackTransport, let handle = try? client.handle() {
            if rolling { jack_transport_start(handle) } else { jack_transport_stop(handle) }
        }
        state.pointee.transport.requestedRolling.store(rolling, ordering: .relaxed)
        // After the value: the realtime side, seeing a new count, reads this request's value.
        state.pointee.transport.rollingRequests.wrappingAdd(1, ordering: .releasing)
    }

    /// True once the realtime thread follows a MIDI clock (`clock: { input }`).
    package var followsMIDIClock: Bool { state.pointee.transport.followsClock.load(ordering: .relaxed) }

    /// True once the MIDI clock followed gives the tempo (from its second
    /// pulse): a stray start, stop or song position alone leaves `tempo` working.
    package var midiClockSetsTempo: Bool { state.pointee.transport.clockGivesTempo.load(ordering: .relaxed) }

    /// True while the realtime thread follows a JACK timebase master.
    package var followsJackTransport: Bool { state.pointee.transport.followsJack.load(ordering: .relaxed) }

    /// The tempo and meter the last cycle played at, and whether it rolled.
    /// How often the position has jumped (see `LiveTransport.jumps`).
    package var transportJumps: Int { state.pointee.transport.jumps.load(ordering: .relaxed) }

    package var playingTransport: (beatsPerMinute: Double, beatsPerBar: Int, beatUnit: Int, rolling: Bool) {
        let meter = state.pointee.transport.playingMeter.load(ordering: .relaxed)
        return (Double(bitPattern: state.pointee.transport.playingTempo.load(ordering: .relaxed)), meter / 256, meter % 256,
                state.pointee.transport.playingRolling.load(ordering: .relaxed))
    }
}
