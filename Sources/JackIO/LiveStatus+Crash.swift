extension LiveStatus {
    /// One crash of a supervised engine (a plugin that crashed or hung the
    /// process playing it), and what the supervisor did about it.
    public struct Crash: Codable, Sendable, Equatable {
        /// The node that crashed; nil when none could be named.
        public var node: String?
        public var plugin: String?
        /// The plugin call: "run()", "instantiate()", "the worker's work()"…
        public var call: String?
        /// "SIGSEGV", "SIGKILL", "hang"…
        public var signal: String
        /// Seconds into the run.
        public var atSeconds: Double
        /// Seconds from the crash until the restarted engine played; nil: it was not restarted.
        public var restartSeconds: Double?
        /// The node is left out (bypassed) until `restore`.
        public var leftOut: Bool
        /// What every front end was told, in one sentence.
        public var sentence: String
        /// The nodes whose own plugin state the restarted engine took from a
        /// snapshot, and how old each was; nil: none.
        public var restoredState: [RestoredState]?

        /// One node's plugin state as the last snapshot before the crash had it.
        public struct RestoredState: Codable, Sendable, Equatable {
            public var node: String
            /// Seconds from the snapshot until the restarted engine restored it.
            public var ageSeconds: Double

            public init(node: String, ageSeconds: Double) {
                self.node = node
                self.ageSeconds = ageSeconds
            }
        }

        public init(node: String?, plugin: String?, call: String?, signal: String, atSeconds: Double,
                    restartSeconds: Double?, leftOut: Bool, sentence: String) {
            self.node = node
            self.plugin = plugin
            self.call = call
            self.signal = signal
            self.atSeconds = atSeconds
            self.restartSeconds = restartSeconds
            self.leftOut = leftOut
            self.sentence = sentence
        }
    }
}
