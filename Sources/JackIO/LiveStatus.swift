import CJack
import HostCore

/// A snapshot of a live session, for the status line, `status --json` and
/// the summary at exit.
public struct LiveStatus: Codable, Sendable {
    public struct Output: Codable, Sendable {
        public var node: String
        /// The JACK ports, one per channel.
        public var ports: [String]
        /// Peak per channel since the previous snapshot, in dBFS (nil: silence).
        public var peakDecibels: [Double?]
        /// Peak per channel since the session started, in dBFS (nil: silence).
        public var maximumDecibels: [Double?]
    }

    public struct Tap: Codable, Sendable {
        /// Where a tap is in its life: `tap` starts it recording, `tap pause`
        /// and `tap resume` switch between recording and paused, `untap`
        /// (or the end of the run) finishes it. A write that fails (a full
        /// disk) makes it `failed` at once, its file closed at the last
        /// whole frame written, and it stays so (`error` says why).
        public enum State: String, Codable, Sendable {
            case recording, paused, finished, failed
        }

        public var node: String
        public var file: String
        /// The file the tap asked for, when the take went to another (a
        /// numbered name: takes are never overwritten).
        public var requestedFile: String? = nil
        /// Seconds in the file so far (a paused stretch is not in it).
        public var seconds: Double
        /// Frames lost because the writer fell behind (the ring was full).
        public var droppedFrames: Int
        /// False once the tap is stopped and its file finalised (a paused
        /// tap's file is still open: true; a failed one's is closed: false).
        public var recording: Bool
        public var state: State
        /// Why a failed tap stopped, in a few words ("disk full", "file too
        /// large"); nil (left out of the JSON) for every other state.
        public var error: String? = nil
        /// The JACK frame time its first frame was played at (nil before it
        /// records): takes made on one server line up by it.
        public var startFrame: Int? = nil
        /// Frames played while it was paused, which the file leaves out.
        public var skippedFrames: Int? = nil
        /// Silence in the file for time no engine recorded (a supervised
        /// engine restarting after a crash), each of its exact length; nil: none.
        public var gaps: [Gap]? = nil

        /// A stretch of a take filled with silence.
        public struct Gap: Codable, Sendable, Equatable {
            /// Where it starts in the file, and how long it is.
            public var atSeconds: Double
            public var seconds: Double
            public var frames: Int

            public init(atFrame: Int, frames: Int, sampleRate: Int) {
                let rate = Double(max(sampleRate, 1))
                atSeconds = Double(atFrame) / rate
                seconds = Double(frames) / rate
                self.frames = frames
            }
        }
    }

    /// A bounce under way: how far it got.
    public struct Bounce: Codable, Sendable {
        public var files: [String]
        public var startSeconds: Double
        /// nil: to the end of the sources, then the tail.
        public var endSeconds: Double?
        /// Seconds of audio rendered so far, and before the tail.
        public var secondsDone: Double
        public var secondsExpected: Double
        public var inTail: Bool
        /// Times faster than realtime, so far.
        public var speed: Double
    }

    public struct FileSource: Codable, Sendable {
        public var node: String
        public var file: String
        public var seconds: Double
        /// Frames played as silence because the disk thread was late.
        public var underrunFrames: Int
        public var finished: Bool
    }

    public var client: String
    public var server: String?
    public var sampleRate: Int
    public var bufferFrames: Int
    /// Seconds of audio the session has processed.
    public var seconds: Double
    /// JACK's DSP load estimate, percent of the cycle.
    public var dspLoadPercent: Double
    public var xruns: Int
    /// Host time per cycle outside the program's render (ports, feeds, taps, meters), in microseconds.
    public var hostMicrosecondsPerCycle: Double
    /// Time per cycle inside the program's render (plugins and the plan's mixing), in microseconds.
    public var renderMicrosecondsPerCycle: Double
    public var programSwaps: Int
    /// Threads that render each cycle (the callback's included), and the
    /// tasks worker threads have run so far (0 with one thread, or a plan
    /// with no parallel branches).
    public var threads: Int = 1
    public var workerTasks: Int = 0
    public var outputs: [Output]
    /// The latest stopped takes (32 at most, `LiveTaps.stoppedListed`) and
    /// those recording; the closing status lists every take.
    public var taps: [Tap]
    /// Takes stopped before those `taps` lists; nil when it lists them all.
    public var earlierTakes: Int? = nil
    public var files: [FileSource]
    /// True once the server has gone away.
    public var serverShutDown: Bool
    /// The bounce under way, if any (live outputs are silent meanwhile).
    public var bounce: Bounce? = nil
    /// Every plugin node's input control values, by node and symbol, as last
    /// set (by the patch, a command, a preset or a MIDI controller).
    public var parameters: [String: [String: Float]] = [:]
    /// Every plugin node's message parameters (`patch:writable`: a file, a
    /// sample), by node and short name, as text: as last set, or as the
    /// plugin last reported them on its notify output.
    public var properties: [String: [String: String]] = [:]
    /// The tempo and transport plugins that take the host's time follow.
    public var transport: Transport? = nil
    /// OSC messages ignored so far (unreadable, unknown address, wrong
    /// argument types); nil when `fxhost run` has no `--osc` (left out of the JSON).
    public var oscIgnored: Int? = nil
    /// Web requests and WebSocket messages refused before they reached the
    /// session (unreadable JSON, an unknown command, too large, no token, a
    /// foreign Host or Origin); nil when `fxhost run` has no `--web`.
    public var webRefused: Int? = nil
    /// The engine crashes a supervised run met, oldest first (nil: none,
    /// or a run without a supervisor; left out of the JSON).
    public var crashes: [Crash]? = nil
    /// Nodes a crash left out (bypassed) until `restore` (nil: none).
    public var leftOut: [String]? = nil
    /// The scene last switched to (`scene`, a program change); nil: none yet.
    public var scene: String? = nil
    /// The setlist's patch playing, in a run of a setlist; nil otherwise.
    public var setlist: SetlistPosition? = nil

    /// A status with nothing in it, for a session no engine plays.
    package static let unavailable = LiveStatus(
        client: "", server: nil, sampleRate: 0, bufferFrames: 0, seconds: 0, dspLoadPercent: 0, xruns: 0,
        hostMicrosecondsPerCycle: 0, renderMicrosecondsPerCycle: 0, programSwaps: 0, outputs: [], taps: [], files: [],
        serverShutDown: false)

    /// Peak in dBFS from a linear value; nil for silence (JSON has no -infinity).
    package static func decibels(_ linear: Float) -> Double? {
        let decibels = Decibels.peak(fromLinear: Double(linear))
        return decibels > -.infinity ? decibels : nil
    }
}

extension JackClient {
    /// JACK's DSP load estimate in percent (0 once the client is closed).
    public var dspLoadPercent: Double {
        guard let handle = try? handle() else { return 0 }
        return Double(jack_cpu_load(handle))
    }
}
