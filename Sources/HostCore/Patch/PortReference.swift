/// One end of a connection: `node`, `node:N` (channel, from 1) or `node:symbol`.
public struct PortReference: Sendable, Equatable, CustomStringConvertible {
    public var node: String
    public var port: PortSelector
    public var location: SourceLocation?

    public init(node: String, port: PortSelector = .all, location: SourceLocation? = nil) {
        self.node = node
        self.port = port
        self.location = location
    }

    public var description: String {
        switch port {
        case .all: return node
        case .channel(let channel): return "\(node):\(channel)"
        case .symbol(let symbol): return "\(node):\(symbol)"
        }
    }
}
