import Foundation

/// The server a test plays `fxhost run` on: a private jackd, joined with
/// `--server NAME`, or a private PipeWire, joined through `pw-jack` as its
/// default server (its runtime folder is the test's own).
enum LiveServer {
    case jack(JackServerProcess)
    case pipeWire(PipeWireServer)

    /// Frames per cycle when the run starts.
    var bufferFrames: Int {
        switch self {
        case .jack(let server): return server.bufferFrames
        case .pipeWire: return PipeWireServer.defaultQuantum
        }
    }
}

extension LiveRun {
    /// `fxhost ARGUMENTS` on `server`.
    convenience init(_ arguments: [String], on server: LiveServer, console: Bool = false,
                     environment: [String: String] = [:]) throws {
        switch server {
        case .jack(let jack):
            try self.init(arguments + ["--server", jack.name], console: console, environment: environment)
        case .pipeWire(let pipeWire):
            try self.init(arguments, console: console, environment: environment, on: pipeWire)
        }
    }
}
