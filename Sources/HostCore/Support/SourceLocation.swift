/// A place in a patch file, for error messages (`file:line:column`, 1-based).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible, Codable {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}
