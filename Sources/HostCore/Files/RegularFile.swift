import CCoreShim
import Glibc

/// The one check that a path fxhost opens (a file source, a patch, a MIDI
/// file, an impulse response or sample, a tap target, a saved patch) is a
/// regular file.
///
/// Opening a FIFO blocks until its other end opens (`open(O_RDONLY)` waits
/// for a writer, `open(O_WRONLY)` for a reader, and libsndfile's `sf_open`
/// does the same), and a device or socket is no file to play or record. So
/// what the path is gets looked at first (`stat`, which never blocks), and
/// the file is then opened with `O_NONBLOCK` and looked at again on the
/// descriptor (`fstat`): a FIFO put in the file's place between the two
/// cannot hang the open either. Only then is `O_NONBLOCK` cleared and the
/// descriptor handed on.
package enum RegularFile {
    /// Opens `path` for reading: a regular file, or a symbolic link to one.
    /// Returns a blocking, close-on-exec descriptor that the caller closes.
    package static func openForReading(_ path: String) throws(RegularFileRefusal) -> Int32 {
        try refuseIfNotRegular(path, missingIsFine: false)
        return try finishOpening(path, Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC))
    }

    /// Opens `path` for writing, creating it (mode 0644 less the umask)
    /// when nothing is there; an existing path must be a regular file (or a
    /// symbolic link to one), and is emptied when `truncate` is set, after
    /// the check. Returns a blocking, close-on-exec descriptor that the
    /// caller closes.
    package static func openForWriting(_ path: String, truncate: Bool) throws(RegularFileRefusal) -> Int32 {
        try refuseIfNotRegular(path, missingIsFine: true)
        let descriptor = try finishOpening(path, Glibc.open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o644))
        if truncate {
            while ftruncate(descriptor, 0) != 0 {
                let code = errno
                if code == EINTR { continue }
                close(descriptor)
                throw RegularFileRefusal(path: path, reason: .system(code))
            }
        }
        return descriptor
    }

    /// Opens an existing take to write on at its end (a restarted engine
    /// continuing it): read and write, never created or truncated.
    /// Opens an existing regular file to write, creating nothing and
    /// following no symbolic link (a take another process created).
    package static func openExistingForWriting(_ path: String) throws(RegularFileRefusal) -> Int32 {
        try refuseIfNotRegular(path, missingIsFine: false)
        return try finishOpening(path, Glibc.open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC))
    }

    package static func openForContinuing(_ path: String) throws(RegularFileRefusal) -> Int32 {
        try refuseIfNotRegular(path, missingIsFine: false)
        return try finishOpening(path, Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC))
    }

    /// Creates a new file for a take, never opening anything already there:
    /// `path` itself when nothing is there, otherwise the next numbered name
    /// (`take.wav` → `take-2.wav`, `take-3.wav`, ...). Each name is created
    /// with `O_CREAT | O_EXCL` and the next is tried on `EEXIST`, so two
    /// writers (or another process) racing for a name never share a file,
    /// and a symbolic link in the way counts as taken. Returns a blocking,
    /// close-on-exec descriptor that the caller closes, and the path created.
    package static func createNewTake(_ path: String, attempts: Int = 10_000) throws(RegularFileRefusal) -> (descriptor: Int32, path: String) {
        // A FIFO, a device or a directory at `path` is refused as before,
        // with its sentence, rather than numbered around.
        try refuseIfNotRegular(path, missingIsFine: true)
        for number in 1...max(attempts, 1) {
            let candidate = TakeName.numbered(path, number)
            let descriptor = Glibc.open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_CLOEXEC, 0o644)
            if descriptor < 0 {
                let code = errno
                if code == EEXIST { continue }
                if code == EINTR { continue }
                throw RegularFileRefusal(path: candidate, code: code)
            }
            return (try finishOpening(candidate, descriptor), candidate)
        }
        throw RegularFileRefusal(path: path, reason: .system(EEXIST))
    }

    /// Renames `from` to `to` unless something is at `to` (a symbolic link
    /// counts), checked by the kernel as it renames, so nothing created
    /// after an earlier check is replaced. 0, or the errno (`EEXIST`: left alone).
    package static func renameWithoutReplacing(_ from: String, to: String) -> Int32 {
        fxhost_rename_noreplace(from, to) == 0 ? 0 : errno
    }

    /// Checks that `path` names a regular file (or a symbolic link to one)
    /// that this process can read, without keeping it open: for a path that
    /// something else opens (a plugin loading an impulse response).
    package static func requireReadable(_ path: String) throws(RegularFileRefusal) {
        close(try openForReading(path))
    }

    /// Checks that `path` names nothing, or a regular file (or a symbolic
    /// link to one): for a file about to be created or replaced.
    package static func requireReplaceable(_ path: String) throws(RegularFileRefusal) {
        try refuseIfNotRegular(path, missingIsFine: true)
    }

    /// Reads the whole of a regular file, at most `limit + 1` bytes, so a
    /// caller can tell a file over its limit.
    package static func read(_ path: String, limit: Int) throws(RegularFileRefusal) -> [UInt8] {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        var info = stat()
        let size = fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
        var bytes = [UInt8](repeating: 0, count: min(max(size, 0), limit) + 1)
        var count = 0
        while count <= limit {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - count))) }
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                let code = errno
                if code == EINTR { continue }
                throw RegularFileRefusal(path: path, reason: .system(code))
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Refuses what `path` names (following symbolic links) unless it is a
    /// regular file, or nothing at all when `missingIsFine`.
    private static func refuseIfNotRegular(_ path: String, missingIsFine: Bool) throws(RegularFileRefusal) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT && missingIsFine { return }
            throw RegularFileRefusal(path: path, code: code)
        }
        if let kind = RegularFileRefusal.Kind(mode: info.st_mode) {
            throw RegularFileRefusal(path: path, reason: .notRegular(kind))
        }
    }

    /// Checks what `open` (with `O_NONBLOCK`) returned on its descriptor
    /// and clears `O_NONBLOCK`.
    private static func finishOpening(_ path: String, _ descriptor: Int32) throws(RegularFileRefusal) -> Int32 {
        guard descriptor >= 0 else {
            let code = errno
            // ENXIO: a FIFO without a reader, or a socket; EISDIR: a directory.
            // Both came into the path's place after it was looked at; say what it is now.
            var info = stat()
            if code == ENXIO || code == EISDIR, stat(path, &info) == 0, let kind = RegularFileRefusal.Kind(mode: info.st_mode) {
                throw RegularFileRefusal(path: path, reason: .notRegular(kind))
            }
            throw RegularFileRefusal(path: path, code: code)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw RegularFileRefusal(path: path, code: code)
        }
        if let kind = RegularFileRefusal.Kind(mode: info.st_mode) {
            close(descriptor)
            throw RegularFileRefusal(path: path, reason: .notRegular(kind))
        }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            let code = errno
            close(descriptor)
            throw RegularFileRefusal(path: path, code: code)
        }
        return descriptor
    }
}

