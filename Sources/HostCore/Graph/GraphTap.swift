public struct GraphTap {
    public var node: String
    public var port: PortSelector
    public var file: String
    public var location: SourceLocation?
}
