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
package final class OSCFrontEnd: LiveFrontEnd, Sendable {
    package let endpoint: OSCEndpoint
    private let socket: Int32
    /// The host's inbox and wake-up, from `start`.
    private let host = Mutex<(inbox: ControlInbox, wake: @Sendable () -> Void)?>(nil)
    private let session = Mutex<LiveSession?>(nil)
    private let ignoredCount = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// Each subscriber, with the meter rate it asked for (nil: no meters).
    private let subscribers = Mutex<[OSCEndpoint: Double?]>([:])
    /// The run loop's side of meters: each metered subscriber's peak reader
    /// and when its next meters are due (seconds of `MonotonicClock`).
    private let meterSchedule = Mutex<[OSCEndpoint: (reader: OutputPeakReaders.Reader, due: Double)]>([:])
    private let thread = Mutex<PosixThread?>(nil)

    /// Binds the socket (so a port in use is an error before the run starts).
    package init(endpoint: OSCEndpoint) throws(FrontEndError) {
        self.endpoint = endpoint
        socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard socket >= 0 else { throw FrontEndError("--osc: cannot open a UDP socket (\(String(cString: strerror(errno))))") }
        // Woken five times a second to see whether the run has ended.
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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
        self.host.withLock { $0 = (host.inbox, host.wake) }
        session.withLock { $0 = host.session }
        host.dispatcher.addListener { [self] in announce($0) }
        host.dispatcher.amendStatus = { [self] in $0.oscIgnored = ignored }
        let reader = try PosixThread(name: "fxhost osc") { [self] in receive() }
        thread.withLock { $0 = reader }
    }

    package func service(now: Double) -> LiveFrontEndOutcome {
        if let session = session.withLock({ $0 }) { sendMeters(from: session, now: now) }
        return .keepRunning
    }

    /// The next subscriber's meters.
    package func nextDeadline() -> Double? {
        meterSchedule.withLock { $0.values.map(\.due).min() }
    }

    /// Ends the reading thread and closes the socket; after the loop, so nothing sends any more.
    package func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        thread.withLock { $0.take() }?.join()
        close(socket)
    }

    /// On the host's thread: every change from any front end goes to the subscribers.
    func announce(_ change: ControlChange) {
        guard let message = Self.message(for: change) else { return }
        for subscriber in subscribers.withLock({ $0.keys }) { send(message, to: subscriber) }
    }

    /// On the host's thread, each time it wakes: each metered subscriber gets
    /// `/fxhost/meters` for every output node, at its rate, with the peaks
    /// since its previous meters (its own reader, so neither the status
    /// line nor another subscriber takes them).
    func sendMeters(from session: LiveSession, now: Double) {
        let wanted = subscribers.withLock { $0 }
        var due: [(OSCEndpoint, OutputPeakReaders.Reader)] = []
        meterSchedule.withLock { schedule in
            for (subscriber, entry) in schedule where (wanted[subscriber] ?? nil) == nil {
                session.removeMeterReader(entry.reader)
                schedule[subscriber] = nil
            }
            for case let (subscriber, hertz?) in wanted {
                guard let entry = schedule[subscriber] else {
                    schedule[subscriber] = (session.addMeterReader(), now + 1 / hertz)
                    continue
                }
                guard now >= entry.due else { continue }
                // Late turns do not bunch up meters: the next is one period on.
                schedule[subscriber]!.due = max(entry.due + 1 / hertz, now)
                due.append((subscriber, entry.reader))
            }
        }
        for (subscriber, reader) in due {
            for meter in session.meters(reader) {
                send(OSCMessage("/fxhost/meters", [.string(meter.node)] + meter.decibels.map { .float(Float($0)) }),
                     to: subscriber)
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
            guard count >= 0 else { continue }  // the timeout, or a signal: look at `stopping` again
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
        guard let (inbox, wake) = host.withLock({ $0 }) else { return }
        let source = ControlSource.osc(sender: sender.description)
        switch request {
        case .control(let command):
            let address = CommandTable.spec(of: command).oscAddress
            inbox.post(command, from: source) { [self] result in
                switch result {
                case .failure(let error):
                    send(OSCMessage("/fxhost/error", [.string(error.description)]), to: sender)
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
        case .json(let text):
            let command: ControlCommand
            do {
                command = try ControlProtocol.command(fromJSON: text)
            } catch {
                send(OSCMessage("/fxhost/json", [.string(ControlProtocol.refusal(error.description).text)]), to: sender)
                return
            }
            inbox.post(command, from: source) { [self] result in
                send(OSCMessage("/fxhost/json", [.string(ControlProtocol.reply(result).text)]), to: sender)
            }
        case .subscribe(let meterHertz):
            subscribers.withLock { $0[sender] = .some(meterHertz) }
            wake()  // the host sets up the meters
        case .unsubscribe:
            subscribers.withLock { _ = $0.removeValue(forKey: sender) }
            wake()
        }
    }

    private func refuse(_ sentence: String, to sender: OSCEndpoint, counted: Bool) {
        if counted { ignoredCount.add(1, ordering: .relaxed) }
        send(OSCMessage("/fxhost/error", [.string(sentence)]), to: sender)
    }

    /// Best effort, never blocking: a reply that cannot be sent is dropped, as UDP would.
    private func send(_ message: OSCMessage, to receiver: OSCEndpoint) {
        let bytes = message.encoded()
        var address = receiver.socketAddress
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                bytes.withUnsafeBytes {
                    sendto(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT), target, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
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
        case .transport(let rolling):
            return OSCMessage("/fxhost/transport", [.int(rolling ? 1 : 0)])
        case .learning(let node, let parameter):
            return OSCMessage("/fxhost/learn", [.string(node), .string(parameter)])
        case .unmapped(let node, let parameter):
            return OSCMessage("/fxhost/unlearn", [.string(node), .string(parameter)])
        case .mapped(let mapping):
            // What learn made: the parameter, then the mapping as the patch writes it.
            return OSCMessage("/fxhost/mapped", [.string(mapping.destination), .string(mapping.description)])
        case .saved(let file):
            return OSCMessage("/fxhost/save", [.string(file)])
        case .patchReloaded(let added, let removed, let rewired):
            // The nodes added, then removed, each as `+name` or `-name`; 1 when the wiring changed.
            return OSCMessage("/fxhost/reloaded", [.int(rewired ? 1 : 0)]
                              + added.map { .string("+" + $0) } + removed.map { .string("-" + $0) })
        case .patchRefused(let reason):
            return OSCMessage("/fxhost/refused", [.string(reason)])
        }
    }
}
