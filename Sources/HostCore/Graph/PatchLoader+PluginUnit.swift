/// The one way a plugin node's unit is made from a patch: `check`, a render,
/// a live run and a `--watch` reload all come here, so they refuse the same
/// mistakes with the same sentence at the same place.
extension PatchLoader {
    /// Makes a plugin node's unit with this loader's provider.
    package func makeUnit(_ node: String, _ spec: PluginNodeSpec, at location: SourceLocation?,
                          folder: String?) throws(GraphError) -> any ProcessingUnit {
        try Self.makeUnit(node, spec, at: location, folder: folder) { reference throws(UnitError) in
            try units.makeUnit(reference)
        }
    }

    /// A plugin node's unit: the plugin, then its preset, then its values
    /// (message parameters' paths relative to `folder`, the patch's). Each
    /// error stands at what it is about — the plugin's name, the preset's,
    /// the value's — falling back to the node's `location`.
    package static func makeUnit(_ node: String, _ spec: PluginNodeSpec, at location: SourceLocation?, folder: String?,
                                 making make: (String) throws(UnitError) -> any ProcessingUnit)
        throws(GraphError) -> any ProcessingUnit {
        let unit: any ProcessingUnit
        do {
            unit = try make(spec.plugin)
        } catch {
            throw GraphError(node: node, error, at: spec.pluginLocation ?? location)
        }
        if let preset = spec.preset {
            do {
                try unit.applyPreset(preset)
            } catch {
                throw GraphError(node: node, error, at: spec.presetLocation ?? location)
            }
        }
        for setting in spec.parameters {
            do {
                try unit.setParameter(setting.symbol, to: setting.value, relativeTo: folder)
            } catch {
                throw GraphError(node: node, error, at: setting.location ?? location)
            }
        }
        return unit
    }
}
