import ArgumentParser
import Foundation
import HostCore
import LiveControl
import LV2Bridge

/// The installed plugins, loaded once per command. Descriptions come from
/// the plugin cache (`PluginCache.standard()`) unless `useCache` is false
/// (`--no-cache`). A render loads only the bundles it needs (`init(rendering:)`).
struct Plugins {
    let catalog: PluginCatalog
    let provider: LV2UnitProvider

    init(useCache: Bool = true) {
        catalog = PluginCatalog(world: LV2World(), cache: useCache ? PluginCache.standard() : nil)
        provider = LV2UnitProvider(catalog: catalog)
        StartupTimings.mark("lv2 world")
    }

    /// The plugins a render names by `references` (URIs or short names):
    /// only their bundles when the plugin index allows it, else every
    /// installed bundle (`PluginCatalog.needing`).
    init(rendering references: [String]) {
        catalog = PluginCatalog.needing(references, cache: PluginCache.standard())
        provider = LV2UnitProvider(catalog: catalog)
        StartupTimings.mark("lv2 world")
    }
}
