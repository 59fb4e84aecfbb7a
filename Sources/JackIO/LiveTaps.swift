import HostCore

/// A live session's taps on the control thread: a recorder per file
/// (recording or paused), the node each records, and the taps stopped so
/// far, for the summary. The realtime thread pushes into the recorders'
/// rings through the program (`LivePlanOwner` keeps them alive for it).
///
/// Recorders are keyed by the file the graph declares; a take never
/// overwrites a file, so one whose file exists goes to the next numbered
/// name (`take-2.wav`), which `take(for:)` and the statuses give.
struct LiveTaps {
    /// Recording or paused, by file as declared.
    private(set) var recorders: [String: TapRecorder] = [:]
    /// The file each declared file's latest take went to.
    private var takes: [String: String] = [:]
    /// The node each file records.
    private var nodes: [String: String] = [:]
    private var stopped: [LiveStatus.Tap] = []

    /// The files being recorded (or paused) now, as written.
    var files: Set<String> { Set(recorders.values.map(\.path)) }

    /// Taps stopped so far, then those recording.
    var status: [LiveStatus.Tap] {
        stopped + active
    }

    /// The taps recording or paused now (none finished).
    var active: [LiveStatus.Tap] {
        recorders.sorted(by: { $0.key < $1.key }).map {
            Self.status(node: nodes[$0.key] ?? "", file: $0.key, recorder: $0.value, recording: true)
        }
    }

    /// Taps stopped so far (every one, after `finishAll`).
    var summary: [LiveStatus.Tap] { stopped }

    /// Opens (and, when `running`, starts) a recorder for every tap of
    /// `plan` that has none yet; returns the files it opened. On failure
    /// none of them is kept.
    mutating func open(for plan: RenderPlan, sampleRate: Int, running: Bool) throws(AudioFileError) -> [String] {
        var opened: [String] = []
        do {
            for tap in plan.taps where recorders[tap.file] == nil {
                let recorder = try TapRecorder(path: tap.file, format: try AudioFileFormat(path: tap.file),
                                               channels: tap.channels.count, sampleRate: sampleRate,
                                               mode: .recording, policy: .dropWhenFull, newTake: true)
                recorders[tap.file] = recorder
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
        for file in files { recorders.removeValue(forKey: file)?.abort() }
    }

    /// For a session that never ran or is going away.
    mutating func abortAll() {
        for recorder in recorders.values { recorder.abort() }
        recorders = [:]
    }

    /// Starts every recorder's writer thread (those started already go on).
    func startAll() throws(AudioFileError) {
        for recorder in recorders.values { try recorder.start() }
    }

    /// Finalises the taps not in `kept` (a graph edit removed them, and the
    /// realtime thread has let go of them); stops at the first that fails.
    mutating func finish(keeping kept: Set<String>) throws(AudioFileError) {
        for (file, recorder) in recorders.sorted(by: { $0.key < $1.key }) where !kept.contains(file) {
            recorders[file] = nil
            defer { stopped.append(Self.status(node: nodes[file] ?? "", file: file, recorder: recorder, recording: false)) }
            try recorder.finish()
        }
    }

    /// Finalises every tap, once the realtime thread no longer pushes;
    /// returns the first failure (every other tap is still finished).
    mutating func finishAll() -> AudioFileError? {
        var failure: AudioFileError?
        for (file, recorder) in recorders.sorted(by: { $0.key < $1.key }) {
            do {
                try recorder.finish()
            } catch {
                if failure == nil { failure = error }
            }
            stopped.append(Self.status(node: nodes[file] ?? "", file: file, recorder: recorder, recording: false))
        }
        recorders = [:]
        return failure
    }

    /// Pauses (or resumes) those of `files` that record (or are paused);
    /// returns the files changed, or nil when none of `files` has a recorder.
    /// A pause is a flag each recorder keeps, which the realtime thread reads
    /// before every push: no new program.
    func setPaused(_ pausing: Bool, files: Set<String>) -> Set<String>? {
        let matching = recorders.filter { files.contains($0.key) }
        guard !matching.isEmpty else { return nil }
        let changing = matching.filter { $0.value.isPaused != pausing }
        for recorder in changing.values {
            if pausing { recorder.pause() } else { recorder.resume() }
        }
        return Set(changing.keys)
    }

    private static func status(node: String, file: String, recorder: TapRecorder, recording: Bool) -> LiveStatus.Tap {
        LiveStatus.Tap(node: node, file: recorder.path, seconds: recorder.secondsRecorded,
                       droppedFrames: recorder.framesDropped, recording: recording,
                       state: !recording ? .finished : recorder.isPaused ? .paused : .recording)
    }
}
