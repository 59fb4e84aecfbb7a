import Foundation
import HostCore
import JackIO
import LiveControl
import LV2Bridge
import TestSupport
import XCTest

/// What an OSC peer can make a live host keep: subscriptions end unless
/// renewed, and a subscriber that cannot be reached is dropped. A live host
/// with an OSC front end on a private dummy server, driven by UDP sockets
/// of the test's own; what each socket receives is the oracle. A socket
/// that must hear nothing is checked after a later subscriber heard the
/// same change: the host sends a change to its subscribers in order,
/// oldest first, and loopback delivers within the send.
final class OSCSubscriptionTests: XCTestCase {
    func testASubscriptionEndsUnlessRenewed() throws {
        let rig = try OSCHostRig(subscriptionSeconds: 2)
        let lapsing = try UDPTestSocket(), renewing = try UDPTestSocket(), setter = try UDPTestSocket()
        lapsing.send(OSCMessage("/fxhost/subscribe"), to: rig.port)
        renewing.send(OSCMessage("/fxhost/subscribe"), to: rig.port)
        setter.send(rig.set(-1), to: rig.port)
        XCTAssertEqual(lapsing.receive(within: 30), rig.heard(-1), "subscribed")
        XCTAssertEqual(renewing.receive(within: 30), rig.heard(-1), "subscribed")
        // The host took both subscriptions before this (it answered the set after them), however late.
        let subscribed = Date()
        // Past the first subscription's end, renewing the second meanwhile.
        while Date().timeIntervalSince(subscribed) < 2.5 {
            renewing.send(OSCMessage("/fxhost/subscribe"), to: rig.port)
            Thread.sleep(forTimeInterval: 0.4)
        }
        setter.send(rig.set(-2), to: rig.port)
        XCTAssertEqual(renewing.receive(within: 30), rig.heard(-2), "renewed: still subscribed")
        XCTAssertNil(lapsing.pending(), "its subscription ended after 2 s")
        // Subscribing again is a subscription like the first.
        lapsing.send(OSCMessage("/fxhost/subscribe"), to: rig.port)
        setter.send(rig.set(-3), to: rig.port)
        XCTAssertEqual(lapsing.receive(within: 30), rig.heard(-3))
        try rig.quit(from: setter)
    }

    func testASubscriberThatCannotBeReachedIsDropped() throws {
        let rig = try OSCHostRig()
        let gone = try UDPTestSocket(), staying = try UDPTestSocket(), setter = try UDPTestSocket()
        gone.send(OSCMessage("/fxhost/subscribe"), to: rig.port)
        staying.send(OSCMessage("/fxhost/subscribe"), to: rig.port)
        setter.send(rig.set(-1), to: rig.port)
        XCTAssertEqual(gone.receive(within: 30), rig.heard(-1))
        XCTAssertEqual(staying.receive(within: 30), rig.heard(-1))
        let port = gone.port
        gone.close()
        // Sent to a closed port: the kernel's ICMP error says so, and the host drops it.
        setter.send(rig.set(-2), to: rig.port)
        XCTAssertEqual(staying.receive(within: 30), rig.heard(-2), "the others still hear every change")
        let back = try UDPTestSocket(port: port)  // the same port again, not subscribed
        setter.send(rig.set(-3), to: rig.port)
        XCTAssertEqual(staying.receive(within: 30), rig.heard(-3))
        XCTAssertNil(back.pending(), "the unreachable subscriber was dropped")
        try rig.quit(from: setter)
    }
}

/// eg-amp live on a private dummy server, run by a `LiveHost` on a thread
/// of its own with an OSC front end on a free port of 127.0.0.1.
final class OSCHostRig {
    let server: JackServerProcess
    let loopback: LoopbackClient
    let port: UInt16
    private let thread: PosixThread
    private let outcome: HostOutcome

    private final class HostOutcome: @unchecked Sendable {
        let host: LiveHost
        var reason: LiveHost.StopReason?
        var error: (any Error)?
        init(host: LiveHost) { self.host = host }
    }

    init(subscriptionSeconds: Double = OSCLimits.subscriptionSeconds) throws {
        server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        loopback = try LoopbackClient(server: server.name, constant: 1, channels: 1, capacity: 48_000 * 120)
        let graph = try AmpRig.graph()
        var options = LiveHost.Options()
        options.duration = 300  // a test that fails before its quit still ends
        let host = try LiveHost(graph: graph, session: LiveSession.Options(server: server), signals: nil, options: options)
        port = try UDPTestSocket.freePort()
        host.attach(try OSCFrontEnd(endpoint: OSCEndpoint(parsing: "127.0.0.1:\(port)"),
                                    subscriptionSeconds: subscriptionSeconds))
        let outcome = HostOutcome(host: host)
        self.outcome = outcome
        thread = try PosixThread(name: "test host") {
            do { outcome.reason = try outcome.host.run().reason } catch { outcome.error = error }
        }
    }

    func set(_ decibels: Float) -> OSCMessage {
        OSCMessage("/fxhost/set", [.string("amp"), .string("gain"), .float(decibels)])
    }

    /// What a subscriber hears for `set(decibels)`.
    func heard(_ decibels: Float) -> OSCMessage {
        OSCMessage("/fxhost/param", [.string("amp"), .string("gain"), .float(decibels)])
    }

    func quit(from socket: UDPTestSocket) throws {
        socket.send(OSCMessage("/fxhost/quit"), to: port)
        thread.join()
        if let error = outcome.error { throw error }
        XCTAssertEqual(outcome.reason, .quit)
    }
}

/// A UDP socket on 127.0.0.1 that sends OSC and reads what comes back.
final class UDPTestSocket {
    private var descriptor: Int32
    let port: UInt16

    /// On `port`, or one the kernel picks.
    init(port: UInt16 = 0) throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = descriptor
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, size) == 0 && getsockname(descriptor, $0, &size) == 0
            }
        }
        guard descriptor >= 0, bound else { throw POSIXError(.EADDRINUSE) }
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close() }

    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    static func freePort() throws -> UInt16 { try UDPTestSocket().port }

    func send(_ message: OSCMessage, to port: UInt16) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let bytes = message.encoded()
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, 0, target, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
    }

    /// The next message within `seconds`.
    func receive(within seconds: Double) -> OSCMessage? {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return read(flags: 0)
    }

    /// A message already here, without waiting.
    func pending() -> OSCMessage? { read(flags: Int32(MSG_DONTWAIT)) }

    private func read(flags: Int32) -> OSCMessage? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, flags) }
        guard count > 0 else { return nil }
        return try? OSCMessage.messages(in: Array(buffer[..<count])).first
    }
}
