import CSndFile
import Foundation
import Glibc
import Synchronization

/// Opens files through libsndfile one at a time.
///
/// libsndfile reports why `sf_open` failed through a process-wide variable
/// (`sf_strerror(NULL)`), so opening and reading that reason must be one
/// critical section. The lock guards that C global, not state of ours: it is
/// a private static because the thing it protects is process-wide too.
enum SndFileOpen {
    private static let lock = Mutex(())

    /// `sf_open_fd` on a descriptor `RegularFile` opened, returning the
    /// handle or libsndfile's reason for failing. libsndfile never closes
    /// the descriptor: its opener closes it after `sf_close`, or at once
    /// on failure.
    static func open(descriptor: Int32, mode: Int32, info: inout SF_INFO) -> Result<OpaquePointer, SndFileReason> {
        lock.withLock { _ in
            if let file = sf_open_fd(descriptor, mode, &info, 0) { return .success(file) }
            return .failure(SndFileReason(String(cString: sf_strerror(nil))))
        }
    }

    /// libsndfile's message for an open handle's last error.
    static func reason(_ file: OpaquePointer) -> String {
        String(cString: sf_strerror(file))
    }
}

/// libsndfile's own words for a failure, tidied for use inside a sentence.
struct SndFileReason: Error {
    let text: String

    init(_ raw: String) {
        var text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        // "System error : Permission denied." → "Permission denied"
        for prefix in ["System error :", "Error :"] where text.hasPrefix(prefix) {
            text = String(text.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
        }
        while text.hasSuffix(".") { text.removeLast() }
        self.text = text
    }
}

extension SndFileReason {
    /// Why a write failed, in plain words for the system errors a disk
    /// gives ("disk full" for ENOSPC, "file too large" for EFBIG, which a
    /// file size limit gives too); libsndfile's own words for anything else.
    /// libsndfile reports a system error as the C library's message for it,
    /// so that is what is matched.
    var whenWriting: String {
        for (code, words) in Self.writeErrors where text == String(cString: strerror(code)) { return words }
        return text
    }

    private static let writeErrors: [(Int32, String)] = [
        (ENOSPC, "disk full"), (EDQUOT, "disk quota exceeded"), (EFBIG, "file too large"),
        (EIO, "input/output error"), (EROFS, "read-only file system"),
    ]
}
