/// The catalog's memory of descriptions: those in the `PluginCache` whose
/// bundles are unchanged, and those read from lilv in this run, which
/// `save` writes back. The cache file is read on the first question (only
/// the summaries, when only summaries are asked for), so a catalog that
/// describes nothing costs nothing.
final class PluginDescriptionStore {
    let cache: PluginCache
    private var entries: [String: PluginCache.Entry]?
    private var summaries: [String: PluginCache.SummaryEntry]?
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
        known[uri] = PluginCache.Entry(uri: uri, bundles: current, summary: PluginSummary(description),
                                       description: description)
        entries = known
        changed = true
        return description
    }

    /// The summary of `uri`, from the cache's summaries while its bundles
    /// are unchanged, else from its description.
    func summary(of uri: String, bundles: [String], read: () -> PluginDescription) -> PluginSummary {
        // Full entries decoded already: a summary of them costs less than decoding the summaries too.
        if entries != nil { return PluginSummary(description(of: uri, bundles: bundles, read: read)) }
        let known = summaries ?? cache.loadSummaries()
        summaries = known
        if let entry = known[uri], entry.bundles == bundles.map(stamp) { return entry.summary }
        return PluginSummary(description(of: uri, bundles: bundles, read: read))
    }

    /// Writes the cache if this run described anything new or found entries
    /// of plugins no longer installed, keeping only `installed` plugins.
    func save(installed: [String]) {
        if entries == nil, let summaries, summaries.count != installed.count || installed.contains(where: { summaries[$0] == nil }) {
            entries = cache.load()
        }
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
