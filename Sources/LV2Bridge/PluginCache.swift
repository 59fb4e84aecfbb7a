import Foundation

/// Plugin descriptions kept on disk between runs, so listing, `info` and
/// name suggestions need not make lilv parse every plugin's data (seconds
/// with some hundred plugins installed). One JSON file per LV2_PATH value
/// in `$XDG_CACHE_HOME/fxhost/` (else `~/.cache/fxhost/`). Each entry names
/// the bundles its description was read from with their `BundleStamp`; an
/// entry is used only while those stamps still hold. A cache that cannot
/// be read, decoded or written is ignored: it only ever saves time.
package struct PluginCache: Sendable {
    /// Bump whenever `PluginDescription` or this file's shape changes: a
    /// file of another version is a miss.
    package static let formatVersion = 4

    package let file: URL

    package init(file: URL) { self.file = file }

    /// The cache for this process's LV2_PATH in the user's cache folder, or
    /// nil when neither XDG_CACHE_HOME nor HOME says where that is.
    package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> PluginCache? {
        let folder: URL
        if let cacheHome = environment["XDG_CACHE_HOME"], cacheHome.hasPrefix("/") {
            folder = URL(fileURLWithPath: cacheHome, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folder = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache", isDirectory: true)
        } else {
            return nil
        }
        // One file per LV2_PATH, so switching between paths does not evict
        // the other path's descriptions.
        let path = environment["LV2_PATH"] ?? ""
        let name = "plugins-" + String(BundleStamp.hash(Array(path.utf8)), radix: 16) + ".json"
        return PluginCache(file: folder.appendingPathComponent("fxhost", isDirectory: true).appendingPathComponent(name))
    }

    /// One plugin's description and the bundles it was read from.
    package struct Entry: Codable, Sendable, Equatable {
        package var uri: String
        package var bundles: [BundleStamp]
        package var summary: PluginSummary
        package var description: PluginDescription
    }

    /// An entry without its description: decoding only this much of the
    /// file is what makes a warm listing fast.
    package struct SummaryEntry: Codable, Sendable, Equatable {
        package var uri: String
        package var bundles: [BundleStamp]
        package var summary: PluginSummary
    }

    struct Contents<Item: Codable>: Codable {
        var version: Int
        var plugins: [Item]
    }

    /// The entries on disk by URI; empty when the file is missing, unreadable,
    /// corrupt or of another version.
    package func load() -> [String: Entry] { load(Entry.self, uri: \.uri) }

    /// The entries on disk without their descriptions.
    package func loadSummaries() -> [String: SummaryEntry] { load(SummaryEntry.self, uri: \.uri) }

    private func load<Item: Codable>(_ type: Item.Type, uri: KeyPath<Item, String>) -> [String: Item] {
        guard let data = try? Data(contentsOf: file),
              let contents = try? Self.decoder.decode(Contents<Item>.self, from: data),
              contents.version == Self.formatVersion else { return [:] }
        var entries: [String: Item] = [:]
        for entry in contents.plugins { entries[entry[keyPath: uri]] = entry }
        return entries
    }

    /// Writes `entries` to a temporary file beside the cache, then renames it
    /// over the cache, so a reader sees the old file or the new one, never
    /// half of one. Failure (an unwritable folder, a full disk) is ignored.
    package func save(_ entries: [Entry]) {
        let contents = Contents(version: Self.formatVersion, plugins: entries.sorted { $0.uri < $1.uri })
        let folder = file.deletingLastPathComponent()
        guard let data = try? Self.encoder.encode(contents),
              (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return }
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data) else { return }
        if rename(temporary.path, file.path) != 0 { unlink(temporary.path) }
    }

    // Some plugins give infinite or NaN ranges, which plain JSON cannot hold.
    private static let floatStrategy = (positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: floatStrategy.positiveInfinity, negativeInfinity: floatStrategy.negativeInfinity,
            nan: floatStrategy.nan)
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: floatStrategy.positiveInfinity, negativeInfinity: floatStrategy.negativeInfinity,
            nan: floatStrategy.nan)
        return decoder
    }
}
