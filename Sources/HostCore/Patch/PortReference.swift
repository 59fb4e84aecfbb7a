/// One end of a connection: `node`, `node:N` (channel, from 1) or `node:symbol`.
package struct PortReference: Sendable, Equatable, CustomStringConvertible, Codable {
    package var node: String
    package var port: PortSelector
    package var location: SourceLocation?

    package init(node: String, port: PortSelector = .all, location: SourceLocation? = nil) {
        self.node = node
        self.port = port
        self.location = location
    }

    package var description: String {
        switch port {
        case .all: return node
        case .channel(let channel): return "\(node):\(channel)"
        case .symbol(let symbol): return "\(node):\(symbol)"
        }
    }
}
