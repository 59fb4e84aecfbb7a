/// The session's JACK connections as a whole, whoever made them (the patch,
/// `jack_connect`, a patchbay): read when the server says one changed, and
/// remade as they were by an engine restarted after a crash. Control thread.
extension LiveSession {
    /// True if a connection in the server changed since the last call (the
    /// port-connect callback's flag; it also wakes the host's loop).
    package func takeConnectionChange() -> Bool { engine.takeConnectionChange() }

    /// Every connection of the session's ports, as the server has them now.
    package var portConnections: JackConnections { client.connectionsOfOwnPorts() }

    /// Makes the session's ports connected exactly as `saved` lists them
    /// (named after the client that read them): what is not listed is
    /// broken, what is listed is made. A port of another client that is
    /// gone is skipped; returns those connections.
    @discardableResult
    package func remakeConnections(_ saved: JackConnections) -> [JackConnections.Connection] {
        let wanted = saved.renamed(to: client.name).connections
        for connection in portConnections.connections where !wanted.contains(connection) {
            client.disconnectExactly(connection.source, from: connection.destination)
        }
        return wanted.filter { !client.connectExactly($0.source, to: $0.destination) }
    }
}
