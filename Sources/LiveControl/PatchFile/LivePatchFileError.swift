import JackIO
import HostCore

/// Why `save` wrote nothing: one sentence a user can act on. The file, if
/// there was one, is as it was.
package enum LivePatchFileError: Error, CustomStringConvertible, UserFacingError {
    /// `save` without a file in a run that loaded none (`--chain`).
    case saveNeedsFile
    /// The patch could not be written (`reason`: what failed, and why).
    case save(path: String, reason: String)
    /// The path names a FIFO, a device, a socket or a directory (or a loop
    /// of symbolic links), not a regular file to replace.
    case notRegularFile(RegularFileRefusal)

    package var description: String {
        switch self {
        case .saveNeedsFile:
            return "this run plays a --chain, not a patch file, so `save` needs a file to write: `save FILE.yaml`"
        case .save(let path, let reason):
            return "cannot save the patch to `\(path)`: \(reason); the file is as it was"
        case .notRegularFile(let refusal):
            return "cannot save the patch: \(refusal.description)"
        }
    }
}
