import Foundation
import Glibc
import HostCore
import JackIO
import Synchronization

/// `fxhost run --watch`: follows the patch file and posts its new text to
/// the host's `ControlInbox` (source `.patchFile`), where the dispatcher
/// works out and applies the difference with the running graph (what the
/// session refuses is shown by the console, as every front end's refusals).
///
/// inotify watches the file's folder, not the file: editors that save by
/// writing a temporary file and renaming it over the patch replace the
/// file (a watch on it would follow the old one), while a plain write
/// modifies it in place; both name the patch in a folder event (events
/// naming other files, such as a tap recording beside the patch, are read
/// and ignored). A burst of events (an editor's truncate, writes, close,
/// rename) is taken as one change once none has named the patch for
/// `settleSeconds`. The text is
/// read here, off the run loop; a text equal to the last one posted is not
/// posted again.
package final class PatchFileWatcher: LiveFrontEnd, Sendable {
    package let path: String
    private let inbox = Mutex<ControlInbox?>(nil)
    private let descriptor: Int32
    /// The text the run loaded: a change is a text other than the last one.
    private let loadedText: String?
    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<PosixThread?>(nil)
    /// Quiet time that ends a burst of events.
    static let settleSeconds = 0.1

    /// Starts watching the folder at once, so no change made after this
    /// returns is missed.
    package init(path: String, loadedText: String?) throws(FrontEndError) {
        self.path = path
        self.loadedText = loadedText
        descriptor = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard descriptor >= 0 else {
            throw FrontEndError("--watch: cannot use inotify (\(String(cString: strerror(errno))))")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let events = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MODIFY) | UInt32(IN_CREATE)
        guard inotify_add_watch(descriptor, folder, events) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw FrontEndError("--watch: cannot watch the folder `\(folder)` (\(reason))")
        }
    }

    package func start(_ host: LiveHost) throws {
        inbox.withLock { $0 = host.inbox }
        let watcher = try PosixThread(name: "fxhost watch") { [self] in watch() }
        thread.withLock { $0 = watcher }
    }

    /// Ends the watching thread; after the loop.
    /// One never started (the run ended before it) still gives its descriptor back.
    deinit { stop() }

    package func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        thread.withLock { $0.take() }?.join()
        close(descriptor)
    }

    private func watch() {
        let name = URL(fileURLWithPath: path).lastPathComponent
        var lastPosted = loadedText
        while !stopping.load(ordering: .relaxed) {
            // Woken five times a second to see whether the run has ended.
            guard wait(seconds: 0.2), takeEvents(naming: name) else { continue }
            // The burst goes on while events naming the file keep coming
            // (other files in the folder, a tap being written, do not count).
            var lastEvent = Date()
            while Date().timeIntervalSince(lastEvent) < Self.settleSeconds {
                if wait(seconds: Self.settleSeconds - Date().timeIntervalSince(lastEvent)), takeEvents(naming: name) {
                    lastEvent = Date()
                }
            }
            // Unreadable (between an editor's unlink and rename): the next event brings it.
            guard let text = try? PatchFileReader.read(path: path), text != lastPosted else { continue }
            lastPosted = text
            inbox.withLock { $0 }?.post(.reload(text: text), from: .patchFile(path: path))
        }
    }

    /// Whether events are waiting, within `seconds`.
    private func wait(seconds: Double) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, Int32(max(1, seconds * 1000))) > 0
    }

    /// Reads the waiting events; whether one of them names the patch file.
    private func takeEvents(naming name: String) -> Bool {
        var named = false
        let capacity = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, capacity)
            guard count > 0 else { return named }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                if length > 0 {
                    let characters = (buffer + offset + header).assumingMemoryBound(to: CChar.self)
                    if String(cString: characters) == name { named = true }
                }
                offset += header + length
            }
        }
    }
}
