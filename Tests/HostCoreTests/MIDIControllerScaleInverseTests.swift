import HostCore
import XCTest

/// The controller value MIDI feedback sends for a parameter's value: the
/// inverse of the mapping, checked by arithmetic on the ranges.
final class MIDIControllerScaleInverseTests: XCTestCase {
    func testLinearIsTheRoundedPositionInTheRange() {
        let scale = MIDIControllerScale(low: -30, high: 6)
        XCTAssertEqual(scale.controller(value: -15), 53, "127 × 15/36 = 52.92")
        XCTAssertEqual(scale.controller(value: -6), 85, "127 × 24/36 = 84.67")
        XCTAssertEqual(scale.controller(value: -30), 0)
        XCTAssertEqual(scale.controller(value: 6), 127)
        XCTAssertEqual(scale.controller(value: 40), 127, "above the range: clamped")
        XCTAssertEqual(scale.controller(value: -1e30), 0, "below it: clamped")
        XCTAssertEqual(scale.controller(value: .nan), 0)
        XCTAssertEqual(scale.controller(value: .infinity), 0)
    }

    func testLogIsTheRoundedPositionOfTheLogarithm() {
        let scale = MIDIControllerScale(low: 20, high: 20_000, curve: .logarithmic)
        XCTAssertEqual(scale.controller(value: 200), 42, "log(10)/log(1000) = 1/3: 42.33")
        XCTAssertEqual(scale.controller(value: 2_000), 85, "2/3: 84.67")
        XCTAssertEqual(scale.controller(value: 20), 0)
        XCTAssertEqual(scale.controller(value: 20_000), 127)
        XCTAssertEqual(scale.controller(value: 0), 0, "no logarithm of 0: the bottom")
        XCTAssertEqual(scale.controller(value: -5), 0)
    }

    func testEveryControllerValueComesBackFromItsOwnValue() {
        for scale in [MIDIControllerScale(low: -30, high: 6), MIDIControllerScale(low: 20, high: 20_000, curve: .logarithmic),
                      MIDIControllerScale(low: 0.001, high: 1, curve: .logarithmic)] {
            for controller in 0...127 {
                XCTAssertEqual(Int(scale.controller(value: scale.value(controller: controller))), controller, "\(scale)")
            }
        }
    }

    func testASwitchIsZeroOr127() {
        let scale = MIDIControllerScale(low: 0, high: 1, stepping: .toggle)
        XCTAssertEqual(scale.controller(value: 1), 127)
        XCTAssertEqual(scale.controller(value: 0), 0)
        let enumeration = MIDIControllerScale(low: 0, high: 4, stepping: .integer)
        XCTAssertEqual(enumeration.controller(value: 3), 95, "127 × 3/4 = 95.25")
    }

    func testAnEmptyRangeSendsZero() {
        XCTAssertEqual(MIDIControllerScale(low: 2, high: 2).controller(value: 2), 0)
    }
}
