import Foundation
import HostCore
import JackIO
import LiveControl
import LV2Bridge
import Synchronization
import TestSupport
import XCTest

/// OSC packets, as bytes on the wire, through `OSCRequest` and the
/// `ControlInbox` into a live session on a private dummy server: a constant
/// 1 from a loopback client through eg-amp and back. This target links
/// RealtimeSanitizer and halts on a violation, so a burst of OSC traffic
/// that touched the realtime side unsafely would end the test.
final class OSCControlTests: XCTestCase {
    func testABurstOfOSCSetsFromAnotherThreadEndsAtTheLastValue() throws {
        let rig = try AmpRig(bufferFrames: 64)
        let (loopback, session, dispatcher) = (rig.loopback, rig.session, rig.dispatcher)
        dispatcher.amendStatus = { $0.oscIgnored = 7 }
        var heard = 0
        dispatcher.addListener { _ in heard += 1 }

        let inbox = ControlInbox()
        let sender = ControlSource.osc(sender: "127.0.0.1:9000")
        let posted = Atomic<Bool>(false)
        // 0, -0.1, ... -12 dB: the last one is what must be heard.
        let packets = (0...120).map { OSCMessage("/fxhost/set", [.string("amp"), .string("gain"), .float(-Float($0) / 10)]).encoded() }
        let poster = try PosixThread(name: "test osc") {
            for packet in packets {
                guard let message = try? OSCMessage.messages(in: packet).first,
                      case .control(let command) = try? OSCRequest(message) else { continue }
                inbox.post(command, from: sender)
            }
            posted.store(true, ordering: .releasing)
        }
        // Delivered while posting goes on, as the run loop does.
        XCTAssertTrue(eventually(within: 60) {
            _ = inbox.deliver(to: dispatcher)
            return posted.load(ordering: .acquiring) && heard == 121
        })
        poster.join()
        let expected = Float(Decibels.toLinear(-12))
        XCTAssertTrue(eventually(within: 60) { abs((loopback.latestFrame?.first ?? 0) - expected) < 1e-6 },
                      "heard \(String(describing: loopback.latestFrame)), expected \(expected)")
        guard case .status(let status) = try dispatcher.dispatch(.status, from: sender) else { return XCTFail("no status") }
        XCTAssertEqual(status.oscIgnored, 7, "a front end's count reaches every status")
        XCTAssertNil(session.status().oscIgnored, "absent from the session's own status")
        try session.finish()
    }
}
