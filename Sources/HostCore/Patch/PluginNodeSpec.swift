/// A plugin node as declared: which plugin, its parameter values, preset and bypass.
package struct PluginNodeSpec: Sendable, Equatable {
    /// URI or unique short name (`mda/Overdrive`, `Overdrive`), as written.
    package var plugin: String
    package var pluginLocation: SourceLocation?
    /// Parameter values by port symbol, in file order.
    package var parameters: [ParameterSetting]
    /// LV2 preset label or URI.
    package var preset: String?
    package var presetLocation: SourceLocation?
    package var bypass: Bool

    package init(plugin: String, pluginLocation: SourceLocation? = nil, parameters: [ParameterSetting] = [],
                preset: String? = nil, presetLocation: SourceLocation? = nil, bypass: Bool = false) {
        self.plugin = plugin
        self.pluginLocation = pluginLocation
        self.parameters = parameters
        self.preset = preset
        self.presetLocation = presetLocation
        self.bypass = bypass
    }
}
