import Foundation
import HostCore
@testable import LV2Bridge
import TestSupport
import XCTest

/// The plugin cache's parts: bundle stamps and the catalog's use of the file.
final class PluginCachePartsTests: XCTestCase {
    func testABundleStampChangesWhenAFileIsTouchedAddedOrRemoved() throws {
        let bundle = try TestFolders.make(#function, prefix: "fxhost-lv2bridge").appendingPathComponent("x.lv2")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let data = bundle.appendingPathComponent("x.ttl")
        try Data("<urn:x> a <urn:y> .\n".utf8).write(to: data)
        let first = BundleStamp(path: bundle.path)
        XCTAssertFalse(first.stamp.isEmpty)
        XCTAssertEqual(BundleStamp(path: bundle.path), first, "nothing changed")

        // Same bytes, another modification time: `touch`.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: data.path)
        let touched = BundleStamp(path: bundle.path)
        XCTAssertNotEqual(touched, first)

        try Data().write(to: bundle.appendingPathComponent("presets.ttl"))
        let added = BundleStamp(path: bundle.path)
        XCTAssertNotEqual(added, touched)
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("presets.ttl"))
        XCTAssertNotEqual(BundleStamp(path: bundle.path), added)

        try FileManager.default.removeItem(at: bundle)
        XCTAssertEqual(BundleStamp(path: bundle.path).stamp, "", "a bundle that is gone has no stamp")
    }

    func testACachedDescriptionEqualsAFreshOneAndTheFileIsVersionedJSON() throws {
        let folder = try TestFolders.make(#function, prefix: "fxhost-lv2bridge")
        let cache = PluginCache(file: folder.appendingPathComponent("fxhost/plugins.json"))
        let fresh = Installed.catalog.uris.map { Installed.catalog.describe($0) }

        let cold = PluginCatalog(world: Installed.catalog.world, cache: cache)
        XCTAssertEqual(cold.plugins, fresh)
        cold.saveCache()
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: cache.file)) as? [String: Any]
        XCTAssertEqual(object?["version"] as? Int, PluginCache.formatVersion)
        XCTAssertEqual((object?["plugins"] as? [Any])?.count, fresh.count)
        XCTAssertEqual(Set(cache.load().keys), Set(Installed.catalog.uris))

        let warm = PluginCatalog(world: Installed.catalog.world, cache: cache)
        XCTAssertEqual(warm.summaries(matching: nil), fresh.map { PluginSummary($0!) })
        XCTAssertEqual(warm.plugins, fresh)
    }

    /// The `isLogarithmic` marks go into the file and come back out of it;
    /// a file as the fxhost before them wrote it (format 3, ports without
    /// the field) is not trusted: the plugin is read again, marks and all.
    func testLogarithmicMarksSurviveTheCacheAndAFileWithoutThemIsReadAgain() throws {
        let folder = try TestFolders.make(#function, prefix: "fxhost-lv2bridge")
        let cache = PluginCache(file: folder.appendingPathComponent("fxhost/plugins.json"))
        let uri = TriplePara.uri
        let declared = try TriplePara.declaredLogarithmic()
        let fresh = try XCTUnwrap(Installed.catalog.describe(uri))
        let bundles = Installed.catalog.bundles(of: try XCTUnwrap(Installed.catalog.lilvPlugin(uri)))

        let writer = PluginDescriptionStore(cache: cache)
        XCTAssertEqual(writer.description(of: uri, bundles: bundles) { fresh }, fresh)
        writer.save(installed: [uri])
        let written = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: cache.file)) as? [String: Any])
        let plugins = try XCTUnwrap(written["plugins"] as? [[String: Any]])
        let ports = try XCTUnwrap((plugins.first?["description"] as? [String: Any])?["ports"] as? [[String: Any]])
        let marks = ports.compactMap { port -> (String, Bool)? in
            guard let symbol = port["symbol"] as? String, let mark = port["isLogarithmic"] as? Bool else { return nil }
            return (symbol, mark)
        }
        XCTAssertEqual(marks.count, ports.count, "every port in the file has isLogarithmic")
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: marks), declared)

        var reads = 0
        let warm = PluginDescriptionStore(cache: cache)
        XCTAssertEqual(warm.description(of: uri, bundles: bundles) { reads += 1; return fresh }, fresh)
        XCTAssertEqual(reads, 0, "the bundles are unchanged: the entry comes from the file")

        /// `value` with `key` taken out of every object in it.
        func removing(_ key: String, from value: Any) -> Any {
            if var object = value as? [String: Any] {
                object[key] = nil
                return object.mapValues { removing(key, from: $0) }
            }
            if let array = value as? [Any] { return array.map { removing(key, from: $0) } }
            return value
        }
        for version in [3, PluginCache.formatVersion] {
            var old = try XCTUnwrap(removing("isLogarithmic", from: written) as? [String: Any])
            old["version"] = version
            try JSONSerialization.data(withJSONObject: old).write(to: cache.file)
            XCTAssertEqual(cache.load().count, 0, "version \(version) without isLogarithmic is a miss")
            let store = PluginDescriptionStore(cache: cache)
            reads = 0
            XCTAssertEqual(store.description(of: uri, bundles: bundles) { reads += 1; return fresh }, fresh)
            XCTAssertEqual(reads, 1, "version \(version) without isLogarithmic: the plugin is read again")
            store.save(installed: [uri])
            XCTAssertEqual(cache.load()[uri]?.description, fresh, "and the file is rewritten with the marks")
        }
    }
}
