import Foundation
import HostCore
import JackIO
import Synchronization

/// `fxhost run --osc`: OSC over UDP as a front end of the host. A thread
/// of its own reads packets and posts their commands to the host's
/// `ControlInbox` (it never calls the session, and nothing here touches the
/// realtime side); answers, errors and subscribers' changes are sent from
/// the host's thread, on the same socket. A packet that cannot be read, an
/// unknown address or wrong argument types are answered with
/// `/fxhost/error`, counted (`oscIgnored` in the status), and the run goes
/// on. Meters go to each subscriber that asked for them at its rate, on
/// the host's timer.
///
/// What a peer can make the host keep is bounded (`OSCLimits`): at most 16
/// subscribers, the one subscribed or renewed longest ago dropped for a
/// newer one; a subscription ends 30 s after it was made or last renewed;
/// and a subscriber the kernel reports unreachable (its socket closed: an
/// ICMP error, read with `IP_RECVERR`) is dropped at once.
package final class OSCFrontEnd: LiveFrontEnd, Sendable {
    package let endpoint: OSCEndpoint
    private let socket: Int32
    /// The host's inbox (which also wakes it), from `start`.
    private let host = Mutex<ControlInbox?>(nil)
    private let surface = Mutex<(any ControlSurface)?>(nil)
    private let ignoredCount = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// The subscribers, oldest (subscribed or renewed longest ago) first.
    private let subscriptions = Mutex(Subscriptions())
    /// How long a subscription lasts unless renewed.
    private let subscriptionSeconds: Double
    private let thread = Mutex<PosixThread?>(nil)

    /// One subscriber: where it is, the meter rate it asked for (nil: no
    /// meters), when it ends, and on the run loop's side its peak reader
    /// and when its next meters are due (seconds of `MonotonicClock`).
    private struct Subscriber {
        let endpoint: OSCEndpoint
        var meterHertz: Double?
        var expires: Double
        var reader: OutputPeakReaders.Reader?
        var due = 0.0
    }

    private struct Subscriptions {
        var subscribers: [Subscriber] = []
        /// Peak readers of subscribers gone, for the run loop to remove from the session.
        var retiredReaders: [OutputPeakReaders.Reader] = []

        mutating func remove(at index: Int) {
            if let reader = subscribers.remove(at: index).reader { retiredReaders.append(reader) }
        }
    }

    /// Binds the socket (so a port in use is an error before the run starts).
    /// `subscriptionSeconds`: how long a subscription lasts unless renewed.
    package init(endpoint: OSCEndpoint,
                 subscriptionSeconds: Double = OSCLimits.subscriptionSeconds) throws(FrontEndError) {
        self.endpoint = endpoint
        self.subscriptionSeconds = subscriptionSeconds
        socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard socket >= 0 else { throw FrontEndError("--osc: cannot open a UDP socket (\(String(cString: strerror(errno))))") }
        // Woken five times a second to see whether the run has ended.
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // ICMP errors for what we send (a subscriber's port closed) are queued for us to read.
        var on: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_IP), IP_RECVERR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = endpoint.socketAddress
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw FrontEndError("--osc: cannot listen on UDP \(endpoint) (\(reason))")
        }
    }

    /// Messages ignored so far: unreadable packets, unknown addresses, wrong argument types.
    package var ignored: Int { ignoredCount.load(ordering: .relaxed) }

    package func start(_ host: LiveHost) throws {
        self.host.withLock { $0 = host.inbox }
        surface.withLock { $0 = host.surface }
        host.surface.addListener { [self] in announce($0) }
        let earlier = host.surface.amendStatus  // another front end's count stays
        host.surface.amendStatus = { [self] in earlier?(&$0); $0.oscIgnored = ignored }
        let reader = try PosixThread(name: "fxhost osc") { [self] in receive() }
        thread.withLock { $0 = reader }
    }

    package func service(now: Double) -> LiveFrontEndOutcome {
        if let surface = surface.withLock({ $0 }) { sendMeters(from: surface, now: now) }
        return .keepRunning
    }

    /// The next subscriber's meters, or the next subscription's end.
    package func nextDeadline() -> Double? {
        subscriptions.withLock { subscriptions in
            // Now, for a reader to remove or to make.
            var next = subscriptions.retiredReaders.isEmpty ? Double.infinity : 0
            for subscriber in subscriptions.subscribers {
                next = min(next, subscriber.expires)
                if subscriber.meterHertz != nil { next = min(next, subscriber.reader == nil ? 0 : subscriber.due) }
            }
            return next.isFinite ? next : nil
        }
    }

    /// The subscribers now, oldest first.
    package var subscribers: [OSCEndpoint] {
        let now = LiveHost.now()
        return subscriptions.withLock { $0.subscribers.filter { $0.expires > now }.map(\.endpoint) }
    }

    /// Ends the reading thread and closes the socket; after the loop, so nothing sends any more.
    /// One never started (the run ended before it) still gives its descriptor back.
    deinit { stop() }

    package func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        thread.withLock { $0.take() }?.join()
        close(socket)
    }

    /// On the host's thread: every change from any front end goes to the subscribers.
    func announce(_ change: ControlChange) {
        guard let message = Self.message(for: change) else { return }
        for subscriber in subscribers { send(message, to: subscriber) }
    }

    /// On the host's thread, each time it wakes: subscriptions that ended
    /// are dropped, and each metered subscriber gets `/fxhost/meters` for
    /// every output node, at its rate, with the peaks since its previous
    /// meters (its own reader, so neither the status line nor another
    /// subscriber takes them). One pass over the subscribers; those due
    /// within `meterSlack` are served together, so the host wakes at most
    /// 1 / `meterSlack` times a second for meters however many subscribe.
    func sendMeters(from session: any ControlSurface, now: Double) {
        var due: [(OSCEndpoint, OutputPeakReaders.Reader)] = []
        let retired = subscriptions.withLock { subscriptions in
            var index = 0
            while index < subscriptions.subscribers.count {
                if subscriptions.subscribers[index].expires <= now {
                    subscriptions.remove(at: index)
                } else {
                    index += 1
                }
            }
            for index in subscriptions.subscribers.indices {
                let subscriber = subscriptions.subscribers[index]
                guard let hertz = subscriber.meterHertz else { continue }
                guard let reader = subscriber.reader else {
                    subscriptions.subscribers[index].reader = session.addMeterReader()
                    subscriptions.subscribers[index].due = now + 1 / hertz
                    continue
                }
                guard now + Self.meterSlack >= subscriber.due else { continue }
                // Late turns do not bunch up meters: the next is one period on.
                subscriptions.subscribers[index].due = max(subscriber.due + 1 / hertz, now)
                due.append((subscriber.endpoint, reader))
            }
            defer { subscriptions.retiredReaders = [] }
            return subscriptions.retiredReaders
        }
        for reader in retired { session.removeMeterReader(reader) }
        for (subscriber, reader) in due {
            for meter in session.meters(reader) {
                send(OSCMessage("/fxhost/meters", [.string(meter.node)] + meter.decibels.map { .float(Float($0)) }),
                     to: subscriber)
            }
        }
    }

    /// Meters due this soon are sent now: half the shortest period.
    private static let meterSlack = 0.5 / OSCRequest.maximumMeterHertz

    /// From the reading thread: a new subscriber, last in line (the oldest
    /// beyond `OSCLimits.maximumSubscribers` dropped), or one renewed, moved
    /// last with its new rate.
    private func subscribe(_ sender: OSCEndpoint, meterHertz: Double?) {
        let expires = LiveHost.now() + subscriptionSeconds
        subscriptions.withLock { subscriptions in
            var subscriber = Subscriber(endpoint: sender, meterHertz: meterHertz, expires: expires)
            if let index = subscriptions.subscribers.firstIndex(where: { $0.endpoint == sender }) {
                let old = subscriptions.subscribers.remove(at: index)
                if old.meterHertz == meterHertz {
                    (subscriber.reader, subscriber.due) = (old.reader, old.due)
                } else if let reader = old.reader {
                    subscriptions.retiredReaders.append(reader)
                }
            }
            subscriptions.subscribers.append(subscriber)
            while subscriptions.subscribers.count > OSCLimits.maximumSubscribers { subscriptions.remove(at: 0) }
        }
    }

    private func unsubscribe(_ sender: OSCEndpoint) {
        subscriptions.withLock { subscriptions in
            if let index = subscriptions.subscribers.firstIndex(where: { $0.endpoint == sender }) {
                subscriptions.remove(at: index)
            }
        }
    }

    private func receive() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !stopping.load(ordering: .relaxed) {
            var sender = sockaddr_in()
            var senderSize = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = buffer.withUnsafeMutableBytes { bytes in
                withUnsafeMutablePointer(to: &sender) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(socket, bytes.baseAddress, bytes.count, 0, $0, &senderSize)
                    }
                }
            }
            guard count >= 0 else {
                // A peer unreachable (reported here once), the timeout, or a signal: look at `stopping` again.
                if errno != EAGAIN && errno != EINTR { dropUnreachable() }
                continue
            }
            handle(Array(buffer[..<count]), from: OSCEndpoint(sender))
        }
    }

    private func handle(_ packet: [UInt8], from sender: OSCEndpoint) {
        let messages: [OSCMessage]
        do {
            messages = try OSCMessage.messages(in: packet)
        } catch {
            refuse(error.description, to: sender, counted: true)
            return
        }
        for message in messages {
            do {
                try handle(OSCRequest(message), from: sender)
            } catch {
                refuse(error.description, to: sender, counted: true)
            }
        }
    }

    private func handle(_ request: OSCRequest, from sender: OSCEndpoint) {
        guard let inbox = host.withLock({ $0 }) else { return }
        let source = ControlSource.osc(sender: sender.description)
        switch request {
        case .control(let command):
            let address = CommandTable.spec(of: command).oscAddress
            let taken = inbox.post(command, from: source) { [self] result in
                switch result {
                case .failure(let error):
                    send(Self.error(error.description), to: sender)
                case .success(.status(let status)):
                    // The same JSON as `status --json`.
                    guard let json = try? Terminal.json(status) else { return }
                    send(OSCMessage(address, [.string(json)]), to: sender)
                case .success(.state(let state)):
                    guard let json = try? Terminal.json(state) else { return }
                    send(OSCMessage(address, [.string(json)]), to: sender)
                case .success(let answer):
                    // A question's answer (`map`) as the protocol's reply; changes are announced.
                    if case .changed = answer { return }
                    if case .quit = answer { return }
                    send(OSCMessage(address, [.string(ControlProtocol.reply(.success(answer)).text)]), to: sender)
                }
            }
            if !taken { refuse(Self.busy, to: sender, counted: true) }
        case .json(let text):
            let command: ControlCommand
            do {
                command = try ControlProtocol.command(fromJSON: text)
            } catch {
                send(OSCMessage("/fxhost/json", [.string(ControlProtocol.refusal(error.description).text)]), to: sender)
                return
            }
            let taken = inbox.post(command, from: source) { [self] result in
                send(OSCMessage("/fxhost/json", [.string(ControlProtocol.reply(result).text)]), to: sender)
            }
            if !taken { send(OSCMessage("/fxhost/json", [.string(ControlProtocol.refusal(Self.busy).text)]), to: sender) }
        case .subscribe(let meterHertz):
            subscribe(sender, meterHertz: meterHertz)
            inbox.wakeHost()  // the host sets up the meters
        case .unsubscribe:
            unsubscribe(sender)
            inbox.wakeHost()
        }
    }

    /// A command refused because the host has as many waiting as it keeps.
    private static let busy = "fxhost has \(ControlInbox.capacity) commands waiting to be carried out; this one is refused, send it again"

    private func refuse(_ sentence: String, to sender: OSCEndpoint, counted: Bool) {
        if counted { ignoredCount.add(1, ordering: .relaxed) }
        send(Self.error(sentence), to: sender)
    }

    /// `/fxhost/error s:sentence`, the sentence as a terminal would show it
    /// (`TerminalText`): a peer's own words come back escaped and cut, not
    /// whole (a 60 KB name is not sent back whole).
    static func error(_ sentence: String) -> OSCMessage {
        OSCMessage("/fxhost/error", [.string(TerminalText.escaped(sentence))])
    }

    /// Best effort, never blocking: a reply that cannot be sent is dropped,
    /// as UDP would. An earlier packet's ICMP error is reported on whichever
    /// call on the socket comes next, so a failure first drops the peers the
    /// queued errors name and the send is tried again; a receiver it fails
    /// for twice (no route, say) stops being a subscriber.
    private func send(_ message: OSCMessage, to receiver: OSCEndpoint) {
        let bytes = message.encoded()
        var attempts = 0
        while true {
            attempts += 1
            var address = receiver.socketAddress
            let sent = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                    bytes.withUnsafeBytes {
                        sendto(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT), target, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            guard sent < 0 else { return }
            let failure = errno
            dropUnreachable()
            // A full socket buffer or an interrupted call says nothing about the receiver.
            if failure == EAGAIN || failure == EWOULDBLOCK || failure == ENOBUFS || failure == EINTR { return }
            // Too big for one datagram (a large `state`): the message's fault, not the
            // receiver's, who is told so instead of losing the subscription.
            if failure == EMSGSIZE {
                if message.address != "/fxhost/error" {
                    send(OSCMessage("/fxhost/error", [.string("the reply to \(message.address) is \(bytes.count) bytes, more "
                        + "than one UDP datagram holds; ask for less (/fxhost/state s:node) or use /fxhost/json")]), to: receiver)
                }
                return
            }
            // Refused is only ever an earlier packet's (UDP learns it from ICMP, later): each
            // report is one peer gone, and there are at most so many subscribers to go.
            if failure == ECONNREFUSED && attempts <= OSCLimits.maximumSubscribers + 1 { continue }
            if attempts >= 2 {
                if failure != ECONNREFUSED { unsubscribe(receiver) }
                return
            }
        }
    }

    /// Reads the ICMP errors queued for what this socket sent (`IP_RECVERR`):
    /// each names the peer a packet could not reach, which stops being a
    /// subscriber. Returns how many were read. From either thread.
    @discardableResult
    private func dropUnreachable() -> Int {
        var count = 0
        var control = [UInt8](repeating: 0, count: 256)
        while true {
            var peer = sockaddr_in()
            let received = withUnsafeMutablePointer(to: &peer) { peerPointer in
                control.withUnsafeMutableBytes { controlBytes in
                    var header = msghdr()
                    header.msg_name = UnsafeMutableRawPointer(peerPointer)
                    header.msg_namelen = socklen_t(MemoryLayout<sockaddr_in>.size)
                    header.msg_control = controlBytes.baseAddress
                    header.msg_controllen = controlBytes.count
                    return recvmsg(socket, &header, Int32(MSG_ERRQUEUE) | Int32(MSG_DONTWAIT))
                }
            }
            guard received >= 0 else { return count }
            count += 1
            unsubscribe(OSCEndpoint(peer))
        }
    }

    /// What subscribers receive for a change: the address that would make it, with `/fxhost/param` for a value.
    package static func message(for change: ControlChange) -> OSCMessage? {
        switch change.kind {
        case .parameter(let node, let parameter, let value):
            return OSCMessage("/fxhost/param", [.string(node), .string(parameter), .float(value)])
        case .property(let node, let property, let value):
            return OSCMessage("/fxhost/property", [.string(node), .string(property), .string(value)])
        case .bypass(let node, let on):
            return OSCMessage("/fxhost/bypass", [.string(node), .int(on ? 1 : 0)])
        case .presetApplied(let node, let name):
            return OSCMessage("/fxhost/preset", [.string(node), .string(name)])
        case .presetSaved(let node, let name, let bundle):
            return OSCMessage("/fxhost/preset/save", [.string(node), .string(name), .string(bundle)])
        case .tapStarted(let reference, let file):
            return OSCMessage("/fxhost/tap", [.string(reference.description), .string(file)])
        case .tapStopped(let take):
            return OSCMessage("/fxhost/untap", [.string(take.node), .string(take.file), .float(Float(take.seconds))])
        case .tapPaused(let take):
            return OSCMessage("/fxhost/tap/pause", [.string(take.node), .string(take.file), .float(Float(take.seconds))])
        case .tapResumed(let take):
            return OSCMessage("/fxhost/tap/resume", [.string(take.node), .string(take.file), .float(Float(take.seconds))])
        case .tapFailed(let take, let reason):
            // The node, the file, the seconds kept, why.
            return OSCMessage("/fxhost/tap/failed", [.string(take.node), .string(take.file), .float(Float(take.seconds)),
                                                     .string(reason)])
        case .connected(let from, let to, let gain):
            return OSCMessage("/fxhost/connect", [.string(from.description), .string(to.description), .float(Float(gain))])
        case .disconnected(let from, let to):
            return OSCMessage("/fxhost/disconnect", [.string(from.description), .string(to.description)])
        case .bounceStarted(let files):
            return OSCMessage("/fxhost/bounce/started", files.map { .string($0) })
        case .bounceFinished(let bounced):
            return OSCMessage("/fxhost/bounce/finished", [.float(Float(bounced.seconds)), .float(Float(bounced.speed))]
                              + bounced.files.map { .string($0) })
        case .bounceFailed(let reason):
            return OSCMessage("/fxhost/bounce/failed", [.string(reason)])
        case .sceneApplied(let name):
            return OSCMessage("/fxhost/scene", [.string(name)])
        case .tempo(let beatsPerMinute):
            return OSCMessage("/fxhost/tempo", [.float(Float(beatsPerMinute))])
        case .tempoTapped(let taps):
            return OSCMessage("/fxhost/tempo/tap", [.int(Int32(clamping: taps))])
        case .transport(let rolling):
            return OSCMessage("/fxhost/transport", [.int(rolling ? 1 : 0)])
        case .engineCrashed(let crash):
            // The sentence, then the node and the call ("" when unknown), and whether it is left out.
            return OSCMessage("/fxhost/crashed", [.string(crash.sentence), .string(crash.node ?? ""), .string(crash.call ?? ""),
                                                  .int(crash.leftOut ? 1 : 0)])
        case .restored(let node):
            return OSCMessage("/fxhost/restore", [.string(node)])
        case .learning(let node, let parameter):
            return OSCMessage("/fxhost/learn", [.string(node), .string(parameter)])
        case .unmapped(let node, let parameter):
            return OSCMessage("/fxhost/unlearn", [.string(node), .string(parameter)])
        case .mapped(let mapping, let replaced):
            // What learn made: the parameter, then the mapping as the patch
            // writes it, then each mapping it replaced, written the same way.
            return OSCMessage("/fxhost/mapped", [.string(mapping.destination), .string(mapping.description)]
                              + replaced.map { .string($0.description) })
        case .saved(let file):
            return OSCMessage("/fxhost/save", [.string(file)])
        case .patchReloaded(let added, let removed, let rewired):
            // The nodes added, then removed, each as `+name` or `-name`; 1 when the wiring changed.
            return OSCMessage("/fxhost/reloaded", [.int(rewired ? 1 : 0)]
                              + added.map { .string("+" + $0) } + removed.map { .string("-" + $0) })
        case .patchRefused(let reason):
            return OSCMessage("/fxhost/refused", [.string(reason)])
        case .patchSwitched(let name, let index):
            return OSCMessage("/fxhost/setlist", [.string(name), .int(Int32(index))])
        }
    }
}
