import CCoreShim
import Glibc

/// Called by: control threads, to start and join; never the realtime thread.
///
/// The one way the host starts a thread of its own (tap writers, file-feed
/// disk threads, LV2 workers): a POSIX thread running a closure, named for
/// `top -H` and debuggers. POSIX rather than Foundation's `Thread` because
/// its owner must join it before freeing what it uses, and `Thread` cannot be
/// joined. A handle: call `join()` or `detach()` exactly once.
package struct PosixThread {
    private let handle: pthread_t

    /// Starts `body` on a new thread called `name` (Linux keeps its first 15 bytes).
    package init(name: String, body: @escaping () -> Void) throws(PosixThreadError) {
        let context = ThreadEntry.context(name: name, body: body)
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, ThreadEntry.routine, context)
        guard status == 0 else {
            ThreadEntry.release(context)
            throw PosixThreadError(name: name, code: status)
        }
        self.handle = handle
    }

    /// Waits for the body to return.
    package func join() {
        pthread_join(handle, nil)
    }

    /// Lets the thread free itself when the body returns, for threads whose
    /// owner waits for a result instead (a bounce) or never waits (the
    /// console reader, blocked in a read until stdin ends).
    package func detach() {
        pthread_detach(handle)
    }
}

/// A thread's body, boxed for a C function that starts threads
/// (`pthread_create`, JACK's `jack_client_create_thread`): hand it
/// `routine` and `context`; the routine names the thread, runs the body and
/// frees the box. If the thread could not be started, `release(context)`.
package enum ThreadEntry {
    package static func context(name: String, body: @escaping () -> Void) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(ThreadBody(name: name, run: body)).toOpaque()
    }

    package static let routine: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
        fxhost_name_this_thread(body.name)
        // Its own alternate signal stack, so the crash handler (CrashReport)
        // runs even when this thread overflows its stack.
        let signalStack = fxhost_crash_thread_begin()
        body.run()
        fxhost_crash_thread_end(signalStack)
        return nil
    }

    package static func release(_ context: UnsafeMutableRawPointer) {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
    }
}

/// What a thread runs, boxed to cross the C boundary.
private final class ThreadBody {
    let name: String
    let run: () -> Void

    init(name: String, run: @escaping () -> Void) {
        self.name = name
        self.run = run
    }
}

/// pthread_create refused (no memory, thread limit reached).
package struct PosixThreadError: Error, CustomStringConvertible {
    package let name: String
    package let code: Int32

    package var reason: String { String(cString: strerror(code)) }
    package var description: String { "could not start the thread `\(name)`: \(reason)" }
}
