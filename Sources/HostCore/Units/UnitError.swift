/// A unit refused a request. The message is one sentence without location;
/// the caller adds where the request came from.
public struct UnitError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var suggestion: String?

    public init(_ message: String, suggestion: String? = nil) {
        self.message = message
        self.suggestion = suggestion
    }

    public var description: String { suggestion.map { "\(message) (\($0))" } ?? message }
}
