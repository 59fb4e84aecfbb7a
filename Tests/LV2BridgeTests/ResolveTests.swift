import HostCore
@testable import LV2Bridge
import XCTest

final class ResolveTests: XCTestCase {
    let catalog = Installed.catalog

    func testFullURI() throws {
        XCTAssertEqual(try catalog.resolve("http://drobilla.net/plugins/mda/Overdrive").uri,
                       "http://drobilla.net/plugins/mda/Overdrive")
    }

    func testShortNamesCaseInsensitive() throws {
        XCTAssertEqual(try catalog.resolve("Overdrive").uri, "http://drobilla.net/plugins/mda/Overdrive")
        XCTAssertEqual(try catalog.resolve("mda/overdrive").uri, "http://drobilla.net/plugins/mda/Overdrive")
        XCTAssertEqual(try catalog.resolve("fil4#stereo").uri, "http://gareus.org/oss/lv2/fil4#stereo")
        XCTAssertEqual(try catalog.resolve("eg-amp").uri, "http://lv2plug.in/plugins/eg-amp")
    }

    /// `xfade` is both x42's and swh's crossfade; the longer name picks one.
    func testAmbiguousNameListsCandidates() throws {
        XCTAssertThrowsError(try catalog.resolve("XFade")) { error in
            let message = (error as? UnitError)?.message ?? ""
            XCTAssertEqual(message, "plugin name `XFade` is ambiguous: it matches 2 plugins: "
                + "http://gareus.org/oss/lv2/xfade, http://plugin.org.uk/swh-plugins/xfade")
        }
        XCTAssertEqual(try catalog.resolve("swh-plugins/xfade").uri, "http://plugin.org.uk/swh-plugins/xfade")
    }

    func testUnknownNameSuggests() throws {
        XCTAssertThrowsError(try catalog.resolve("mda/Overdrvie")) { error in
            let unitError = error as? UnitError
            XCTAssertEqual(unitError?.message, "no installed LV2 plugin is called `mda/Overdrvie`")
            XCTAssertEqual(unitError?.suggestion, "did you mean `mda/Overdrive`?")
        }
    }

    /// Near misses that are no typo: every word of the name is in the
    /// plugin's name or URI (x42's convolvers are named "x42 - IR Convolver
    /// Mono" and so on, at .../zeroconvolv#CfgMono), else its rarest word is.
    func testANameMadeOfWordsSuggestsThePluginsWithThoseWords() {
        func suggestion(_ reference: String) -> String? {
            do {
                _ = try catalog.resolve(reference)
                return "resolved"
            } catch {
                return error.suggestion
            }
        }
        XCTAssertEqual(suggestion("x42-convolver"), "did you mean one of `zeroconvolv#CfgMono`, "
            + "`zeroconvolv#CfgMonoToStereo`, `zeroconvolv#CfgStereo`, `zeroconvolv#Mono`, "
            + "`zeroconvolv#MonoToStereo`, `zeroconvolv#Stereo`?")
        XCTAssertEqual(suggestion("IR Convolver"),
                       "did you mean one of `zeroconvolv#CfgMono`, `zeroconvolv#CfgMonoToStereo`, `zeroconvolv#CfgStereo`?")
        XCTAssertEqual(suggestion("gverb-stereo"), "did you mean `gverb`?")
        // `foo` is in no plugin: the suggestion is what `fxhost plugins x42` lists, counted past eight.
        let x42 = catalog.search("x42")
        XCTAssertGreaterThan(x42.count, 8)
        XCTAssertEqual(suggestion("x42-foo"), "did you mean one of `darc#mono`, `darc#stereo`, `dpl#mono`, "
            + "`dpl#stereo`, `fat1`, `fat1#microtonal`, `fat1#scales`, `fil4#mono` or \(x42.count - 8) more "
            + "(`fxhost plugins x42` lists them)?")
        XCTAssertNil(suggestion("qqqq-zzzz"))
    }

    func testSearchMatchesNameAndURI() {
        let found = catalog.search("overdrive").map(\.uri)
        XCTAssertTrue(found.contains("http://drobilla.net/plugins/mda/Overdrive"))
        XCTAssertTrue(catalog.search("OVERDRIVE").map(\.uri) == found)
        XCTAssertEqual(catalog.search("").count, catalog.plugins.count)
    }

    /// Port facts as lv2info prints them for mda Overdrive and eg-amp.
    func testDescriptionReadsPorts() throws {
        let overdrive = try catalog.resolve("mda/Overdrive")
        XCTAssertEqual(overdrive.ports.map(\.symbol),
                       ["drive", "muffle", "output", "left_in", "right_in", "left_out", "right_out"])
        XCTAssertEqual(overdrive.mainAudioInputs.map(\.symbol), ["left_in", "right_in"])
        XCTAssertEqual(overdrive.mainAudioOutputs.map(\.symbol), ["left_out", "right_out"])
        let amp = try catalog.resolve("eg-amp")
        let gain = try XCTUnwrap(amp.ports.first { $0.symbol == "gain" })
        XCTAssertEqual(gain.kind, .control)
        XCTAssertEqual(gain.minimum, -90)
        XCTAssertEqual(gain.maximum, 24)
        XCTAssertEqual(gain.defaultValue, 0)
        let json = try JSONEncoder().encode(amp)
        XCTAssertEqual(try JSONDecoder().decode(PluginDescription.self, from: json), amp)
    }
}
