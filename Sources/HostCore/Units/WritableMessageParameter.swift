/// A message parameter the host may set (LV2 `patch:writable`), as a
/// surface lists it before any value is set: its short name and what
/// kind of value it takes, so a page can offer a file menu or a number.
public struct WritableMessageParameter: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A file (`atom:Path`): an impulse response, a sample.
        case path
        /// A float, double, int or long.
        case number
        /// A string or a URI.
        case text
        /// Anything else (a bool, a vector, no range given).
        case other
    }

    public var name: String
    public var kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }
}
