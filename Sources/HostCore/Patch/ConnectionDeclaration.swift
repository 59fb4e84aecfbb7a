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
