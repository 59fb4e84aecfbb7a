import HostCore

/// One file handed to a worker, as a JSON line on its stdin.
struct BatchWorkerAssignment: Codable {
    /// The file's index in the batch (from 0), echoed in the worker's reports.
    var index: Int
    var item: BatchPlan.Item
}
