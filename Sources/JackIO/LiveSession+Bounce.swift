import Foundation
import HostCore

/// Bouncing from a live session, as a DAW's export does: the live outputs go
/// silent, the server freewheels while the patch's file sources are
/// rendered offline to a file, then live playing resumes where it was.
///
/// The bounce compiles the graph in offline mode, which gives every plugin
/// new instances (a different `RenderFormat`); the live plan keeps its own
/// (plans own their instances: `ProcessorKernel.owner`), and the live plan
/// compiled again afterwards takes them up again, so the live sound — reverb
/// tails, delay lines, plugin state — is untouched by a bounce. Parameter
/// values are shared, so the bounce renders the values set live.
extension LiveSession {
    /// Starts bouncing the patch's outputs to `file` (a second output to
    /// `file` with `-NODE` before the extension, and so on) and returns at
    /// once; the render runs on a thread of its own. `start`/`end` select a
    /// range of the timeline in seconds (no end: to the end of the sources,
    /// then a tail of at most `maximumTailSeconds`). Live inputs play
    /// silence in the bounce; the patch's taps are not written (they are
    /// live recordings). Until `finishBounce` has taken the result, edits
    /// are refused with `.bouncing`. Without `replacing`, a file the bounce
    /// would write that exists already is refused (`.bounceFileExists`),
    /// after the conflicts with live taps and sources.
    ///
    /// On any error the live program plays again before this throws.
    @discardableResult
    package func startBounce(to file: String, startSeconds: Double = 0, endSeconds: Double? = nil,
                            maximumTailSeconds: Double = 10, replacing: Bool = true) throws(LiveSessionError) -> LiveBounce {
        try requireNoBounce()
        guard !serverHasShutDown else { throw .serverGone }
        guard !plan.outputs.isEmpty else { throw .nothingToBounce }
        let files = Self.bounceFiles(file, outputs: plan.outputs.map(\.node))
        // The render checks its files against the sources; the live taps are not in its plan.
        var conflicts = FileConflicts()
        conflicts.liveTaps = liveTaps.files.sorted()
        conflicts.bounces = zip(plan.outputs, files).map { ($0.node, $1) }
        if let conflict = conflicts.first { throw .render(.fileConflict(conflict.message)) }
        // Without `replacing` (`bounce FILE` unforced) no file is replaced, a symbolic link included.
        // A file a source plays is left to the render's own refusal, which says so.
        if !replacing {
            let played = Set(FileConflicts(of: graph).sources.map { URL(fileURLWithPath: $0.path).standardizedFileURL.path })
            for path in files where !played.contains(URL(fileURLWithPath: path).standardizedFileURL.path) {
                var info = stat()
                // A FIFO, a device or a directory there gets the render's own sentence.
                if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG || info.st_mode & S_IFMT == S_IFLNK {
                    throw .bounceFileExists(path: path, asked: file)
                }
            }
        }
        var renderOptions = RenderOptions()
        renderOptions.threads = options.threads  // the session's, as live
        renderOptions.tempo = transport.tempo
        do {
            for (output, path) in zip(plan.outputs, files) {
                renderOptions.outputFiles[output.node] = RenderOutputFile(path: path, format: try AudioFileFormat(path: path),
                                                                          replacing: replacing)
            }
        } catch {
            throw .file(error)
        }
        renderOptions.startSeconds = startSeconds
        renderOptions.endSeconds = endSeconds
        renderOptions.maximumTailSeconds = maximumTailSeconds
        renderOptions.silentInputsWithoutFiles = true
        var edit = rewrite()
        edit.taps = []
        let bounceGraph: AudioGraph
        do {
            bounceGraph = try edit.apply()
        } catch {
            throw .graph(error)
        }
        let renderer: FreewheelRenderer
        do {
            renderer = try FreewheelRenderer(server: options.server, clientName: client.name + "-bounce")
        } catch {
            throw .bounce(error)
        }

        // Preparing the units touches only their offline instances (what
        // differs by format, freewheeling included, is kept per format), so
        // the live plan plays on while the bounce is compiled.
        var offline = format
        offline.mode = .offline
        let offlinePlan: RenderPlan
        do {
            offlinePlan = try bounceGraph.compile(format: offline)
        } catch {
            // Units prepared before the one that failed now have offline
            // instances as their current ones: take the live ones back, or a
            // stateful preset would later go to instances nothing plays.
            try resumeLivePlan()
            throw .graph(error)
        }
        let framesBefore = engine.statistics.frames
        // Silent while the server freewheels: the live plan would run at the render's speed.
        do {
            try publishAndWait(LivePlanOwner.makeIdleProgram(inputs: inputs.count, outputs: outputs.count,
                                                             frames: format.maxBlockFrames))
        } catch {
            try resumeLivePlan()
            throw error
        }
        let started: LiveBounce
        do {
            started = try LiveBounce(plan: offlinePlan, options: renderOptions, renderer: renderer)
        } catch {
            try resumeLivePlan()
            throw .render(error)
        }
        bouncing.begin(started, engineFrames: framesBefore)
        // A server whose freewheeling client dies is wedged for good: a crash
        // now stops this process for its supervisor to end the freewheel first.
        if CrashReport.isInstalled { CrashReport.stopsInsteadOfExiting(true) }
        started.start(notifying: options.notifier)
        return started
    }

    /// Asks the bounce under way to stop; `finishBounce` then reports it as stopped.
    package func cancelBounce() throws(LiveSessionError) {
        guard let bounce = bouncing.running else { throw .noBounce }
        bounce.cancel()
    }

    /// Once the bounce has ended (or, with `wait`, when it ends): puts the
    /// live plan back and returns the bounce's summary or why it failed.
    /// nil while it runs, or when there is none. The server is out of
    /// freewheel whenever this returns a result.
    package func finishBounce(wait: Bool = false) -> Result<RenderSummary, LiveSessionError>? {
        guard let running = bouncing.running, wait || running.isFinished else { return nil }
        let result = running.waitForResult().mapError { LiveSessionError.bounce($0) }
        if CrashReport.isInstalled { CrashReport.stopsInsteadOfExiting(false) }
        // The engine ran silent (and, freewheeling, fast) meanwhile: that is not time played.
        bouncing.end(engineFrames: engine.statistics.frames)
        liveTaps.breakClocks()  // the server's clock ran on while the takes recorded nothing
        breakFileClocks()
        do {
            try resumeLivePlan()
        } catch {
            if case .failure = result { return result }
            return .failure(error)
        }
        return result
    }

    /// The live plan compiled again from the current graph (its units take
    /// up their live instances again and leave freewheeling) and swapped in.
    private func resumeLivePlan() throws(LiveSessionError) {
        try replaceGraph(with: graph)
    }

    /// For `finish` and `deinit`: stops a bounce under way and waits for it
    /// (the server leaves freewheel); the live plan is not put back.
    func abandonBounce() {
        bouncing.abandon()
    }

    func requireNoBounce() throws(LiveSessionError) {
        try bouncing.requireNone()
    }

    /// The bounce under way, if any.
    package var bounce: LiveBounce? { bouncing.running }

    /// `file` for the first output; `file` with `-NODE` before its extension for each other.
    static func bounceFiles(_ file: String, outputs: [String]) -> [String] {
        let url = URL(fileURLWithPath: file)
        let stem = url.deletingPathExtension().path, ext = url.pathExtension
        return outputs.enumerated().map { index, node in
            index == 0 ? file : stem + "-" + node + (ext.isEmpty ? "" : "." + ext)
        }
    }
}
