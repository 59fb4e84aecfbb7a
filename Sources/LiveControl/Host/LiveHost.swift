import Foundation
import HostCore
import JackIO

/// A live session and everything that steers it, run until it ends: the
/// dispatcher, the inbox front ends post to, the front ends themselves,
/// and the run loop. `fxhost run` builds one, attaches its front ends and
/// calls `run()`; a program using the library does the same.
///
/// The loop is event-driven: it sleeps in `poll(2)` until a front end posts
/// a command (the inbox wakes it), the session reports something (the
/// server shut down, its buffer size or rate changed, a bounce ended, a
/// tap's writer met a full disk: the session's notifier), a stop signal comes, or the next timer is due (a
/// front end's: the status line, OSC meters, MIDI announcements; the end of
/// `--duration`; a reconnect try). Nothing here runs on the realtime thread.
public final class LiveHost {
    public struct Options: Sendable {
        /// Stop by itself after this many seconds.
        public var duration: Double?
        /// If the server shuts down, wait for it and play on (else the run ends).
        public var reconnect = false
        /// Connect the ports to those the patch names.
        public var connectPorts = true

        public init() {}
    }

    public enum StopReason: Sendable { case signal, duration, quit, serverShutDown, engineFailed }

    /// The session as front ends see it, and as the loop drives it.
    package let engine: any HostedEngine
    package let inbox: ControlInbox
    /// What front ends steer and read.
    package var surface: any ControlSurface { engine.surface }
    private let notifier: EventNotifier
    private let signals: BlockedStopSignals?
    private let options: Options
    private var frontEnds: [any LiveFrontEnd] = []
    /// Seconds between tries to rejoin a server that shut down (`reconnect`).
    private static let reconnectSeconds = 0.5

    /// Opens the session (nothing plays until `run`). `signals`, when given,
    /// must have been made before any thread, libjack's included: SIGINT,
    /// SIGTERM and SIGHUP then end the run with every tap finalised.
    public convenience init(graph: AudioGraph, session sessionOptions: LiveSession.Options,
                            signals: BlockedStopSignals?, options: Options) throws(LiveSessionError) {
        try self.init(graph: graph, session: sessionOptions, patchFile: nil, signals: signals, options: options)
    }

    /// With `patchFile`, `save` and `reload` work on it.
    package convenience init(graph: AudioGraph, session sessionOptions: LiveSession.Options, patchFile: LivePatchFile?,
                 signals: BlockedStopSignals?, options: Options) throws(LiveSessionError) {
        let notifier = EventNotifier()
        var sessionOptions = sessionOptions
        sessionOptions.notifier = notifier
        let session = try LiveSession(graph: graph, options: sessionOptions)
        self.init(engine: InProcessEngine(session: session, patchFile: patchFile), notifier: notifier,
                  signals: signals, options: options)
    }

    /// Runs `engine`, which signals `notifier` when it has news for the loop.
    package init(engine: any HostedEngine, notifier: EventNotifier, signals: BlockedStopSignals?, options: Options) {
        self.engine = engine
        self.notifier = notifier
        inbox = ControlInbox(notifier: notifier)
        self.signals = signals
        self.options = options
        engine.keepAliveWhileWaiting { [weak self] in
            guard let self else { return }
            let now = Self.now()
            for frontEnd in frontEnds { frontEnd.keepAlive(now: now) }
        }
    }

    /// Adds a front end; they start in the order attached.
    package func attach(_ frontEnd: any LiveFrontEnd) {
        frontEnds.append(frontEnd)
    }

    /// Wakes the loop from any thread (a front end's reader).
    package var wake: @Sendable () -> Void {
        let notifier = notifier
        return { notifier.signal() }
    }

    /// Plays until a signal, `quit`, `--duration` or the server's end, then
    /// stops the front ends and finishes the session (every tap finalised).
    /// Returns why it ended and the closing status.
    public func run() throws -> (reason: StopReason, status: LiveStatus) {
        try engine.start()
        var started: [any LiveFrontEnd] = []
        do {
            if options.connectPorts { try engine.connectPorts() }
            for frontEnd in frontEnds {
                try frontEnd.start(self)
                started.append(frontEnd)
            }
        } catch {
            // Nothing is lost to a front end that could not start: the taps are finalised.
            for frontEnd in started.reversed() { frontEnd.stop() }
            _ = try? engine.finish()
            throw error
        }
        let reason = loop()
        for frontEnd in started.reversed() { frontEnd.stop() }
        return (reason, try engine.finish())
    }

    private func loop() -> StopReason {
        let end = options.duration.map { Self.now() + $0 }
        var nextReconnect: Double?
        while true {
            let now = Self.now()
            if let end, now >= end { return .duration }
            signals?.notifier.drain()
            if signals?.take() == true { return .signal }
            notifier.drain()
            if inbox.deliver(to: engine.surface) { return .quit }
            for frontEnd in frontEnds where frontEnd.service(now: now) == .quit { return .quit }
            engine.announceEnded()  // a bounce's end, a tap's failure: every front end hears it
            if engine.serverHasShutDown {
                guard options.reconnect else { return .serverShutDown }
                if nextReconnect == nil {
                    note("the JACK server shut down; waiting for it to return (--reconnect)", isWarning: true)
                    nextReconnect = now + Self.reconnectSeconds
                } else if let due = nextReconnect, now >= due {
                    nextReconnect = tryReconnect() ? nil : now + Self.reconnectSeconds
                }
            } else {
                do {
                    try engine.poll()
                } catch {
                    note(String(describing: error), isWarning: true)
                }
            }
            for (text, isWarning) in engine.takeNotes() { note(text, isWarning: isWarning) }
            if engine.failure != nil { return .engineFailed }
            let deadlines = frontEnds.compactMap { $0.nextDeadline() } + [end, nextReconnect, engine.nextDeadline].compactMap { $0 }
            wait(until: deadlines.min())
        }
    }

    /// One try to rejoin the server; true once it is back.
    private func tryReconnect() -> Bool {
        do {
            try engine.reconnect()
        } catch LiveSessionError.jack(.noServer) {
            return false
        } catch {
            note(String(describing: error), isWarning: true)
            return false
        }
        note("reconnected to the JACK server; playing again", isWarning: false)
        if options.connectPorts {
            do {
                try engine.connectPorts()
            } catch {
                note(String(describing: error), isWarning: true)
            }
        }
        return true
    }

    private func note(_ text: String, isWarning: Bool) {
        for frontEnd in frontEnds { frontEnd.note(text, isWarning: isWarning) }
    }

    /// Sleeps until the notifier or a signal wakes it, or `deadline` (nil: no timeout).
    private func wait(until deadline: Double?) {
        var descriptors = [pollfd(fd: notifier.descriptor, events: Int16(POLLIN), revents: 0)]
        if let signals { descriptors.append(pollfd(fd: signals.notifier.descriptor, events: Int16(POLLIN), revents: 0)) }
        for descriptor in engine.wakeDescriptors { descriptors.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        // Whole milliseconds, rounded up so a timer is never woken for early;
        // bounded so no deadline can overflow the conversion.
        let timeout = deadline.map { Int32(min(max(($0 - Self.now()) * 1000, 0).rounded(.up), 3_600_000)) } ?? -1
        _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
    }

    static func now() -> Double { Double(MonotonicClock.nanoseconds()) / 1e9 }
}
