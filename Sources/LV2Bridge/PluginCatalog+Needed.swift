import Foundation

/// Where a render decides which bundles lilv loads.
extension PluginCatalog {
    /// A catalog for a render of the plugins `references` names (URIs or
    /// short names, as a patch writes them), describing through `cache`
    /// when given. While the `PluginBundleIndex` beside `cache`'s file
    /// holds for the LV2 folders as they are, it loads only those plugins'
    /// bundles and the specifications their descriptions read; a description, an instance or a preset read from it is the
    /// one a world of every bundle gives. Anything else loads every bundle,
    /// exactly as before the index: no index yet, or a stale one (a bundle
    /// added, removed or with a changed manifest), a reference naming no
    /// plugin or several (so the error and its suggestions are the usual
    /// ones), or a name the smaller world resolves differently. Such a load
    /// writes a fresh index when the old one was missing or stale and the
    /// cache folder is writable.
    package static func needing(_ references: [String], cache: PluginCache?) -> PluginCatalog {
        guard let indexFile = cache.map(PluginBundleIndex.file(beside:)) else {
            return PluginCatalog(world: LV2World(), cache: cache)
        }
        let searchPath = LV2Folders.searchPath()
        // Taken before lilv reads the folders, so a change while it reads
        // leaves an index written below stale rather than wrong.
        let fingerprint = LV2Folders.fingerprint(of: searchPath)
        let index = PluginBundleIndex.load(from: indexFile)
        let indexHolds = index?.holds(searchPath: searchPath, fingerprint: fingerprint) ?? false
        if indexHolds, let index, let (uris, bundles) = index.bundles(for: references) {
            let catalog = PluginCatalog(world: LV2World(bundles: bundles), cache: cache)
            if zip(references, uris).allSatisfy({ reference, uri in (try? catalog.resolveURI(reference)) == uri }) {
                return catalog
            }
        }
        let catalog = PluginCatalog(world: LV2World(), cache: cache)
        if !indexHolds, PluginBundleIndex.canWrite(to: indexFile),
           let fresh = PluginBundleIndex(catalog: catalog, folders: searchPath, fingerprint: fingerprint) {
            fresh.save(to: indexFile)
        }
        return catalog
    }
}
