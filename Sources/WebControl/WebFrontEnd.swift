import Foundation
import HostCore
import JackIO
import LiveControl
import Synchronization

/// `fxhost run --web`: a page and an API over HTTP and WebSocket as a front
/// end of the host. The server (`WebServer`) runs on NIO's threads and
/// only posts commands to the host's `ControlInbox`, awaiting the reply;
/// it never calls the session. On the host's thread this front end hears
/// every change (and every refusal) and hands it, as the protocol's JSON
/// event, to each open event stream without blocking, and sends meters to
/// the streams that asked for them, at their rate, from their own peak
/// readers. What a client can make the host keep is bounded (`WebLimits`).
package final class WebFrontEnd: LiveFrontEnd, Sendable {
    /// How a command posted from a request ended.
    enum Outcome: Sendable {
        case answered(Result<ControlResult, ControlError>)
        /// The inbox holds as many commands as it keeps.
        case busy
        /// The run is not playing (not yet, or no more).
        case notRunning
    }

    /// One open event stream: where its messages go, the meter rate it
    /// asked for (nil: none), and on the host's side its peak reader and
    /// when its next meters are due.
    private struct Stream {
        let continuation: AsyncStream<String>.Continuation
        var meterHertz: Double?
        var reader: OutputPeakReaders.Reader?
        var due = 0.0
    }

    private struct Streams {
        var opened = 0
        var open: [Int: Stream] = [:]
        /// Peak readers of streams gone, for the host's thread to remove from the session.
        var retiredReaders: [OutputPeakReaders.Reader] = []
    }

    private struct Pending {
        var made = 0
        var waiting: [Int: CheckedContinuation<Outcome, Never>] = [:]
        var ended = false
    }

    private let host = Mutex<ControlInbox?>(nil)
    private let surface = Mutex<(any ControlSurface)?>(nil)
    private let refusedCount = Atomic<Int>(0)
    private let streams = Mutex(Streams())
    private let pending = Mutex(Pending())
    private let server = Mutex<WebServer?>(nil)
    /// The folder web paths are confined to, known once started.
    private let folder = Mutex<String?>(nil)
    /// Who may use it, with the port bound.
    package let access: WebAccess

    /// Binds the port (so a port in use is an error before the run starts)
    /// and serves; commands wait until `start`. Off loopback a token is
    /// required: `token`, or one generated here.
    package init(endpoint: WebEndpoint, token: String?) throws(FrontEndError) {
        let token = token ?? (endpoint.isLoopback ? nil : WebAccess.generatedToken())
        let bound = try WebServer.bind(endpoint)
        access = WebAccess(endpoint: WebEndpoint(host: endpoint.host, port: bound.port), token: token)
        server.withLock { $0 = bound }
        bound.serve(self)
    }

    /// The page's address, with the token when there is one (`web: URL` is printed at start).
    package var url: String {
        let host = access.endpoint.isWildcard ? (access.endpoint.host == "::" ? "[::1]" : "127.0.0.1") : access.endpoint.urlHost
        return "http://\(host):\(access.endpoint.port)/" + (access.token.map { "?token=\($0)" } ?? "")
    }

    /// Requests and WebSocket messages refused before reaching the session.
    package var refused: Int { refusedCount.load(ordering: .relaxed) }

    func countRefusal() { refusedCount.add(1, ordering: .relaxed) }

    package func start(_ host: LiveHost) throws {
        self.host.withLock { $0 = host.inbox }
        surface.withLock { $0 = host.surface }
        folder.withLock { $0 = host.surface.remotePaths.folder }
        host.surface.addListener { [self] change in broadcast(ControlProtocol.event(change).text) }
        host.surface.addRefusalListener { [self] refusal in
            broadcast(JSONValue.object(["v": .number(1), "event": .string("refused"), "source": .string(refusal.source.description),
                                        "error": .string(refusal.description)]).text)
        }
        let earlier = host.surface.amendStatus  // another front end's count stays
        host.surface.amendStatus = { [self] in earlier?(&$0); $0.webRefused = refused }
    }

    package func service(now: Double) -> LiveFrontEndOutcome {
        if let surface = surface.withLock({ $0 }) { sendMeters(from: surface, now: now) }
        return .keepRunning
    }

    package func nextDeadline() -> Double? {
        streams.withLock { streams in
            var next = streams.retiredReaders.isEmpty ? Double.infinity : 0
            for stream in streams.open.values where stream.meterHertz != nil {
                next = min(next, stream.reader == nil ? 0 : stream.due)
            }
            return next.isFinite ? next : nil
        }
    }

    deinit { stop() }

    /// Ends every stream and request still waiting, then the server.
    package func stop() {
        host.withLock { $0 = nil }
        let waiting = pending.withLock { pending in
            pending.ended = true
            defer { pending.waiting = [:] }
            return Array(pending.waiting.values)
        }
        for continuation in waiting { continuation.resume(returning: .notRunning) }
        streams.withLock { streams in
            for stream in streams.open.values { stream.continuation.finish() }
        }
        server.withLock { $0.take() }?.stop()
    }

    /// The audio files under the folder web paths are confined to (nil before the run starts).
    var files: (folder: String, files: [String])? {
        folder.withLock { $0 }.map { ($0, WebFiles.list(in: $0)) }
    }

    // MARK: Commands, from the server's threads

    /// Posts `command` to the host and waits for its reply.
    func perform(_ command: ControlCommand, from source: ControlSource) async -> Outcome {
        guard let inbox = host.withLock({ $0 }) else { return .notRunning }
        return await withCheckedContinuation { continuation in
            let number: Int? = pending.withLock { pending in
                guard !pending.ended else { return nil }
                pending.made += 1
                pending.waiting[pending.made] = continuation
                return pending.made
            }
            guard let number else { return continuation.resume(returning: .notRunning) }
            let taken = inbox.post(command, from: source) { [self] result in finish(number, .answered(result)) }
            if !taken { finish(number, .busy) }
        }
    }

    private func finish(_ number: Int, _ outcome: Outcome) {
        pending.withLock { $0.waiting.removeValue(forKey: number) }?.resume(returning: outcome)
    }

    // MARK: Event streams

    /// A new stream, or nil when `WebLimits.maximumStreams` are open. Its
    /// messages queue up to `WebLimits.queuedMessages`; past that it ends.
    func openStream() -> (number: Int, messages: AsyncStream<String>)? {
        let (messages, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(WebLimits.queuedMessages))
        let number: Int? = streams.withLock { streams in
            guard streams.open.count < WebLimits.maximumStreams else { return nil }
            streams.opened += 1
            streams.open[streams.opened] = Stream(continuation: continuation)
            return streams.opened
        }
        guard let number else { return nil }
        continuation.yield(JSONValue.object(["v": .number(1), "event": .string("hello")]).text)
        return (number, messages)
    }

    func closeStream(_ number: Int) {
        streams.withLock { streams in
            guard let stream = streams.open.removeValue(forKey: number) else { return }
            stream.continuation.finish()
            if let reader = stream.reader { streams.retiredReaders.append(reader) }
        }
        host.withLock { $0 }?.wakeHost()
    }

    var openStreams: Int { streams.withLock { $0.open.count } }

    /// A stream's meter rate: 0 or nil stops its meters.
    func setMeters(_ hertz: Double?, on number: Int) {
        streams.withLock { streams in
            guard var stream = streams.open[number] else { return }
            if let reader = stream.reader { streams.retiredReaders.append(reader) }
            stream.reader = nil
            stream.meterHertz = hertz.flatMap { $0 > 0 ? min($0, WebLimits.maximumMeterHertz) : nil }
            streams.open[number] = stream
        }
        host.withLock { $0 }?.wakeHost()
    }

    func send(_ text: String, on number: Int) {
        streams.withLock { streams in _ = streams.open[number]?.continuation.yield(text) }
    }

    /// On the host's thread: to every stream, never waiting; a stream too
    /// slow to take it is ended (its page reconnects and reads the state).
    private func broadcast(_ text: String) {
        streams.withLock { streams in
            for stream in streams.open.values {
                if case .dropped = stream.continuation.yield(text) { stream.continuation.finish() }
            }
        }
    }

    /// On the host's thread: each metered stream gets every output's and
    /// every tapped node's peaks since its previous meters (its own reader), DSP load, xruns, the
    /// taps' times and the bounce's progress.
    private func sendMeters(from session: any ControlSurface, now: Double) {
        var due: [(AsyncStream<String>.Continuation, OutputPeakReaders.Reader)] = []
        let retired = streams.withLock { streams in
            for (number, stream) in streams.open {
                guard let hertz = stream.meterHertz else { continue }
                guard let reader = stream.reader else {
                    streams.open[number]?.reader = session.addMeterReader()
                    // On a grid of the rate, so streams at one rate are served in one wake-up.
                    streams.open[number]?.due = ((now * hertz).rounded(.down) + 1) / hertz
                    continue
                }
                guard now + Self.meterSlack >= stream.due else { continue }
                streams.open[number]?.due = stream.due + 1 / hertz > now ? stream.due + 1 / hertz : ((now * hertz).rounded(.down) + 1) / hertz
                due.append((stream.continuation, reader))
            }
            defer { streams.retiredReaders = [] }
            return streams.retiredReaders
        }
        for reader in retired { session.removeMeterReader(reader) }
        guard !due.isEmpty else { return }
        // What every stream gets alike, as JSON text once per turn; then each
        // stream's own peaks. Written by hand: JSONEncoder per stream at 30 Hz
        // costs more than everything else the front end does.
        let activity = session.activity
        let taps = session.taps
        let shared = "{\"v\":1,\"event\":\"meters\",\"dspLoad\":\(Self.number(activity.dspLoadPercent))"
            + ",\"xruns\":\(activity.xruns)"
            + ",\"taps\":" + (taps.isEmpty ? "[]" : JSONValue.text(of: taps))
            + ",\"bounce\":" + (activity.bounce.map { JSONValue.text(of: $0) } ?? "null")
        for (continuation, reader) in due {
            var text = shared
            text.reserveCapacity(shared.utf8.count + 256)
            text += ",\"outputs\":{"
            Self.append(session.meters(reader), to: &text)
            text += "},\"tapped\":{"
            Self.append(session.tapMeters(reader), to: &text)
            text += "}}"
            if case .dropped = continuation.yield(text) { continuation.finish() }
        }
    }

    /// A finite number as JSON writes it.
    private static func number(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "null"
    }

    /// `"node":[dB,…]` for each meter, in hundredths of a dB (a meter needs no
    /// more, and the shorter text is cheaper to build and send); JSON has no
    /// -infinity, so silence is null.
    private static func append(_ meters: [(node: String, decibels: [Double])], to text: inout String) {
        for (index, meter) in meters.enumerated() {
            if index > 0 { text += "," }
            text += JSONValue.quoted(meter.node)
            text += ":["
            for (channel, decibels) in meter.decibels.enumerated() {
                if channel > 0 { text += "," }
                text += decibels.isFinite ? "\((decibels * 100).rounded() / 100)" : "null"
            }
            text += "]"
        }
    }

    /// Meters due this soon are sent now: half the shortest period.
    private static let meterSlack = 0.5 / WebLimits.maximumMeterHertz
}
