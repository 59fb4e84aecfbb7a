import HostCore

/// One line a batch worker writes on its protocol descriptor, as JSON: that
/// it is ready for files, how far it has come through one, or what became
/// of it (its render's summary or the error sentence). The parent reads
/// these as input from outside: a line it cannot read, or one about a file
/// the worker was not given, counts as the worker's crash.
struct BatchWorkerMessage: Codable {
    /// The worker parsed its arguments and waits for files.
    var ready: Bool?
    /// The file's index in the batch (from 0), as the parent gave it.
    var index: Int?
    /// How far through the file, 0…1.
    var progress: Double?
    /// The file rendered: the summary `render --json` would print.
    var render: RenderSummary?
    /// The file failed to render: one sentence.
    var error: String?

    static let ready = BatchWorkerMessage(ready: true)
}

/// One file handed to a worker, as a JSON line on its stdin.
struct BatchWorkerAssignment: Codable {
    /// The file's index in the batch (from 0), echoed in the worker's reports.
    var index: Int
    var item: BatchPlan.Item
}
