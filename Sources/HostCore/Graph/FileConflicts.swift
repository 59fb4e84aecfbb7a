import Foundation

/// Files a render writes (live taps, bounces, outputs, taps) and reads (file
/// sources, `-i` inputs). Two writers of one file would interleave their
/// blocks in it, and writing a file that is being played destroys the
/// source: both are refused before anything is opened.
///
/// The one place conflict lists are made: the compiler, a render job
/// and a live bounce each fill in what they know, and messages name every
/// side the same way whoever checks.
package struct FileConflicts {
    /// Files live taps record now (a bounce must not write them).
    package var liveTaps: [String] = []
    /// Files a live bounce writes, by output node.
    package var bounces: [(node: String, path: String)] = []
    /// Files a render writes, by output node.
    package var outputs: [(node: String, path: String)] = []
    package var taps: [(node: String, path: String, location: SourceLocation?)] = []
    /// Files played: a file source's, or the file fed to a live input (`isInput`).
    package var sources: [(node: String, path: String, isInput: Bool, location: SourceLocation?)] = []

    package init() {}

    /// The graph's own files: its taps and the files its sources play.
    package init(of graph: AudioGraph) {
        taps = graph.taps.map { ($0.node, $0.file, $0.location) }
        for node in graph.nodes {
            if case .filePlayer(let file) = node.kind { sources.append((node.name, file.path, false, node.location)) }
        }
    }

    /// The first conflict, as a sentence and where it was declared. Uses are
    /// compared in the order above, so the later of two is the one blamed.
    package var first: (message: String, location: SourceLocation?)? {
        Self.first(in: uses)
    }

    private var uses: [Use] {
        liveTaps.map { Use(owner: "a live tap", path: $0, writes: true) }
            + bounces.map { Use(owner: "the bounce of `\($0.node)`", path: $0.path, writes: true) }
            + outputs.map { Use(owner: "output `\($0.node)`", path: $0.path, writes: true) }
            + taps.map { Use(owner: "the tap on `\($0.node)`", path: $0.path, writes: true, location: $0.location) }
            + sources.map {
                Use(owner: $0.isInput ? "the file for input `\($0.node)`" : "file source `\($0.node)`",
                    path: $0.path, writes: false, location: $0.location)
            }
    }

    private struct Use {
        /// "the tap on `drive`", "output `out`", "file source `vox`".
        var owner: String
        var path: String
        var writes: Bool
        var location: SourceLocation?
    }

    private static func first(in uses: [Use]) -> (message: String, location: SourceLocation?)? {
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
