import HostCore

/// A live session's taps on the control thread: a recorder per file
/// (recording or paused), the node each records, and the taps stopped so
/// far, for the summary. The realtime thread pushes into the recorders'
/// rings through the program (`LivePlanOwner` keeps them alive for it).
///
/// Recorders are keyed by the file the graph declares; a take never
/// overwrites a file, so one whose file exists goes to the next numbered
/// name (`take-2.wav`), which `take(for:)` and the statuses give.
///
/// A recorder whose writer met a write error (a full disk) stays here,
/// `failed`, until `untap` or the end: its file is closed already, the
/// realtime thread pushes nothing into it, and `takeNewFailures` hands
/// each failure to the host once, to announce. Finishing a failed tap is
/// no error: it is `failed` in the status and the summary.
struct LiveTaps {
    /// Recording, paused or failed, by file as declared.
    private(set) var recorders: [String: TapRecorder] = [:]
    /// Each recorder's peak meter, by file as declared.
    private(set) var meters: [String: LiveMeters] = [:]
    /// The file each declared file's latest take went to.
    private var takes: [String: String] = [:]
    /// The node each file records.
    private var nodes: [String: String] = [:]
    private var stopped: [LiveStatus.Tap] = []
    /// The takes (files as written) whose failure has been handed out.
    private var failuresTaken: Set<String> = []
    /// Takes a restarted engine goes on with, by file, until their taps open.
    var continuing: [String: TakeContinuation] = [:]
    /// Continued takes held until the engine's ports are connected (`releaseHeld`).
    private var held: Set<String> = []
    /// The supervisor's shared slots the recorders' rings go in, for the
    /// supervisor to write (nil: their own memory, written here).
    var region: SharedTapRegion?
    /// Takes (files as written) the supervisor writes: it announces their failures itself.
    private var supervisorWritten: Set<String> = []
    /// The supervisor's meter cells the taps' meters go in (nil: their own memory).
    var meterRegion: SharedMeterRegion?

    /// The files being recorded (or paused) now, as written.
    var files: Set<String> { Set(recorders.values.map(\.path)) }

    /// How many stopped takes `status` lists, the latest: a front end that
    /// taps and untaps all night must not make every status it is sent
    /// grow (an OSC reply outgrew a datagram after some 450 takes). The
    /// summary at the end lists every one.
    static let stoppedListed = 32

    /// The latest stopped takes (at most `stoppedListed`), then those recording.
    var status: [LiveStatus.Tap] {
        stopped.suffix(Self.stoppedListed) + active
    }

    /// Stopped takes too early for `status` to list.
    var stoppedNotListed: Int { max(0, stopped.count - Self.stoppedListed) }

    /// The taps recording, paused or failed now (none finished).
    var active: [LiveStatus.Tap] {
        recorders.sorted(by: { $0.key < $1.key }).map {
            Self.status(node: nodes[$0.key] ?? "", file: $0.key, recorder: $0.value, recording: true,
                        held: held.contains($0.key))
        }
    }

    /// Taps stopped so far (every one, after `finishAll`).
    var summary: [LiveStatus.Tap] { stopped }

    /// Opens (and, when `running`, starts) a recorder for every tap of
    /// `plan` that has none yet; returns the files it opened. On failure
    /// none of them is kept. Their writers signal `notifier` when a write fails.
    mutating func open(for plan: RenderPlan, sampleRate: Int, running: Bool,
                       notifier: EventNotifier?) throws(AudioFileError) -> [String] {
        var opened: [String] = []
        do {
            for tap in plan.taps where recorders[tap.file] == nil {
                var continuedRecorder: TapRecorder?
                if let continued = continuing.removeValue(forKey: tap.file) {
                    let expected = continued.paused ? nil : continued.expectedFrameTime
                    if let region {
                        // The supervisor writes it on: a take it holds open, or one it can open
                        // again (no slot free, or a file that cannot go on: a new take).
                        if continued.heldBySupervisor
                            || TapRecorder.canContinue(tap.file, channels: tap.channels.count, sampleRate: sampleRate) {
                            continuedRecorder = TapRecorder(adopting: tap.file, channels: tap.channels.count,
                                                            sampleRate: sampleRate, expectedFrameTime: expected, region: region)
                        }
                    } else {
                        // A take that cannot go on (moved, unreadable, another width) gives way to a new one.
                        continuedRecorder = try? TapRecorder(continuing: tap.file, channels: tap.channels.count,
                                                             sampleRate: sampleRate, expectedFrameTime: expected,
                                                             notifier: notifier)
                    }
                    // Held (paused, its clock not started) until the new engine's ports are
                    // connected: the gap then runs to its first frame of sound, not of an unconnected port.
                    continuedRecorder?.pause()
                    if !continued.paused, continuedRecorder != nil { held.insert(tap.file) }
                }
                let recorder: TapRecorder
                if let continuedRecorder {
                    recorder = continuedRecorder
                } else {
                    recorder = try TapRecorder(path: tap.file, format: try AudioFileFormat(path: tap.file),
                                               channels: tap.channels.count, sampleRate: sampleRate,
                                               mode: .recording, policy: .dropWhenFull, newTake: true,
                                               notifier: notifier, region: region)
                }
                recorders[tap.file] = recorder
                if recorder.isWrittenBySupervisor { supervisorWritten.insert(recorder.path) }
                meters[tap.file] = meterRegion.flatMap { LiveMeters(tap: tap.channels.count, in: $0) }
                    ?? LiveMeters(channels: tap.channels.count)
                takes[tap.file] = recorder.path
                nodes[tap.file] = tap.node
                opened.append(tap.file)
                if running { try recorder.start() }
            }
        } catch {
            abort(opened)
            throw error
        }
        return opened
    }