/// Why a path was not opened: it is not a regular file, it is a loop of
/// symbolic links, or the system said no (no such file, permission denied).
package struct RegularFileRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// What a path names instead of a regular file.
    package enum Kind: String, Equatable, Sendable {
        case fifo = "a FIFO"
        case directory = "a directory"
        case characterDevice = "a character device"
        case blockDevice = "a block device"
        case socket = "a socket"
        case other = "not a file"

        /// nil for a regular file.
        init?(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: return nil
            case S_IFIFO: self = .fifo
            case S_IFDIR: self = .directory
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            case S_IFSOCK: self = .socket
            default: self = .other
            }
        }
    }

    package enum Reason: Equatable, Sendable {
        case notRegular(Kind)
        case symbolicLinkLoop
        /// The system's refusal, by `errno` (ENOENT, EACCES, ...).
        case system(Int32)
    }

    package var path: String
    package var reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    init(path: String, code: Int32) {
        self.init(path: path, reason: code == ELOOP ? .symbolicLinkLoop : .system(code))
    }

    /// Nothing at the path (or a dangling symbolic link).
    package var isMissing: Bool { reason == .system(ENOENT) }
    /// The system's error message, for a `.system` reason.
    package var systemMessage: String? {
        guard case .system(let code) = reason else { return nil }
        return String(cString: strerror(code))
    }

    /// One sentence, without a final full stop, that names the path.
    package var description: String {
        if case .system(let code) = reason { return "`\(path)`: \(String(cString: strerror(code)))" }
        return "`\(path)` \(predicate)"
    }

    /// What the path is, for a sentence that has named it: "is a FIFO, not
    /// a regular file; fxhost reads and writes only regular files".
    package var predicate: String {
        switch reason {
        case .notRegular(.other):
            return "is not a regular file; fxhost reads and writes only regular files"
        case .notRegular(let kind):
            return "is \(kind.rawValue), not a regular file; fxhost reads and writes only regular files"
        case .symbolicLinkLoop:
            return "is a loop of symbolic links"
        case .system(let code):
            return "cannot be opened: \(String(cString: strerror(code)))"
        }
    }
}
