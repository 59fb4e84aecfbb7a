/// A `save` ready to be written: the running state's text and the file it
/// goes to. The engine composes it (it holds the session); whoever owns the
/// patch file writes it: the same process in a run without a supervisor,
/// the supervisor otherwise, so a save never depends on the engine's
/// process surviving the write.
package struct PatchSaveDraft: Codable, Sendable, Equatable {
    /// The file, absolute (a symbolic link there is written through).
    package var target: String
    package var text: String
    /// Whether a file that appears at `target` meanwhile is replaced.
    package var replacing: Bool

    package init(target: String, text: String, replacing: Bool) {
        self.target = target
        self.text = text
        self.replacing = replacing
    }

    /// Writes `text` over `target` atomically (`LivePatchFile.writeAtomically`).
    package func write() throws(LivePatchFileError) {
        try LivePatchFile.writeAtomically(text, to: LivePatchFile.realPath(target), replacing: replacing)
    }
}
