import LV2Bridge
import XCTest

/// Message parameters (patch:writable, patch:readable) read from the
/// plugins' own Turtle files in Debian's packages: the x42 convolver's
/// impulse response, eg-sampler's sample and gain, eg-params' one of each
/// type and its reported LFO.
final class PropertyTests: XCTestCase {
    func testTheConvolverTakesItsImpulseResponseAsAFilePath() throws {
        let convolver = try XCTUnwrap(Installed.catalog.describe("http://gareus.org/oss/lv2/zeroconvolv#CfgMono"))
        let ir = try XCTUnwrap(convolver.properties.first { $0.shortName == "ir" })
        XCTAssertEqual(ir.uri, "http://gareus.org/oss/lv2/zeroconvolv#ir")
        XCTAssertEqual(ir.label, "Impulse Response")
        XCTAssertEqual(ir.valueType, .path)
        XCTAssertTrue(ir.isWritable)
    }

    func testSamplerAndParamsDeclareEachTypeWithItsRange() throws {
        let sampler = try XCTUnwrap(Installed.catalog.describe("http://lv2plug.in/plugins/eg-sampler"))
        XCTAssertEqual(sampler.properties.map(\.shortName), ["gain", "sample"])
        let gain = sampler.properties[0]
        XCTAssertEqual([gain.minimum, gain.maximum, gain.defaultValue], [-20, 20, 0])
        XCTAssertEqual(gain.valueType, .float)
        XCTAssertEqual(sampler.properties[1].valueType, .path)

        let params = try XCTUnwrap(Installed.catalog.describe("http://lv2plug.in/plugins/eg-params"))
        let writable = params.properties.filter(\.isWritable)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: writable.map { ($0.shortName, $0.valueType) }),
                       ["int": .int, "long": .long, "float": .float, "double": .double, "bool": .bool,
                        "string": .string, "path": .path, "spring": .float])
        XCTAssertEqual(params.properties.filter { !$0.isWritable }.map(\.shortName), ["lfo"])
        XCTAssertEqual(Installed.catalog.describe("http://lv2plug.in/plugins/eg-amp")?.properties, [], "ports only")
    }
}
