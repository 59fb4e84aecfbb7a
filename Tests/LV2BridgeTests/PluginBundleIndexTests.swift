import Foundation
import HostCore
@testable import LV2Bridge
import TestSupport
import XCTest

/// The plugin index a render loads only the needed bundles by. The oracle
/// is lilv with every bundle loaded (`Installed.catalog`): a plugin read
/// from its indexed bundles alone must be described exactly alike.
final class PluginBundleIndexTests: XCTestCase {
    func makeIndex() throws -> PluginBundleIndex {
        let folders = LV2Folders.searchPath()
        return try XCTUnwrap(PluginBundleIndex(catalog: Installed.catalog, folders: folders,
                                               fingerprint: LV2Folders.fingerprint(of: folders)))
    }

    func testEveryPluginIsDescribedAlikeFromItsIndexedBundlesAlone() throws {
        let index = try makeIndex()
        XCTAssertEqual(index.uris, Installed.catalog.uris, "every installed plugin is indexed")
        XCTAssertFalse(index.specificationBundles.isEmpty, "lv2core and units are found")
        for uri in index.uris {
            let (uris, bundles) = try XCTUnwrap(index.bundles(for: [uri]), uri)
            XCTAssertEqual(uris, [uri])
            let partial = PluginCatalog(world: LV2World(bundles: bundles))
            XCTAssertLessThan(partial.uris.count, Installed.catalog.uris.count, "\(uri): not every bundle loaded")
            XCTAssertEqual(partial.describe(uri), Installed.catalog.describe(uri), uri)
        }
    }

    func testNamesResolveAsTheCatalogResolvesThem() throws {
        let index = try makeIndex()
        let ambience = "http://drobilla.net/plugins/mda/Ambience"
        XCTAssertEqual(index.bundles(for: [ambience, "mda/Ambience", "AMBIENCE", "eg-amp"])?.uris,
                       [ambience, ambience, ambience, try Installed.catalog.resolveURI("eg-amp")])
        XCTAssertNil(index.bundles(for: ["mda/Ambiance"]), "a name of no plugin")
        // `xfade` ends two URIs (swh and x42): the catalog refuses it too.
        XCTAssertThrowsError(try Installed.catalog.resolveURI("xfade"))
        XCTAssertNil(index.bundles(for: ["xfade"]), "a name of several plugins")
        XCTAssertEqual(index.bundles(for: [])?.bundles, index.specificationBundles)
    }

    func testAPluginWhoseBundlesAreNotIndexedStillCountsAmongTheNames() {
        // As `PluginCatalog.resolveURI` would: `foo` names two plugins, `x/foo` one.
        let index = PluginBundleIndex(folders: ["/lv2"], fingerprint: "0", specificationBundles: ["/lv2/core.lv2"],
                                      plugins: ["http://a/x/foo": ["/lv2/x.lv2"]], unindexed: ["http://a/y/foo"])
        XCTAssertNil(index.bundles(for: ["foo"]), "a name of two plugins, one of them not indexed")
        XCTAssertNil(index.bundles(for: ["http://a/y/foo"]), "a plugin whose bundles are not indexed")
        XCTAssertNil(index.bundles(for: ["y/foo"]))
        XCTAssertEqual(index.bundles(for: ["x/foo"])?.bundles, ["/lv2/core.lv2", "/lv2/x.lv2"])
        XCTAssertEqual(PluginBundleIndex(text: index.text), index)
    }

    func testTheTextRoundTripsAndAnythingElseIsNoIndex() throws {
        let index = try makeIndex()
        XCTAssertEqual(PluginBundleIndex(text: index.text), index)
        XCTAssertNil(PluginBundleIndex(text: ""))
        XCTAssertNil(PluginBundleIndex(text: "garbage\n"))
        XCTAssertNil(PluginBundleIndex(text: String(index.text.dropLast(10))), "cut off")
        XCTAssertNil(PluginBundleIndex(text: index.text.replacingOccurrences(of: "bundles 2", with: "bundles 1")),
                     "another version")
    }

    func testTheFingerprintFollowsBundlesAndManifestsOnly() throws {
        let folder = try TestFolders.make(#function, prefix: "fxhost-lv2bridge")
        let bundle = folder.appendingPathComponent("a.lv2")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let manifest = bundle.appendingPathComponent("manifest.ttl")
        try Data("<urn:a> a <urn:b> .\n".utf8).write(to: manifest)
        let first = LV2Folders.fingerprint(of: [folder.path])
        XCTAssertEqual(LV2Folders.fingerprint(of: [folder.path]), first, "nothing changed")

        try Data("<urn:a> <urn:c> <urn:d> .\n".utf8).write(to: bundle.appendingPathComponent("data.ttl"))
        XCTAssertEqual(LV2Folders.fingerprint(of: [folder.path]), first,
                       "a data file is read afresh on every load, so it need not be watched")

        // Replaced as a package upgrade replaces it (a new file renamed over
        // it), with the same size and even its old modification time.
        let originalDate = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: manifest.path)[.modificationDate] as? Date)
        try Data("<urn:a> a <urn:e> .\n".utf8).write(to: manifest, options: .atomic)
        try FileManager.default.setAttributes([.modificationDate: originalDate], ofItemAtPath: manifest.path)
        let edited = LV2Folders.fingerprint(of: [folder.path])
        XCTAssertNotEqual(edited, first, "a manifest replaced")

        let added = folder.appendingPathComponent("b.lv2")
        try FileManager.default.createDirectory(at: added, withIntermediateDirectories: true)
        let withB = LV2Folders.fingerprint(of: [folder.path])
        XCTAssertNotEqual(withB, edited, "a bundle added")
        try FileManager.default.removeItem(at: added)
        XCTAssertEqual(LV2Folders.fingerprint(of: [folder.path]), edited, "the bundle removed again")
    }

    func testTheSearchPathIsLilvs() {
        XCTAssertEqual(LV2Folders.searchPath(environment: ["LV2_PATH": "/a:~/b:~", "HOME": "/home/x"]),
                       ["/a", "/home/x/b", "/home/x"])
        XCTAssertEqual(LV2Folders.searchPath(environment: ["HOME": "/home/x"]).first, "/home/x/.lv2")
    }
}
