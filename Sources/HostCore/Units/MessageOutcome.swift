/// What a unit's plugin made of the messages and files it was sent, as far
/// as it has said: whether it is still busy with them (messages not yet
/// taken, work not yet done) and how many of its jobs failed so far, with
/// the last warning it logged. A host compares two of these, taken before
/// and after sending, to tell a value the plugin could not apply.
public struct MessageOutcome: Sendable, Equatable {
    public var busy: Bool
    public var failures: Int
    public var problemsLogged: Int
    public var lastProblem: String?

    public init(busy: Bool = false, failures: Int = 0, problemsLogged: Int = 0, lastProblem: String? = nil) {
        self.busy = busy
        self.failures = failures
        self.problemsLogged = problemsLogged
        self.lastProblem = lastProblem
    }

    /// The plugin's own words for what went wrong since `earlier`, when it
    /// logged any.
    public func reason(since earlier: MessageOutcome) -> String? {
        problemsLogged > earlier.problemsLogged ? lastProblem : nil
    }
}
