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
}