    /// The file the latest take declared as `file` is written to (the
    /// declared name, or a numbered one when that existed).
    func take(for file: String) -> String? { takes[file] }

    /// Drops `files`' recorders, keeping what they wrote (taps a program never took).
    mutating func abort(_ files: [String]) {
        for file in files {
            recorders.removeValue(forKey: file)?.abort()
            meters[file] = nil
        }
    }

    /// The takes recording now no longer follow the server's frame clock
    /// (a bounce played while they recorded nothing, the server came back).
    func breakClocks() {
        for recorder in recorders.values { recorder.breakClock() }
    }

    /// For a session that never ran or is going away.
    mutating func abortAll() {
        for recorder in recorders.values { recorder.abort() }
        recorders = [:]
        meters = [:]
    }

    /// Starts every recorder's writer thread (those started already go on).
    func startAll() throws(AudioFileError) {
        for recorder in recorders.values { try recorder.start() }
    }

    /// Finalises the taps not in `kept` (a graph edit removed them, and the
    /// realtime thread has let go of them). One whose file fails to close
    /// is `failed` in the summary, as one whose writer failed earlier is.
    mutating func finish(keeping kept: Set<String>) {
        for (file, recorder) in recorders.sorted(by: { $0.key < $1.key }) where !kept.contains(file) {
            recorders[file] = nil
            meters[file] = nil
            finish(file, recorder)
        }
    }

    /// Finalises every tap, once the realtime thread no longer pushes.
    mutating func finishAll() {
        for (file, recorder) in recorders.sorted(by: { $0.key < $1.key }) { finish(file, recorder) }
        recorders = [:]
        meters = [:]
    }

    private mutating func finish(_ file: String, _ recorder: TapRecorder) {
        // A failure is kept by the recorder (`failure`) and shows in its status.
        try? recorder.finish()
        stopped.append(Self.status(node: nodes[file] ?? "", file: file, recorder: recorder, recording: false))
    }

    /// Each tapped node's peak per channel (linear) since `reader` last
    /// looked, in node order; a node tapped twice shows the louder of its
    /// taps (they hear the same signal).
    func peaks(_ reader: OutputPeakReaders.Reader) -> [(node: String, peaks: [Float])] {
        var byNode: [String: [Float]] = [:]
        for (file, meter) in meters {
            let taken = meter.takeAdopting(reader)
            let node = nodes[file] ?? ""
            byNode[node] = byNode[node].map { zip($0, taken).map { max($0, $1) } } ?? taken
        }
        return byNode.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) }
    }

    /// The taps' meters whose cells lie in the supervisor's region, for its table.
    var sharedMeters: [(node: String, slot: Int, channels: Int)] {
        meters.sorted(by: { $0.key < $1.key }).compactMap { file, meter in
            meter.sharedSlot.map { (nodes[file] ?? "", $0, meter.channels) }
        }
    }

    /// Forgets `reader` in every tap's meter.
    func removeMeterReader(_ reader: OutputPeakReaders.Reader) {
        for meter in meters.values { meter.removeReader(reader) }
    }

    /// The taps that failed since the last call (recording or finished),
    /// each once; not those the supervisor writes, which it announces.
    mutating func takeNewFailures() -> [LiveStatus.Tap] {
        let failed = status.filter {
            $0.state == .failed && !failuresTaken.contains($0.file) && !supervisorWritten.contains($0.file)
        }
        failuresTaken.formUnion(failed.map(\.file))
        return failed
    }

    /// True when one of `files` (as declared) failed.
    func anyFailed(_ files: Set<String>) -> Bool {
        recorders.contains { files.contains($0.key) && $0.value.hasFailed }
    }

    /// Pauses (or resumes) those of `files` that record (or are paused);
    /// returns the files changed, or nil when none of `files` has a recorder.
    /// A pause is a flag each recorder keeps, which the realtime thread reads
    /// before every push: no new program. A failed tap is left as it is.
    func setPaused(_ pausing: Bool, files: Set<String>) -> Set<String>? {
        let matching = recorders.filter { files.contains($0.key) }
        guard !matching.isEmpty else { return nil }
        let changing = matching.filter { $0.value.isPaused != pausing && !$0.value.hasFailed }
        for recorder in changing.values {
            if pausing { recorder.pause() } else { recorder.resume() }
        }
        return Set(changing.keys)
    }

    /// Continued takes go on once the engine's ports are connected.
    mutating func releaseHeld() {
        for file in held { recorders[file]?.resume() }
        held = []
    }

    /// `held`: a continued take waiting for the ports, recording as far as anyone asks.
    private static func status(node: String, file: String, recorder: TapRecorder, recording: Bool,
                               held: Bool = false) -> LiveStatus.Tap {
        let failure = recorder.failure
        let state: LiveStatus.Tap.State = failure != nil ? .failed
            : !recording ? .finished : recorder.isPaused && !held ? .paused : .recording
        var tap = LiveStatus.Tap(node: node, file: recorder.path, seconds: recorder.secondsRecorded,
                                 droppedFrames: recorder.framesDropped, recording: recording && failure == nil,
                                 state: state, error: failure.map(Self.reason))
        if file != recorder.path { tap.requestedFile = file }
        tap.startFrame = recorder.startFrame
        tap.skippedFrames = recorder.framesSkipped
        tap.gaps = recorder.gap.map { [LiveStatus.Tap.Gap(atFrame: $0.atFrame, frames: $0.frames, sampleRate: recorder.sampleRate)] }
        return tap
    }

    /// A failure in a few words: a write's or close's reason ("disk full"),
    /// or the whole sentence for anything else.
    private static func reason(_ failure: AudioFileError) -> String {
        switch failure {
        case .writeFailed(_, let reason), .finishFailed(_, let reason): return reason
        default: return failure.description
        }
    }
}
