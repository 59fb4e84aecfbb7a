import XCTest
@testable import HostCore

/// The one number format of messages, listings and labels. Oracle: the text
/// a reader expects, written out.
final class NumberTextTests: XCTestCase {
    func testWholeNumbersHaveNoDecimalPoint() {
        XCTAssertEqual(NumberText.format(2.0), "2")
        XCTAssertEqual(NumberText.format(-6.0), "-6")
        XCTAssertEqual(NumberText.format(Float(20_000)), "20000")
        XCTAssertEqual(NumberText.format(0.0), "0")
    }

    func testOtherNumbersAreTheShortestTextOfTheirType() {
        XCTAssertEqual(NumberText.format(0.25), "0.25")
        XCTAssertEqual(NumberText.format(Float(0.1)), "0.1", "not its Double widening, 0.10000000149011612")
        XCTAssertEqual(NumberText.format(Float(2.7182817)), "2.7182817")
        XCTAssertEqual(NumberText.format(-1.5), "-1.5")
    }

    func testHugeWholeNumbersUseAnExponent() {
        XCTAssertEqual(NumberText.format(1e16), "1e+16")
        XCTAssertEqual(NumberText.format(Float.greatestFiniteMagnitude), "3.4028235e+38")
    }
}
