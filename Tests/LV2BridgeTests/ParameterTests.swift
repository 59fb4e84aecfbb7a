import HostCore
@testable import LV2Bridge
import XCTest

/// mda Overdrive (named "MDA Overdrive"): drive/muffle/output in 0…1. mda Combo: `model` is an
/// enumeration (0 = "D.I. (flat frequency response)"), `stereo` a toggle.
final class ParameterTests: XCTestCase {
    func message(_ body: () throws -> Void) -> String? {
        do { try body() } catch let error as UnitError { return error.description } catch { return "\(error)" }
        return nil
    }

    func testOutOfRangeNamesTheRange() throws {
        let unit = try Installed.unit("mda/Overdrive")
        XCTAssertEqual(message { try unit.setParameter("drive", to: .number(1.5)) },
                       "`drive` is 1.5, outside its range 0…1")
        XCTAssertEqual(message { try unit.setParameter("drive", to: .number(-0.25)) },
                       "`drive` is -0.25, outside its range 0…1")
        try unit.setParameter("drive", to: .number(0.7))
        XCTAssertEqual(unit.parameterValue("drive"), 0.7)
    }

    func testUnknownSymbolSuggests() throws {
        let unit = try Installed.unit("mda/Overdrive")
        XCTAssertEqual(message { try unit.setParameter("driv", to: .number(0.5)) },
                       "`MDA Overdrive` has no parameter `driv` (did you mean `drive`?)")
        XCTAssertNil(unit.parameterValue("driv"))
    }

    func testToggleAcceptsBoolAndZeroOne() throws {
        let unit = try Installed.unit("mda/Combo")
        try unit.setParameter("stereo", to: .toggle(true))
        XCTAssertEqual(unit.parameterValue("stereo"), 1)
        try unit.setParameter("stereo", to: .number(0))
        XCTAssertEqual(unit.parameterValue("stereo"), 0)
        XCTAssertEqual(message { try unit.setParameter("stereo", to: .number(0.5)) },
                       "`stereo` is a toggle and takes 0 or 1 (or true/false), not 0.5")
        XCTAssertEqual(message { try unit.setParameter("drive", to: .toggle(true)) },
                       "`drive` is not a toggle; give it a number in its range 0…1")
    }

    func testEnumerationAcceptsLabelsAndListsThem() throws {
        let unit = try Installed.unit("mda/Combo")
        try unit.setParameter("model", to: .label("d.i. (flat frequency response)"))
        XCTAssertEqual(unit.parameterValue("model"), 0)
        try unit.setParameter("model", to: .label("Small combo (close mic)"))
        XCTAssertEqual(unit.parameterValue("model"), 0.5)
        try unit.setParameter("model", to: .number(1))
        XCTAssertEqual(unit.parameterValue("model"), 1)
        let error = try XCTUnwrap(message { try unit.setParameter("model", to: .label("Small combo")) })
        XCTAssertTrue(error.hasPrefix("`model` has no option \"Small combo\"; its options are: "
            + "\"D.I. (flat frequency response)\" (0), "), error)
        XCTAssertTrue(error.contains("\"Large stack (side mic, scooped mids)\" (1)"), error)
        XCTAssertEqual(message { try unit.setParameter("drive", to: .label("loud")) },
                       "`drive` takes a number in its range 0…1, not \"loud\"")
    }

    /// eg-amp's gain is a plain float; swh's `amp` is not an integer port either,
    /// so the integer rule is checked on a port marked lv2:integer.
    func testIntegerPortsTakeWholeNumbers() throws {
        let integerPort = Installed.catalog.plugins.lazy.compactMap { plugin -> (String, PortDescription)? in
            guard let port = plugin.ports.first(where: {
                $0.kind == .control && $0.direction == .input && $0.isInteger && !$0.isEnumeration
                    && !$0.isToggle && $0.designation == nil && ($0.maximum ?? 0) - ($0.minimum ?? 0) >= 2
            }) else { return nil }
            return (plugin.uri, port)
        }.first
        let (uri, port) = try XCTUnwrap(integerPort, "no installed plugin has an integer control port")
        let unit = try Installed.unit(uri)
        let whole = Double((port.minimum ?? 0).rounded(.up)) + 1
        try unit.setParameter(port.symbol, to: .number(whole))
        XCTAssertEqual(unit.parameterValue(port.symbol), Float(whole))
        XCTAssertEqual(message { try unit.setParameter(port.symbol, to: .number(whole + 0.5)) },
                       "`\(port.symbol)` takes whole numbers, not \(whole + 0.5)")
    }
}
