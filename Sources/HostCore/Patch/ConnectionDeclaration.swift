/// One connection (from `chain` or `connect`), with its gain in dB.
package struct ConnectionDeclaration: Sendable, Equatable {
    package var from: PortReference
    package var to: PortReference
    package var gainDecibels: Double
    package var location: SourceLocation?

    package init(from: PortReference, to: PortReference, gainDecibels: Double = 0, location: SourceLocation? = nil) {
        self.from = from
        self.to = to
        self.gainDecibels = gainDecibels
        self.location = location
    }
}

extension ConnectionDeclaration {
    /// The refusal of a connection that repeats one already made between the
    /// same two ports: two of them would be summed, a silent +6 dB.
    package static func repeated(from: PortReference, to: PortReference, earlier: SourceLocation?) -> String {
        "`\(from.description) -> \(to.description)` is already connected" + (earlier.map { " on line \($0.line)" } ?? "")
    }

    /// Refuses the first connection in `connections` that repeats an earlier
    /// one, at its own place.
    package static func refuseRepeats(_ connections: [ConnectionDeclaration]) throws(GraphError) {
        // Keyed by the ends as written (`a:1 -> b`): linear in the number of connections.
        var earlier: [String: SourceLocation?] = [:]
        for connection in connections {
            let key = "\(connection.from.description) -> \(connection.to.description)"
            if let location = earlier[key] {
                throw GraphError(repeated(from: connection.from, to: connection.to, earlier: location), at: connection.location)
            }
            earlier[key] = connection.location
        }
    }
}
