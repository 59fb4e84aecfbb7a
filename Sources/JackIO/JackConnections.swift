/// Every connection of one client's ports, by full port name (output, then
/// input), as the server had them: what a supervisor keeps so a restarted
/// engine's ports come back connected as they were, whoever made them.
package struct JackConnections: Codable, Sendable, Equatable {
    package struct Connection: Codable, Sendable, Equatable, Hashable {
        package var source: String
        package var destination: String

        package init(source: String, destination: String) {
            self.source = source
            self.destination = destination
        }
    }

    /// The client's name when they were read: its own ports are named after it.
    package var client: String
    package var connections: [Connection]

    package init(client: String, connections: [Connection]) {
        self.client = client
        self.connections = connections
    }

    /// The same connections for a client named `name` (a restarted engine
    /// may be given another name by the server).
    package func renamed(to name: String) -> JackConnections {
        guard name != client else { return self }
        let prefix = client + ":"
        func rename(_ port: String) -> String { port.hasPrefix(prefix) ? name + ":" + port.dropFirst(prefix.count) : port }
        return JackConnections(client: name, connections: connections.map {
            Connection(source: rename($0.source), destination: rename($0.destination))
        })
    }
}
