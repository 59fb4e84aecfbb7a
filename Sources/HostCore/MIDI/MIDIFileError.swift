/// A Standard MIDI File fxhost cannot read, said as one sentence with the
/// file and where in it the trouble is.
public struct MIDIFileError: Error, Equatable, CustomStringConvertible {
    public var path: String
    /// From the start of the file; nil for the file as a whole.
    public var byteOffset: Int?
    public var reason: String

    package init(path: String, byteOffset: Int? = nil, _ reason: String) {
        self.path = path
        self.byteOffset = byteOffset
        self.reason = reason
    }

    public var description: String {
        if let byteOffset { return "\(path): byte \(byteOffset): \(reason)" }
        return "\(path): \(reason)"
    }
}
