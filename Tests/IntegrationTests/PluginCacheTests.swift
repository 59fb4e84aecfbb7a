import Foundation
import XCTest

/// The plugin cache (`$XDG_CACHE_HOME/fxhost/`), seen through `fxhost
/// plugins` and `fxhost info` run as processes over a temporary LV2_PATH
/// folder plus the system's plugins. The oracles: `lv2ls` (lilv's own
/// lister) for which plugins are installed, the bundle the test writes for
/// what the probe is called, and `--no-cache`, which reads every bundle.
final class PluginCacheTests: XCTestCase {
    struct Setup {
        let folder: URL
        let bundles: URL
        let library: URL
        var environment: [String: String] {
            ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
             "LV2_PATH": bundles.path + ":/usr/lib/lv2"]
        }
        var cacheFolder: URL { folder.appendingPathComponent("cache/fxhost") }
        var probeData: URL { bundles.appendingPathComponent("probe.lv2/probe.ttl") }

        /// Runs fxhost; a failure fails the test with its stderr.
        func fxhost(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
            let result = try Tools.run(Tools.fxhost, arguments, environment: environment)
            XCTAssertEqual(result.status, 0, "fxhost \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
            XCTAssertEqual(result.stderr, "", "fxhost \(arguments.joined(separator: " ")) complained", file: file, line: line)
            return result.stdout
        }

        func cacheFiles() -> [URL] {
            ((try? FileManager.default.contentsOfDirectory(at: cacheFolder, includingPropertiesForKeys: nil)) ?? [])
                .filter { $0.pathExtension == "json" }
        }
    }

    func makeSetup(withProbe: Bool, name: String = #function) throws -> Setup {
        let folder = try Tools.temporaryFolder(name)
        let library = try ProbePlugin.buildLibrary(in: folder.appendingPathComponent("build"))
        let bundles = folder.appendingPathComponent("lv2")
        try FileManager.default.createDirectory(at: bundles, withIntermediateDirectories: true)
        if withProbe { _ = try ProbePlugin.bundle(in: bundles, library: library) }
        return Setup(folder: folder, bundles: bundles, library: library)
    }

    /// The URIs lilv's own `lv2ls` lists for the same LV2_PATH.
    func lv2ls(_ setup: Setup) throws -> [String] {
        let result = try Tools.run("lv2ls", [], environment: setup.environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    func uris(ofListing listing: String) -> [String] {
        listing.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }.sorted()
    }

    func testColdAndWarmListingsEqualAnUncachedOne() throws {
        let setup = try makeSetup(withProbe: true)
        let uncached = try setup.fxhost(["plugins", "--no-cache"])
        XCTAssertEqual(setup.cacheFiles(), [], "--no-cache writes no cache")
        XCTAssertEqual(uris(ofListing: uncached), try lv2ls(setup))
        XCTAssertTrue(uncached.contains("fxhost probe (1 in, 1 out)"), uncached)

        let cold = try setup.fxhost(["plugins"])
        XCTAssertEqual(setup.cacheFiles().count, 1, "the first listing writes the cache")
        let warm = try setup.fxhost(["plugins"])
        XCTAssertEqual(cold, uncached)
        XCTAssertEqual(warm, uncached)
        XCTAssertEqual(try setup.fxhost(["plugins", "probe"]), try setup.fxhost(["plugins", "probe", "--no-cache"]))

        let jsonUncached = try setup.fxhost(["plugins", "--json", "--no-cache"])
        XCTAssertEqual(try setup.fxhost(["plugins", "--json"]), jsonUncached)
        XCTAssertEqual(try setup.fxhost(["info", ProbePlugin.uri, "--json"]),
                       try setup.fxhost(["info", ProbePlugin.uri, "--json", "--no-cache"]))
    }

    func testABundleAddedEditedOrRemovedIsNoticedOnTheNextCall() throws {
        let setup = try makeSetup(withProbe: false)
        let before = try setup.fxhost(["plugins"])
        XCTAssertFalse(before.contains(ProbePlugin.uri))
        XCTAssertEqual(setup.cacheFiles().count, 1)

        _ = try ProbePlugin.bundle(in: setup.bundles, library: setup.library)
        let added = try setup.fxhost(["plugins"])
        XCTAssertEqual(uris(ofListing: added), try lv2ls(setup))
        XCTAssertTrue(added.contains("fxhost probe (1 in, 1 out)"), added)

        // The plugin's data file edited: a new name.
        let data = try String(contentsOf: setup.probeData, encoding: .utf8)
        try data.replacingOccurrences(of: "\"fxhost probe\"", with: "\"fxhost probe renamed\"")
            .write(to: setup.probeData, atomically: false, encoding: .utf8)
        let renamed = try setup.fxhost(["plugins", "probe"])
        XCTAssertTrue(renamed.contains("fxhost probe renamed (1 in, 1 out)"), renamed)
        XCTAssertTrue(try setup.fxhost(["info", ProbePlugin.uri]).hasPrefix("fxhost probe renamed\n"))
        // Suggestions read names from the cache: the new name's word finds the probe.
        let suggestion = try Tools.run(Tools.fxhost, ["info", "renamed"], environment: setup.environment)
        XCTAssertTrue(suggestion.stderr.contains("did you mean `probe`?"), suggestion.stderr)
        XCTAssertEqual(try setup.fxhost(["plugins"]), try setup.fxhost(["plugins", "--no-cache"]))

        try FileManager.default.removeItem(at: setup.bundles.appendingPathComponent("probe.lv2"))
        let removed = try setup.fxhost(["plugins"])
        XCTAssertEqual(removed, before)
        let info = try Tools.run(Tools.fxhost, ["info", ProbePlugin.uri], environment: setup.environment)
        XCTAssertEqual(info.status, 1)
        XCTAssertTrue(info.stderr.contains("no installed LV2 plugin is called"), info.stderr)
    }

    func testACorruptOrUnusableCacheIsIgnored() throws {
        let setup = try makeSetup(withProbe: true)
        let expected = try setup.fxhost(["plugins", "--no-cache"])
        let expectedJSON = try setup.fxhost(["plugins", "--json", "--no-cache"])
        XCTAssertEqual(try setup.fxhost(["plugins"]), expected)
        let files = setup.cacheFiles()
        XCTAssertEqual(files.count, 1)

        // Garbage bytes: ignored, then rewritten.
        for file in files { try Data([0x7b, 0x00, 0xff, 0x22, 0x9c, 0x0a]).write(to: file) }
        XCTAssertEqual(try setup.fxhost(["plugins"]), expected)
        XCTAssertEqual(try setup.fxhost(["plugins", "--json"]), expectedJSON)
        let rewritten = try Data(contentsOf: files[0])
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: rewritten), "the cache was rebuilt")

        // Valid JSON of another shape and version: a miss, rewritten too.
        try Data(#"{"version": 999, "plugins": []}"#.utf8).write(to: files[0])
        XCTAssertEqual(try setup.fxhost(["plugins"]), expected)
        XCTAssertNotEqual(try Data(contentsOf: files[0]).count, 31)

        // The cache folder is a file: nothing can be read or written there.
        try FileManager.default.removeItem(at: setup.cacheFolder)
        try Data("not a folder".utf8).write(to: setup.cacheFolder)
        XCTAssertEqual(try setup.fxhost(["plugins"]), expected)
        XCTAssertEqual(try setup.fxhost(["plugins", "--json"]), expectedJSON)
        XCTAssertTrue(try setup.fxhost(["info", ProbePlugin.uri]).hasPrefix("fxhost probe\n"))
    }
}
