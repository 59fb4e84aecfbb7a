/// The catalog's memory of descriptions: those in the `PluginCache` whose
/// bundles are unchanged, and those read from lilv in this run, which
/// `save` writes back. The cache file is read on the first question, so a
/// catalog that describes nothing costs nothing.
final class PluginDescriptionStore {
    let cache: PluginCache
    private var entries: [String: PluginCache.Entry]?
    private var stamps: [String: BundleStamp] = [:]
    private var changed = false

    init(cache: PluginCache) { self.cache = cache }

    /// The description of `uri` from the cache when every bundle it is read
    /// from (`bundles`) is as it was then, else from `read`, remembered.
    func description(of uri: String, bundles: [String], read: () -> PluginDescription) -> PluginDescription {
        var known = entries ?? cache.load()
        let current = bundles.map(stamp)
        if let entry = known[uri], entry.bundles == current { entries = known; return entry.description }
        let description = read()
        known[uri] = PluginCache.Entry(uri: uri, bundles: current, description: description)
        entries = known
        changed = true
        return description
    }

    /// Writes the cache if this run described anything new or found entries
    /// of plugins no longer installed, keeping only `installed` plugins.
    func save(installed: [String]) {
        guard let entries else { return }
        let kept = installed.compactMap { entries[$0] }
        guard changed || kept.count != entries.count else { return }
        cache.save(kept)
        changed = false
    }

    private func stamp(_ path: String) -> BundleStamp {
        if let known = stamps[path] { return known }
        let stamp = BundleStamp(path: path)
        stamps[path] = stamp
        return stamp
    }
}
