import ArgumentParser
import Foundation
import HostCore
import LV2Bridge

/// The installed plugins, loaded once per command.
struct Plugins {
    let catalog: PluginCatalog
    let provider: LV2UnitProvider

    init() {
        catalog = PluginCatalog(world: LV2World())
        provider = LV2UnitProvider(catalog: catalog)
    }
}
