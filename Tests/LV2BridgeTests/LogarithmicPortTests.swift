import Foundation
import HostCore
@testable import LV2Bridge
import XCTest

/// swh's triple-band parametric EQ marks its frequency controls
/// `pprops:logarithmic` (port-props). The oracle is the plugin's Turtle read
/// as text, not through lilv: one `:port [ … ]` block per port, no brackets
/// inside a block.
enum TriplePara {
    static let uri = "http://plugin.org.uk/swh-plugins/triplePara"
    static let turtle = "/usr/lib/lv2/triple_para-swh.lv2/plugin.ttl"

    /// Every port's symbol, and whether its block names port-props' logarithmic.
    static func declaredLogarithmic() throws -> [String: Bool] {
        let text = try String(contentsOfFile: turtle, encoding: .utf8)
        // The file's own prefix, so `pprops:logarithmic` is the property we mean.
        XCTAssertTrue(text.contains("@prefix pprops: <http://lv2plug.in/ns/ext/port-props#> ."), turtle)
        var declared: [String: Bool] = [:]
        for block in text.components(separatedBy: ":port [").dropFirst() {
            let body = String(block.prefix { $0 != "]" })
            let afterSymbol = try XCTUnwrap(body.components(separatedBy: ":symbol \"").dropFirst().first, body)
            declared[String(afterSymbol.prefix { $0 != "\"" })] = body.contains("pprops:logarithmic")
        }
        return declared
    }
}

final class LogarithmicPortTests: XCTestCase {
    func testThePortsTheTurtleMarksLogarithmicAreExactlyTheLogarithmicOnes() throws {
        let declared = try TriplePara.declaredLogarithmic()
        XCTAssertTrue(declared.values.contains(true) && declared.values.contains(false),
                      "the oracle needs ports of both kinds: \(declared)")

        let description = try XCTUnwrap(Installed.catalog.describe(TriplePara.uri))
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: description.ports.map { ($0.symbol, $0.isLogarithmic) }), declared)

        let unit = try Installed.unit(TriplePara.uri)
        XCTAssertFalse(unit.parameters.isEmpty)
        for parameter in unit.parameters {
            XCTAssertEqual(parameter.isLogarithmic, try XCTUnwrap(declared[parameter.symbol]), parameter.symbol)
        }
        XCTAssertEqual(Set(unit.parameters.filter(\.isLogarithmic).map(\.symbol)),
                       Set(declared.filter(\.value).keys))
        // By name: the low shelf's frequency is logarithmic, its gain not.
        XCTAssertEqual(unit.parameters.first { $0.symbol == "fc_L" }?.isLogarithmic, true)
        XCTAssertEqual(unit.parameters.first { $0.symbol == "gain_L" }?.isLogarithmic, false)
    }

    /// A plugin whose bundle never names the property: every parameter is linear.
    func testAPluginWithoutThePropertyHasNoLogarithmicParameter() throws {
        let bundle = "/usr/lib/lv2/mda.lv2"
        let turtles = try FileManager.default.contentsOfDirectory(atPath: bundle).filter { $0.hasSuffix(".ttl") }
        XCTAssertFalse(turtles.isEmpty)
        for file in turtles {
            let text = try String(contentsOfFile: bundle + "/" + file, encoding: .utf8)
            XCTAssertFalse(text.contains("logarithmic"), "\(file) names a logarithmic port: pick another plugin")
        }
        let unit = try Installed.unit("mda/Overdrive")
        XCTAssertFalse(unit.parameters.isEmpty)
        XCTAssertEqual(unit.parameters.filter(\.isLogarithmic).map(\.symbol), [])
    }
}
