import HostCore
import LiveControl

/// What a batch did, file by file, for the closing summary and `--json`.
struct BatchSummary: Encodable {
    /// One file of the batch and what became of it.
    struct File: Encodable {
        var number: Int
        var input: String
        var outputs: [String]
        /// Seconds of sound written (with the tail), when it rendered.
        var durationSeconds: Double?
        /// The render's own summary (as `render --json` prints it), when it rendered.
        var render: RenderSummary?
        /// Why it did not render: one sentence.
        var error: String?
        /// The worker rendering it died (a plugin's crash): true, or left out.
        var crashed: Bool?
    }

    var jobs: Int
    var elapsedSeconds: Double
    var rendered: Int
    var failed: Int
    /// Of the failed files, those whose worker died.
    var crashed: Int
    /// SIGINT or SIGTERM stopped the batch: the files it had not finished were not kept.
    var interruptedBy: Int32?
    var files: [File]

    init(jobs: Int, elapsedSeconds: Double, interruptedBy: Int32?, files: [File]) {
        self.jobs = jobs
        self.elapsedSeconds = elapsedSeconds
        self.interruptedBy = interruptedBy
        self.files = files
        rendered = files.filter { $0.error == nil }.count
        failed = files.count - rendered
        crashed = files.filter { $0.crashed == true }.count
    }
}
