import CJack
import HostCore
import Glibc
import Synchronization

/// Why a program or command was not accepted.
public enum LiveEngineError: Error, Equatable, CustomStringConvertible {
    case portCountMismatch(ports: Int, buffers: Int, inputs: Bool)
    case invalidBlockSize(Int)
    case commandQueueFull(capacity: Int)

    public var description: String {
        switch self {
        case .portCountMismatch(let ports, let buffers, let inputs):
            let side = inputs ? "input" : "output"
            return "the program has \(buffers) \(side) buffers but the engine has \(ports) JACK \(side) ports"
        case .invalidBlockSize(let frames):
            return "a live program needs a block size of at least 1 frame, not \(frames)"
        case .commandQueueFull(let capacity):
            return "the realtime command queue is full (\(capacity) commands waiting); is the JACK client running?"
        }
    }
}
