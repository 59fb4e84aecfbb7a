import CJack

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

    package var serverName: String? { client.serverName }
}
