import JackIO
import Foundation
import HostCore

/// The patch file a live run plays, kept in step with the session: `save`
/// writes the running state into it (LivePatchFile+Save), `--watch` brings
/// its edits into the running graph (LivePatchFile+Reload). Holds the patch
/// the running graph was last built or reloaded from, and its text, which
/// `save` edits in place so comments and layout survive.
///
/// Used on the thread that owns the session (through `ControlDispatcher`):
/// it makes units, which only that thread may do.
package final class LivePatchFile {
    /// Makes a plugin node's unit by the name a patch gives it (the run's
    /// `UnitProvider`): `--watch` needs one for plugin nodes added to the file.
    package typealias UnitMaker = (String) throws(UnitError) -> any ProcessingUnit

    /// The file, absolute; nil for a `--chain` run (then `save` needs a file).
    /// A setlist's switch makes it the new patch's.
    package private(set) var path: String?
    /// What the running graph was built from, as last loaded, reloaded or saved.
    package private(set) var patch: Patch
    /// `path`'s text as last read or written; nil for a `--chain` run.
    package private(set) var text: String?
    let makeUnit: UnitMaker
    /// The place for sections the session keeps beside the graph, which this
    /// type does not know (MIDI maps, scenes): each is asked for its section
    /// at every save, and the section is written as given (replacing the
    /// file's section of that key, or added at the end). nil: none.
    package var extraSections: [() -> PatchSection?] = []
    /// Nodes a crash left out (played bypassed until `restore`), each with
    /// the bypass its user gave it: that is what is saved, and what the next
    /// restart starts from, so a crash never writes itself into the file.
    package var leftOut: [String: Bool] = [:]

    package init(path: String?, patch: Patch, text: String?, makeUnit: @escaping UnitMaker) {
        self.path = path.map(Self.absolute)
        self.patch = patch
        self.text = text
        self.makeUnit = makeUnit
    }

    /// After a save over the file or a reload of it (or a switch to another: `path`).
    func remember(_ patch: Patch, text: String, path: String? = nil) {
        self.patch = patch
        self.text = text
        if let path { self.path = Self.absolute(path) }
    }

    var folder: String? { path.map(Self.folder(of:)) }

    static func folder(of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL.path
    }

    /// A file itself, symbolic links resolved: `save` renames over the file
    /// a link leads to (not the link), and `--watch` watches its folder.
    package static func realPath(_ path: String) -> String {
        URL(fileURLWithPath: absolute(path)).resolvingSymlinksInPath().path
    }
}
