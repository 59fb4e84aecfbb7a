import CJack
import Glibc
import HostCore
import Synchronization

/// A JACK client that renders nothing, held by the process that runs a
/// freewheel render in a child process, to take the server out of freewheel
/// if the child dies while it freewheels.
///
/// jackd2 cannot drop a client that dies while the server freewheels: it
/// plays no cycle again, refuses new clients (so `jack_freewheel n` cannot
/// help either), and stays so until a client that was already connected
/// switches freewheel off, which it does once its timeouts have passed
/// (measured on jackd2 1.9.21: 8.5 s). This is that client: open it before
/// the render starts.
package final class FreewheelKeeper {
    private let client: JackClient

    /// Joins the server named `server` (nil: the default one); never starts one.
    package init(server: String?) throws(JackError) {
        client = try JackClient(name: "fxhost-keeper", server: server)
    }

    /// Switches freewheel off: nothing happens when it is off already; after
    /// a freewheeling client died, it returns once the server plays again.
    /// False when the server refused.
    package func leaveFreewheel() -> Bool {
        guard let handle = try? client.handle() else { return false }
        return jack_set_freewheel(handle, 0) == 0
    }

    /// `leaveFreewheel`, then the client closed, with `beat` called about
    /// every 0.1 s meanwhile: after a crash jackd2 takes seconds for each
    /// (measured: 8 to 14 s to leave the freewheel, 8 s more to close), and
    /// the caller's thread must stay alive to whoever watches it
    /// (systemd's watchdog). Both run on a thread of their own, joined
    /// before this returns; the keeper is closed after.
    package func leaveFreewheelAndClose(beating beat: () -> Void) -> Bool {
        let outcome = Mutex<Bool?>(nil)
        let thread: PosixThread
        do {
            thread = try PosixThread(name: "fxhost_keeper") { [self] in
                let left = leaveFreewheel()
                client.close()
                outcome.withLock { $0 = left }
            }
        } catch {
            defer { client.close() }  // no thread to spare: wait here, without beats
            return leaveFreewheel()
        }
        while true {
            if let left = outcome.withLock({ $0 }) {
                thread.join()
                return left
            }
            beat()
            usleep(100_000)
        }
    }

    package var serverName: String? { client.serverName }
}
