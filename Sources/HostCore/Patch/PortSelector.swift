/// Which of a node's channels a `PortReference` means.
public enum PortSelector: Sendable, Equatable, Codable {
    /// Every channel, matched in order.
    case all
    /// One channel, counted from 1.
    case channel(Int)
    /// An LV2 audio port by symbol.
    case symbol(String)
}
