/// A message parameter's value as the host set it, as a patch writes it
/// back (`save`): its short name, the value, and whether it is a file path
/// (then an absolute path in a `.label`, for the writer to make relative).
public struct MessageParameterSetting: Sendable, Equatable {
    public var name: String
    public var value: ParameterValue
    public var isPath: Bool

    public init(name: String, value: ParameterValue, isPath: Bool) {
        self.name = name
        self.value = value
        self.isPath = isPath
    }
}
