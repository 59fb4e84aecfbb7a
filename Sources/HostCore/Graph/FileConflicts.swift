import Foundation

/// Files a render writes (outputs, taps) and reads (file sources, `-i`
/// inputs). Two writers of one file would interleave their blocks in it, and
/// writing a file that is being played destroys the source: both are refused
/// before anything is opened.
public enum FileConflicts {
    public struct Use {
        /// "the tap on `drive`", "output `out`", "file source `vox`".
        public var owner: String
        public var path: String
        public var writes: Bool
        public var location: SourceLocation?

        public init(owner: String, path: String, writes: Bool, location: SourceLocation? = nil) {
            self.owner = owner
            self.path = path
            self.writes = writes
            self.location = location
        }
    }

    /// The first conflict among `uses`, as a sentence and where it was declared.
    public static func first(in uses: [Use]) -> (message: String, location: SourceLocation?)? {
        var seen: [String: Use] = [:]
        for use in uses {
            let key = URL(fileURLWithPath: use.path).standardizedFileURL.resolvingSymlinksInPath().path
            guard let earlier = seen[key] else {
                seen[key] = use
                continue
            }
            switch (earlier.writes, use.writes) {
            case (true, true):
                return ("\(earlier.owner) and \(use.owner) would both write `\(use.path)`; give each its own file",
                        use.location ?? earlier.location)
            case (true, false), (false, true):
                let writer = earlier.writes ? earlier : use, reader = earlier.writes ? use : earlier
                return ("\(writer.owner) would overwrite `\(use.path)`, which \(reader.owner) plays; record to another file",
                        writer.location ?? reader.location)
            case (false, false):
                continue // reading one file twice is fine
            }
        }
        return nil
    }
}
