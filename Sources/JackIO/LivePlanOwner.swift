import HostCore
import Synchronization

/// What a published program points into: the plan, the pointer lists its
/// feeds and taps use, and the recorders and players whose rings they push
/// to. The engine keeps it alive until the realtime thread has let go.
package final class LivePlanOwner {
    let plan: RenderPlan?
    private let recorders: [TapRecorder]
    private let players: [LiveFilePlayer]
    /// The MIDI file players the program plays from.
    private var midiPlayers: [LiveMIDIFilePlayer] = []
    private var feedBuffers: [UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>] = []
    private var tapChannels: [UnsafeMutableBufferPointer<UnsafePointer<Float>>] = []
    /// The taps' peak cells the program raises.
    private var tapMeters: [LiveMeters] = []
    private var scratch: [UnsafeMutablePointer<Float>] = []
    /// The memory of the program's MIDI table, if any.
    var midi: MIDIControlTableStorage?
    /// A hand-built program's memory (the engine tests'): kept
    /// alive with the program, never looked into.
    private let kept: AnyObject?

    private init(plan: RenderPlan?, recorders: [TapRecorder], players: [LiveFilePlayer]) {
        self.plan = plan
        self.recorders = recorders
        self.players = players
        kept = nil
    }

    /// The owner of a program built by hand: it keeps `memory` (whatever
    /// the program points into) alive until the realtime thread lets go.
    package init(keeping memory: AnyObject) {
        plan = nil
        recorders = []
        players = []
        kept = memory
    }

    deinit {
        for buffers in feedBuffers { buffers.deallocate() }
        for channels in tapChannels { channels.deallocate() }
        for buffer in scratch { buffer.deallocate() }
    }

    /// Makes the program for `plan`: JACK inputs are the live input nodes'
    /// channels and outputs the output nodes', in plan order; file sources
    /// read from `players`, taps push to `recorders` (by file) and raise
    /// `tapMeters` (by file), and each
    /// output channel `i` is metered into `peaks[i]`.
    static func makeProgram(for plan: RenderPlan, players: [String: LiveFilePlayer], recorders: [String: TapRecorder],
                            tapMeters: [String: LiveMeters],
                            peaks: UnsafeMutablePointer<Atomic<UInt32>>,
                            midiPlayers: [String: LiveMIDIFilePlayer] = [:]) -> LiveProgram {
        let usedRecorders = plan.taps.compactMap { recorders[$0.file] }
        let usedPlayers = plan.sources.compactMap { players[$0.node] }
        let owner = LivePlanOwner(plan: plan, recorders: usedRecorders, players: usedPlayers)
        let inputs = plan.sources.flatMap { source -> [UnsafeMutablePointer<Float>] in
            if case .input = source.kind { return source.channels }
            return []
        }
        let outputs = plan.outputs.flatMap(\.channels)
        var feeds: [LiveFeed] = []
        for source in plan.sources {
            guard case .file = source.kind, let player = players[source.node] else { continue }
            let buffers = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: source.channels.count)
            _ = buffers.initialize(from: source.channels)
            owner.feedBuffers.append(buffers)
            feeds.append(LiveFeed(ring: player.ring, buffers: UnsafePointer(buffers.baseAddress!), counters: player.counters,
                                 spaceFreed: player.spaceFreed, wakeFrames: player.chunkFrames))
        }
        var taps: [LiveTap] = []
        for tap in plan.taps {
            guard let recorder = recorders[tap.file], let meter = tapMeters[tap.file] else { continue }
            let channels = UnsafeMutableBufferPointer<UnsafePointer<Float>>.allocate(capacity: tap.channels.count)
            _ = channels.initialize(from: tap.channels.map { UnsafePointer($0) })
            owner.tapChannels.append(channels)
            owner.tapMeters.append(meter)
            taps.append(LiveTap(input: recorder.input, channels: UnsafeBufferPointer(channels), peakBits: meter.peaks))
        }
        let meters = outputs.enumerated().map { index, buffer in
            LiveMeter(buffer: UnsafePointer(buffer), peakBits: peaks + index)
        }
        var live = LiveProgram(program: plan.program, inputs: inputs, outputs: outputs, owner: owner,
                               feeds: feeds, taps: taps, meters: meters)
        // MIDI: JACK MIDI inputs are the `midi-input` nodes' lists, outputs
        // the `midi-output` nodes', in plan order; MIDI files play on.
        for source in plan.midiSources {
            switch source.kind {
            case .input:
                live.midiInputs.append(source.list)
            case .file:
                guard let player = midiPlayers[source.node] else { continue }
                owner.midiPlayers.append(player)
                live.midiFiles.append(LiveMIDIFeed(playback: player.playback, list: source.list, clock: player.clock))
            }
        }
        live.midiOutputs = plan.midiOutputs.map(\.list)
        return live
    }

    /// Makes a program that runs nothing and plays silence, for the moments
    /// plugin instances must not run: while they are replaced (a new sample
    /// rate or block size), while a preset restores their state, and while
    /// a bounce freewheels the server.
    static func makeIdleProgram(inputs: Int, outputs: Int, frames: Int) -> LiveProgram {
        let owner = LivePlanOwner(plan: nil, recorders: [], players: [])
        func buffer() -> UnsafeMutablePointer<Float> {
            let memory = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1))
            memory.initialize(repeating: 0, count: max(frames, 1))
            owner.scratch.append(memory)
            return memory
        }
        let inputBuffers = (0..<inputs).map { _ in buffer() }
        let outputBuffers = (0..<outputs).map { _ in buffer() }
        let program = RenderProgram(ops: UnsafeBufferPointer(start: nil, count: 0),
                                    connections: UnsafeBufferPointer(start: nil, count: 0),
                                    maxBlockFrames: max(frames, 1))
        return LiveProgram(program: program, inputs: inputBuffers, outputs: outputBuffers, owner: owner)
    }
}

