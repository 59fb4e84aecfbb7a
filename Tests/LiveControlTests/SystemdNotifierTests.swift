import Foundation
import LiveControl
import TestSupport
import XCTest

/// systemd's notify protocol as fxhost speaks it, in process: what
/// `$NOTIFY_SOCKET` and `$WATCHDOG_USEC` may hold (the bounds from unix(7)'s
/// 108-byte `sun_path` and from the brief's 1 ms … 1 day), what a `STATUS=`
/// line may carry, and the datagrams a socket of the test's own receives
/// for each step of a run, the timer driven by hand.
final class SystemdNotifierTests: XCTestCase {
    // MARK: $NOTIFY_SOCKET

    func testAnAbsolutePathIsSentWithItsNULAndAnAbstractNameAfterANUL() throws {
        XCTAssertEqual(try SystemdNotifyAddress(parsing: "/run/systemd/notify").pathBytes,
                       Array("/run/systemd/notify".utf8) + [0])
        let abstract = try SystemdNotifyAddress(parsing: "@fxhost/notify")
        XCTAssertEqual(abstract.pathBytes, [0] + Array("fxhost/notify".utf8))
        XCTAssertTrue(abstract.isAbstract)
    }

    /// sun_path holds 108 bytes: a path of 107 and its NUL fit, 108 do not;
    /// an abstract name of 107 after its NUL fits, 108 do not.
    func testAnAddressLongerThanSunPathHoldsIsRefused() {
        XCTAssertNoThrow(try SystemdNotifyAddress(parsing: "/" + String(repeating: "a", count: 106)))
        XCTAssertThrowsError(try SystemdNotifyAddress(parsing: "/" + String(repeating: "a", count: 107))) {
            XCTAssertTrue("\($0)".contains("108 bytes long"), "\($0)")
        }
        XCTAssertNoThrow(try SystemdNotifyAddress(parsing: "@" + String(repeating: "a", count: 107)))
        XCTAssertThrowsError(try SystemdNotifyAddress(parsing: "@" + String(repeating: "a", count: 108)))
        // Multi-byte characters count as their bytes.
        XCTAssertThrowsError(try SystemdNotifyAddress(parsing: "/" + String(repeating: "é", count: 54)))
    }

    func testARelativePathOrAnotherKindOfAddressIsRefusedWithASentence() {
        for text in ["notify.sock", "run/systemd/notify", "./notify", "vsock:2:1234", "@", " /run/notify"] {
            XCTAssertThrowsError(try SystemdNotifyAddress(parsing: text), text) {
                XCTAssertTrue("\($0)".hasPrefix("$NOTIFY_SOCKET"), "\($0)")
                XCTAssertTrue("\($0)".hasSuffix("so systemd is not told anything"), "\($0)")
            }
        }
    }

    // MARK: $WATCHDOG_USEC

    func testAWatchdogFrom1msTo1DayIsKeptAtHalfItsTime() throws {
        func period(_ usec: String) throws -> Double? {
            try SystemdWatchdog.from(environment: ["WATCHDOG_USEC": usec], processID: 42)?.period
        }
        XCTAssertEqual(try period("200000"), 0.1)
        XCTAssertEqual(try period("1000"), 0.0005)
        XCTAssertEqual(try period("10000000"), 5)
        XCTAssertEqual(try period("86400000000"), 43_200)
        XCTAssertNil(try SystemdWatchdog.from(environment: [:], processID: 42))
    }

    func testAWatchdogValueThatIsNotDigitsOrOutOfBoundsIsRefused() {
        for text in ["abc", "0", "999", "86400000001", "99999999999999999999", "", "-5", "+5000", " 5000", "5000 ",
                     "5e6", "1_000_000", "٥٠٠٠"] {
            XCTAssertThrowsError(try SystemdWatchdog.from(environment: ["WATCHDOG_USEC": text], processID: 42), text) {
                XCTAssertTrue("\($0)".hasSuffix("so the watchdog is not kept"), "\($0)")
            }
        }
    }

