import Foundation
import HostCore
import JackIO
import XCTest

/// What OSC peers can make `fxhost run --osc` keep, from python-osc
/// clients: at most 16 subscribers, and nothing kept for peers gone.
final class OSCSubscriptionRunTests: XCTestCase {
    /// 20 sockets subscribe in turn; a change made then reaches only the
    /// 16 newest. (The newest is waited for: the host sends a change to its
    /// subscribers oldest first, and loopback delivers within the send, so
    /// by then every other subscriber has what it will get.)
    func testOnlyTheSixteenNewestSubscribersHearAChange() throws {
        let (server, _, port, run) = try OSCRunTests.startAmpRun()
        defer { withExtendedLifetime(server) {} }
        let client = try Tools.run("python3", ["-c", OSCRunTests.clientStart + """
            subscribe = OscMessageBuilder(address="/fxhost/subscribe").build().dgram
            subscribers = []
            for _ in range(20):
                subscriber = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                subscriber.bind(("127.0.0.1", 0))
                subscriber.settimeout(30)
                subscriber.sendto(subscribe, fxhost)
                subscribers.append(subscriber)
            send("/fxhost/set", "amp", "gain", -6.0)
            newest = OscMessage(subscribers[-1].recvfrom(65536)[0])
            assert newest.address == "/fxhost/param", newest.address
            heard = [19]
            for number, subscriber in enumerate(subscribers[:-1]):
                subscriber.setblocking(False)
                try:
                    message = OscMessage(subscriber.recvfrom(65536)[0])
                    heard.append(number)
                except BlockingIOError:
                    pass
            print(json.dumps(sorted(heard)))
            """, "\(port)"])
        XCTAssertEqual(client.status, 0, "python-osc (scripts/install-deps.sh) must be installed: \(client.stderr)")
        XCTAssertEqual(client.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "[\((4..<20).map(String.init).joined(separator: ", "))]")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }

    /// 1,000 subscriptions with 50 meters a second, each from a socket
    /// closed at once: the host keeps at most 16, drops each as its meters
    /// come back unreachable, and then sleeps as an idle host does (counted
    /// from outside: the voluntary context switches of its main thread).
    func testSubscribersThatAreGoneCostNothing() throws {
        let (server, _, port, run) = try OSCRunTests.startAmpRun(seconds: 30)
        defer { withExtendedLifetime(server) {} }
        let client = try Tools.run("python3", ["-c", OSCRunTests.clientStart + """
            subscribe = OscMessageBuilder(address="/fxhost/subscribe")
            subscribe.add_arg(50.0)
            subscribe = subscribe.build().dgram
            for _ in range(1000):
                gone = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                gone.bind(("127.0.0.1", 0))
                gone.sendto(subscribe, fxhost)
                gone.close()
            sock.settimeout(3)
            for attempt in range(10):
                send("/fxhost/status")
                try:
                    print(OscMessage(sock.recvfrom(65536)[0]).address)
                    break
                except socket.timeout:
                    print("no reply", attempt, file=sys.stderr)
            """, "\(port)"])
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertEqual(client.stdout, "/fxhost/status\n", client.stderr)
        print("status requests unanswered: \(client.stderr)")
        let pid = run.processIdentifier
        func sample() -> (switches: Int, cpuTicks: Int)? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
                  let switches = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
            // utime and stime, the 14th and 15th fields (after the command's closing parenthesis: 12th and 13th).
            let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
            return (switches, (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0))
        }
        Thread.sleep(forTimeInterval: 1)  // the meters' first turn: a period after each subscription
        let before = sample()
        Thread.sleep(forTimeInterval: 3)
        let after = sample()
        XCTAssertNotNil(before)
        if let before, let after {
            let cpu = Double(after.cpuTicks - before.cpuTicks) / Double(sysconf(Int32(_SC_CLK_TCK))) / 3 * 100
            print("OSC peers gone: the host's thread woke \(after.switches - before.switches) times in 3 s; fxhost used "
                  + String(format: "%.1f", cpu) + "% of a CPU")
            XCTAssertLessThan(after.switches - before.switches, 15,
                              "the host's thread woke \(after.switches - before.switches) times in 3 s for peers gone"
                              + " (the whole process used \(String(format: "%.1f", cpu))% of a CPU, the engine included)")
        }
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }
}
