import HostCore

/// Makes units from the installed plugins by URI or short name.
public struct LV2UnitProvider: UnitProvider {
    package let catalog: PluginCatalog

    public init(catalog: PluginCatalog) { self.catalog = catalog }

    public func makeUnit(_ reference: String) throws(UnitError) -> any ProcessingUnit {
        try LV2Unit(plugin: catalog.resolve(reference), catalog: catalog)
    }
}
