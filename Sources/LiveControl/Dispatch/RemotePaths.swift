import Foundation
import HostCore

/// The one check of a path a remote front end (OSC, and JSON over OSC)
/// names: a tap or bounce file, a saved patch, a message parameter's file.
/// A remote peer is any local process, so it may only name files inside
/// one folder (the patch's, or `fxhost run --files DIR`): relative, no
/// `..`, no symbolic link leading out, and only the extensions the command
/// writes (or, for a message parameter, an audio file). The console is the
/// user's own and is not confined.
package struct RemotePaths: Sendable {
    /// What a path is for, which decides the extensions allowed.
    package enum Use: Sendable {
        /// A live tap or a bounce: an audio file fxhost writes.
        case audioWritten
        /// A saved patch: `.yaml` or `.yml`.
        case patch
        /// A file a plugin reads (an impulse response, a sample).
        case audioRead

        package var extensions: [String] {
            switch self {
            case .audioWritten: return AudioFileFormat.acceptedExtensions
            case .patch: return [".yaml", ".yml"]
            case .audioRead: return AudioFileFormat.acceptedExtensions + [".aif", ".aiff", ".caf", ".w64"]
            }
        }

        var what: String {
            switch self {
            case .audioWritten: return "an audio file fxhost writes"
            case .patch: return "a patch"
            case .audioRead: return "an audio file"
            }
        }
    }

    /// The folder remote paths are confined to, absolute.
    package let folder: String

    package init(folder: String) {
        self.folder = folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder
    }

    /// `path` resolved inside the folder, or one sentence naming the rule it breaks.
    package func resolve(_ path: String, for use: Use) -> Result<String, RemotePathRefusal> {
        func refuse(_ rule: String) -> Result<String, RemotePathRefusal> {
            .failure(RemotePathRefusal(sentence: "`\(path)` is refused: \(rule)"))
        }
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~") else {
            return refuse("a remote front end names files relative to \(folder), not absolute paths")
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.contains("..") else {
            return refuse("a remote front end may not use `..` to leave \(folder)")
        }
        let lowered = path.lowercased()
        guard use.extensions.contains(where: { lowered.hasSuffix($0) }) else {
            return refuse("this command takes \(use.what) (" + use.extensions.joined(separator: " ") + ") from a remote front end")
        }
        let full = folder + "/" + components.joined(separator: "/")
        // Symbolic links: the deepest part of the path that exists, resolved,
        // must still lie inside the folder (resolved too).
        let root = Self.realPath(folder) ?? folder
        var existing = full
        while Self.lexists(existing) == false, existing.count > folder.count {
            existing = (existing as NSString).deletingLastPathComponent
        }
        guard let resolved = Self.realPath(existing) else {
            // A dangling symbolic link: where it leads cannot be checked.
            return refuse("it is a symbolic link whose target cannot be checked")
        }
        guard resolved == root || resolved.hasPrefix(root == "/" ? "/" : root + "/") else {
            return refuse("a symbolic link in it leads out of \(folder)")
        }
        return .success(full)
    }

    private static func lexists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// A remote path refused, in one sentence that names the rule.
package struct RemotePathRefusal: Error, CustomStringConvertible, Sendable {
    package var sentence: String
    package var description: String { sentence }
}
