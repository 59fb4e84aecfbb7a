/// A plugin node as declared: which plugin, its parameter values, preset and bypass.
public struct PluginNodeSpec: Sendable, Equatable {
    /// URI or unique short name (`mda/Overdrive`, `Overdrive`), as written.
    public var plugin: String
    public var pluginLocation: SourceLocation?
    /// Parameter values by port symbol, in file order.
    public var parameters: [ParameterSetting]
    /// LV2 preset label or URI.
    public var preset: String?
    public var presetLocation: SourceLocation?
    public var bypass: Bool

    public init(plugin: String, pluginLocation: SourceLocation? = nil, parameters: [ParameterSetting] = [],
                preset: String? = nil, presetLocation: SourceLocation? = nil, bypass: Bool = false) {
        self.plugin = plugin
        self.pluginLocation = pluginLocation
        self.parameters = parameters
        self.preset = preset
        self.presetLocation = presetLocation
        self.bypass = bypass
    }
}