    /// `$WATCHDOG_PID` naming another process: that process's watchdog, not ours.
    func testAWatchdogForAnotherProcessIsNotOurs() throws {
        XCTAssertEqual(try SystemdWatchdog.from(environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "42"],
                                                processID: 42)?.microseconds, 200_000)
        XCTAssertNil(try SystemdWatchdog.from(environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "43"],
                                              processID: 42))
        for pid in ["x", "", "-42", "99999999999", "4294967338"] {
            XCTAssertThrowsError(try SystemdWatchdog.from(environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": pid],
                                                          processID: 42), pid)
        }
    }

    // MARK: STATUS=

    func testAStatusLineHasNoControlCharactersAndAtMost200Bytes() {
        XCTAssertEqual(SystemdStatusText.line("a\nb\tc\u{7}d\u{85}e\u{7F}f\u{2028}g\u{1B}[2Jh"), "a b c d e f g [2Jh")
        XCTAssertEqual(SystemdStatusText.line(String(repeating: "é", count: 300)), String(repeating: "é", count: 100))
        // 199 bytes and a 2-byte character: the character would pass 200, so it goes.
        XCTAssertEqual(SystemdStatusText.line(String(repeating: "a", count: 199) + "é"), String(repeating: "a", count: 199))
        XCTAssertEqual(SystemdStatusText.line(String(repeating: "a", count: 250)).utf8.count, 200)
    }

    // MARK: the messages

    /// Each step of a run, as the datagrams a socket bound by the test
    /// receives: ready with its status, a ping when due and not before,
    /// a warning and the note that ends it, stopping; one datagram each.
    func testEachStepOfARunIsOneDatagram() throws {
        let folder = try makeScratchFolder(prefix: "fxhost-systemd")
        let sink = try DatagramSink(path: folder.appendingPathComponent("notify").path)
        var warnings: [String] = []
        let notifier = SystemdNotifier(playing: "amp.yaml on the JACK server rig",
                                       environment: ["NOTIFY_SOCKET": sink.path, "WATCHDOG_USEC": "200000"],
                                       processID: 42, warn: { warnings.append($0) })
        XCTAssertTrue(notifier.isActive)
        XCTAssertNil(notifier.nextDeadline(), "no ping before ready")
        notifier.ready()
        XCTAssertEqual(notifier.nextDeadline(), 0, "the first ping at once")
        _ = notifier.service(now: 10)
        XCTAssertEqual(notifier.nextDeadline() ?? -1, 10.1, accuracy: 1e-9)
        _ = notifier.service(now: 10.05)
        _ = notifier.service(now: 10.1)
        XCTAssertEqual(notifier.nextDeadline() ?? -1, 10.2, accuracy: 1e-9)
        notifier.note("reconnected to the JACK server; playing again", isWarning: false)  // no warning to end: nothing
        notifier.note("the JACK server shut down;\nwaiting", isWarning: true)
        notifier.note("reconnected to the JACK server; playing again", isWarning: false)
        notifier.stop()
        XCTAssertNil(notifier.nextDeadline())
        XCTAssertEqual(sink.receiveAll(), [
            "READY=1\nSTATUS=playing amp.yaml on the JACK server rig",
            "WATCHDOG=1",
            "WATCHDOG=1",
            "STATUS=warning: the JACK server shut down; waiting",
            "STATUS=reconnected to the JACK server; playing again",
            "STOPPING=1",
        ])
        XCTAssertEqual(notifier.undelivered, 0)
        XCTAssertEqual(warnings, [])
    }

    func testAnAbstractNameReachesItsSocket() throws {
        let name = "fxhost-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let sink = try DatagramSink(abstractName: name)
        let notifier = SystemdNotifier(playing: "x", environment: ["NOTIFY_SOCKET": "@" + name], warn: { XCTFail($0) })
        notifier.ready()
        notifier.stop()
        XCTAssertEqual(sink.receiveAll(), ["READY=1\nSTATUS=playing x", "STOPPING=1"])
    }

    /// No one listening (no socket file: ENOENT; a file no one holds:
    /// ECONNREFUSED): every message is counted, the operator warned once.
    func testMessagesNoOneTakesAreCountedAndWarnedAboutOnce() throws {
        let folder = try makeScratchFolder(prefix: "fxhost-systemd")
        let abandoned = folder.appendingPathComponent("abandoned").path
        _ = try DatagramSink(path: abandoned)  // closed at once, its file left behind
        for path in [folder.appendingPathComponent("missing").path, abandoned] {
            var warnings: [String] = []
            let notifier = SystemdNotifier(playing: "x", environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000"],
                                           warn: { warnings.append($0) })
            notifier.ready()
            _ = notifier.service(now: 1)
            _ = notifier.service(now: 2)
            notifier.stop()
            XCTAssertEqual(notifier.undelivered, 4, path)
            XCTAssertEqual(warnings.count, 1, "\(warnings)")
            let reason = path == abandoned ? "Connection refused" : "No such file or directory"
            XCTAssertTrue(warnings.first?.contains(reason) == true, "\(warnings)")
        }
    }

    /// Not a service of systemd's: nothing sent, nothing said, no timer.
    func testWithoutNotifySocketNothingHappens() {
        for environment in [["WATCHDOG_USEC": "200000"], ["NOTIFY_SOCKET": "", "WATCHDOG_USEC": "200000"]] {
            let notifier = SystemdNotifier(playing: "x", environment: environment, warn: { XCTFail($0) })
            XCTAssertFalse(notifier.isActive)
            notifier.ready()
            XCTAssertNil(notifier.nextDeadline())
            notifier.note("a warning", isWarning: true)
            notifier.stop()
            XCTAssertEqual(notifier.undelivered, 0)
        }
    }

    /// One warning for each thing the environment got wrong, and the rest works.
    func testAHostileEnvironmentIsOneWarningAndNoTrap() throws {
        let folder = try makeScratchFolder(prefix: "fxhost-systemd")
        let sink = try DatagramSink(path: folder.appendingPathComponent("notify").path)
        for usec in ["abc", "0", "99999999999999999999"] {
            var warnings: [String] = []
            let notifier = SystemdNotifier(playing: "x", environment: ["NOTIFY_SOCKET": sink.path, "WATCHDOG_USEC": usec],
                                           warn: { warnings.append($0) })
            XCTAssertEqual(warnings.count, 1, "\(warnings)")
            XCTAssertTrue(notifier.isActive, "the watchdog is dropped, not the notifications")
            notifier.ready()
            XCTAssertNil(notifier.nextDeadline(), "no ping for a watchdog not kept")
            notifier.stop()
            XCTAssertEqual(sink.receiveAll(), ["READY=1\nSTATUS=playing x", "STOPPING=1"])
        }
        for socket in ["relative.sock", "/" + String(repeating: "a", count: 300)] {
            var warnings: [String] = []
            let notifier = SystemdNotifier(playing: "x", environment: ["NOTIFY_SOCKET": socket, "WATCHDOG_USEC": "200000"],
                                           warn: { warnings.append($0) })
            XCTAssertEqual(warnings.count, 1, "\(warnings)")
            XCTAssertFalse(notifier.isActive)
            notifier.ready()
            XCTAssertNil(notifier.nextDeadline())
        }
    }
}

/// An AF_UNIX datagram socket bound by the test, as systemd binds its own:
/// written with the C calls here, not with fxhost's address code.
private final class DatagramSink {
    let path: String
    private let descriptor: Int32

    convenience init(path: String) throws {
        try self.init(path: path, pathBytes: Array(path.utf8) + [0])
    }

    /// In the abstract namespace: a NUL, then the name, the length exact.
    convenience init(abstractName: String) throws {
        try self.init(path: "@" + abstractName, pathBytes: [0] + Array(abstractName.utf8))
    }

    private init(path: String, pathBytes: [UInt8]) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let length = socklen_t(2 + pathBytes.count)  // sun_family's two bytes, then the path
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard descriptor >= 0, bound == 0 else {
            throw NSError(domain: "DatagramSink", code: Int(errno),
                          userInfo: [NSLocalizedDescriptionKey: "cannot bind \(path): \(String(cString: strerror(errno)))"])
        }
    }

    deinit { close(descriptor) }

    /// Every datagram waiting, in order, one string each.
    func receiveAll() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else { return messages }
            messages.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
    }
}
