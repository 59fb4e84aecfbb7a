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
