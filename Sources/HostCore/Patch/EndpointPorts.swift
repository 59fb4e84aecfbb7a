/// Ports of a live input or output, or just how many channels it has.
package enum EndpointPorts: Sendable, Equatable {
    case ports([String])
    /// A channel count; `asWideAsInput` for an output that takes the width of
    /// what feeds it (command-line chains; patch files always give a count).
    case channels(Int)

    package static let asWideAsInput = 0

    package var channelCount: Int {
        switch self {
        case .ports(let ports): return ports.count
        case .channels(let count): return count
        }
    }
}
