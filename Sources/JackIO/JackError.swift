/// What went wrong talking to a JACK server, in one sentence.
public enum JackError: Error, Equatable, CustomStringConvertible {
    /// `server` is nil for the default server.
    case noServer(server: String?)
    case openFailed(client: String, server: String?, status: UInt32)
    case portRegistrationFailed(port: String)
    case noPortMatches(pattern: String, wantedInputs: Bool)
    case ambiguousConnection(from: String, sourceCount: Int, to: String, destinationCount: Int)
    case connectFailed(source: String, destination: String, code: Int32)
    case callbackSetupFailed(callback: String)
    case activateFailed(client: String, code: Int32)
    case clientClosed(client: String)
    /// A render worker thread could not be started (`jack_client_create_thread`).
    case threadFailed(name: String, code: Int32)

    public var description: String {
        switch self {
        case .noServer(let server):
            if let server { return "no JACK server named `\(server)` is running (fxhost never starts one by itself)" }
            return "no default JACK server is running (fxhost never starts one by itself)"
        case .openFailed(let client, let server, let status):
            let place = server.map { "server `\($0)`" } ?? "the default server"
            return "could not open JACK client `\(client)` on \(place) (jack_status_t 0x\(String(status, radix: 16)))"
        case .portRegistrationFailed(let port):
            return "JACK refused to register port `\(port)` (a duplicate name, or a name too long)"
        case .noPortMatches(let pattern, let wantedInputs):
            return "no JACK \(wantedInputs ? "input" : "output") port matches `\(pattern)`"
        case .ambiguousConnection(let from, let sourceCount, let to, let destinationCount):
            return "cannot pair \(sourceCount) ports matching `\(from)` with \(destinationCount) ports matching `\(to)`; name them one by one"
        case .connectFailed(let source, let destination, let code):
            return "JACK could not connect `\(source)` to `\(destination)` (error \(code))"
        case .callbackSetupFailed(let callback):
            return "JACK refused the \(callback) callback"
        case .activateFailed(let client, let code):
            return "JACK could not activate client `\(client)` (error \(code))"
        case .clientClosed(let client):
            return "JACK client `\(client)` is already closed"
        case .threadFailed(let name, let code):
            return "JACK could not start the render thread `\(name)` (error \(code)); run with fewer threads (--threads 1 uses none)"
        }
    }
}
