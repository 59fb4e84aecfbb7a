import Foundation
import XCTest

/// A render loads only the bundles of the plugins it names once fxhost's
/// plugin index knows where they are, and everything otherwise. The
/// oracles: lilv prints a parse error on stderr whenever it reads the
/// broken bundle the test puts on LV2_PATH (so a silent stderr means it was
/// not read), eg-amp's arithmetic for a preset kept in a bundle of its own,
/// and a render over a fresh cache folder, which loads every bundle as
/// every render did before the index.
final class RenderBundleLoadingTests: XCTestCase {
    static let ampURI = "http://lv2plug.in/plugins/eg-amp"

    struct Setup {
        let folder: URL
        let bundles: URL
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        /// fxhost with LV2_PATH = the test's bundles then the system's, and
        /// a cache folder of its own (`cache` names another, e.g. a fresh one).
        func fxhost(_ arguments: [String], cache: String = "cache") throws -> Tools.Result {
            try Tools.run(Tools.fxhost, arguments, environment: [
                "LV2_PATH": bundles.path + ":/usr/lib/lv2", "XDG_CACHE_HOME": path(cache)])
        }

        var indexFiles: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: path("cache/fxhost"))) ?? [])
                .filter { $0.hasSuffix(".bundles") }
        }
    }

    /// A folder of bundles: one whose manifest lilv cannot parse, and one
    /// holding only a preset for eg-amp ("Half": gain -6 dB).
    func makeSetup(name: String = #function) throws -> Setup {
        let folder = try Tools.temporaryFolder(name)
        let bundles = folder.appendingPathComponent("lv2")
        let broken = bundles.appendingPathComponent("broken.lv2")
        let presets = bundles.appendingPathComponent("amp-presets.lv2")
        for bundle in [broken, presets] { try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true) }
        try "<urn:fxhost:broken> this is not turtle\n"
            .write(to: broken.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        let prefixes = """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

            """
        try (prefixes + "<half.ttl> a pset:Preset ; lv2:appliesTo <\(Self.ampURI)> ; rdfs:seeAlso <half.ttl> .\n")
            .write(to: presets.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try (prefixes + """
            <> a pset:Preset ; lv2:appliesTo <\(Self.ampURI)> ; rdfs:label "Half" ;
                lv2:port [ lv2:symbol "gain" ; pset:value -6.0 ] .
            """).write(to: presets.appendingPathComponent("half.ttl"), atomically: true, encoding: .utf8)
        return Setup(folder: folder, bundles: bundles)
    }

    func testOnceIndexedARenderReadsOnlyItsPluginsBundlesAndSoundsTheSame() throws {
        let setup = try makeSetup()
        let input = Audio.noise(channels: 1, frames: 4800, amplitude: 0.5, seed: 11)
        try input.write(setup.path("in.wav"))
        try """
        fxhost: 1
        nodes:
          in:  { input: 1 }
          amp: { plugin: eg-amp, preset: Half }
          out: { output: 1 }
        chain: [in, amp, out]
        """.write(toFile: setup.path("half.yaml"), atomically: true, encoding: .utf8)
        func render(_ output: String, cache: String = "cache") throws -> Tools.Result {
            try setup.fxhost(["render", setup.path("half.yaml"), "-i", setup.path("in.wav"), "-o", setup.path(output),
                              "--tail", "0", "--quiet"], cache: cache)
        }

        let cold = try render("cold.wav")
        XCTAssertEqual(cold.status, 0, cold.stderr)
        XCTAssertTrue(cold.stderr.contains("broken.lv2"), "the first render reads every bundle: \(cold.stderr)")
        XCTAssertEqual(setup.indexFiles.count, 1, "and writes the index")
        let warm = try render("warm.wav")
        XCTAssertEqual(warm.status, 0, warm.stderr)
        XCTAssertEqual(warm.stderr, "", "the next reads only eg-amp's bundles and its preset's")

        // eg-amp multiplies by powf(10, gain * 0.05): the preset was applied.
        let gain = powf(10, -6 * 0.05)
        let warmOutput = try Audio.read(setup.path("warm.wav"))
        XCTAssertEqual(warmOutput.frames, input.frames)
        for (out, sample) in zip(warmOutput.channels[0], input.channels[0]) { XCTAssertEqual(out, sample * gain, accuracy: 1e-7) }
        XCTAssertIdentical(warmOutput, try Audio.read(setup.path("cold.wav")))

        // A chain of plugins from several bundles, from the index and from a fresh cache folder.
        let chain = ["render", "--chain", "mda/Delay ! eg-amp gain=-3 ! http://plugin.org.uk/swh-plugins/sc4",
                     "-i", setup.path("in.wav"), "--tail", "0.2s", "--quiet"]
        let indexed = try setup.fxhost(chain + ["-o", setup.path("chain-indexed.wav")])
        XCTAssertEqual(indexed.status, 0, indexed.stderr)
        XCTAssertEqual(indexed.stderr, "")
        let everything = try setup.fxhost(chain + ["-o", setup.path("chain-everything.wav")], cache: "fresh-cache")
        XCTAssertTrue(everything.stderr.contains("broken.lv2"), everything.stderr)
        XCTAssertIdentical(try Audio.read(setup.path("chain-indexed.wav")), try Audio.read(setup.path("chain-everything.wav")))
    }

    func testAChangedFolderOrANameOfNoSinglePluginLoadsEveryBundle() throws {
        let setup = try makeSetup()
        try Audio.noise(channels: 1, frames: 2400, amplitude: 0.5, seed: 12).write(setup.path("in.wav"))
        func render(_ plugin: String, _ output: String) throws -> Tools.Result {
            try setup.fxhost(["render", "--chain", plugin, "-i", setup.path("in.wav"), "-o", setup.path(output),
                              "--tail", "0", "--quiet"])
        }
        XCTAssertEqual(try render("eg-amp", "first.wav").status, 0)
        XCTAssertEqual(setup.indexFiles.count, 1)

        // A bundle added: the index no longer holds, so everything is read and the index made again.
        let library = try ProbePlugin.buildLibrary(in: setup.folder.appendingPathComponent("build"))
        _ = try ProbePlugin.bundle(in: setup.bundles, library: library)
        let added = try render(ProbePlugin.uri, "probe-1.wav")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stderr.contains("broken.lv2"), "every bundle read: \(added.stderr)")
        let again = try render(ProbePlugin.uri, "probe-2.wav")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "", "the new index knows the probe")
        XCTAssertIdentical(try Audio.read(setup.path("probe-2.wav")), try Audio.read(setup.path("probe-1.wav")))

        // Names of no plugin, or of several, get the errors and suggestions of a world of every bundle.
        let typo = try render("eg-amq", "typo.wav")
        XCTAssertEqual(typo.status, 1)
        XCTAssertTrue(typo.stderr.contains("broken.lv2"), typo.stderr)
        XCTAssertTrue(typo.stderr.contains("no installed LV2 plugin is called `eg-amq`"), typo.stderr)
        XCTAssertTrue(typo.stderr.contains("did you mean `eg-amp`?"), typo.stderr)
        let ambiguous = try render("xfade", "ambiguous.wav")
        XCTAssertEqual(ambiguous.status, 1)
        XCTAssertTrue(ambiguous.stderr.contains("broken.lv2"), ambiguous.stderr)
        XCTAssertTrue(ambiguous.stderr.contains("plugin name `xfade` is ambiguous"), ambiguous.stderr)
    }

    func testAGarbledIndexIsIgnoredAndMadeAgain() throws {
        let setup = try makeSetup()
        try Audio.noise(channels: 1, frames: 2400, amplitude: 0.5, seed: 13).write(setup.path("in.wav"))
        let arguments = ["render", "--chain", "eg-amp", "-i", setup.path("in.wav"), "--tail", "0", "--quiet", "-o"]
        XCTAssertEqual(try setup.fxhost(arguments + [setup.path("a.wav")]).status, 0)
        let index = setup.path("cache/fxhost/" + (try XCTUnwrap(setup.indexFiles.first)))
        try "fxhost plugin bundles 2\nplugin\n".write(toFile: index, atomically: true, encoding: .utf8)
        let garbled = try setup.fxhost(arguments + [setup.path("b.wav")])
        XCTAssertEqual(garbled.status, 0, garbled.stderr)
        XCTAssertTrue(garbled.stderr.contains("broken.lv2"), "every bundle read: \(garbled.stderr)")
        let mended = try setup.fxhost(arguments + [setup.path("c.wav")])
        XCTAssertEqual(mended.stderr, "", "the index was written again")
        XCTAssertIdentical(try Audio.read(setup.path("c.wav")), try Audio.read(setup.path("a.wav")))
    }

    func testACacheFolderThatCannotBeWrittenLeavesEveryRenderLoadingEverything() throws {
        let setup = try makeSetup()
        try Audio.noise(channels: 1, frames: 2400, amplitude: 0.5, seed: 14).write(setup.path("in.wav"))
        try "not a folder".write(toFile: setup.path("cache-file"), atomically: true, encoding: .utf8)
        for output in ["a.wav", "b.wav"] {
            let result = try setup.fxhost(["render", "--chain", "eg-amp", "-i", setup.path("in.wav"), "-o", setup.path(output),
                                           "--tail", "0", "--quiet"], cache: "cache-file")
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains("broken.lv2"), "every bundle read: \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("fxhost:"), "no error or warning of fxhost's own: \(result.stderr)")
        }
        XCTAssertIdentical(try Audio.read(setup.path("b.wav")), try Audio.read(setup.path("in.wav")), "eg-amp at 0 dB")
    }
}
