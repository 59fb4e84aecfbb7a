extension LiveStatus {
    /// Where a setlist run stands (`status --json`'s and `state`'s `setlist`):
    /// the patch playing, its place, and every patch's name in order.
    public struct SetlistPosition: Codable, Sendable, Equatable {
        /// The name of the patch playing.
        public var name: String
        /// Its place in the list, from 0.
        public var index: Int
        /// Every patch's name, in the setlist's order (names only: no paths).
        public var patches: [String]
        public var spilloverSeconds: Double

        package init(name: String, index: Int, patches: [String], spilloverSeconds: Double) {
            self.name = name
            self.index = index
            self.patches = patches
            self.spilloverSeconds = spilloverSeconds
        }
    }
}
