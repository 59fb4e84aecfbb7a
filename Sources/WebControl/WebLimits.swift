/// What a web client can make the host keep or read, in one place
/// (docs/control.md documents each).
package enum WebLimits {
    /// A request's body at most (a command is a few hundred bytes); larger: 413.
    package static let maximumBodyBytes = 64 * 1024
    /// A WebSocket message at most, in or out (a frame of the events stream,
    /// or a client's meter request); larger: the connection is closed.
    package static let maximumFrameBytes = 64 * 1024
    /// A request's headers at most, together (a browser sends a few KiB).
    package static let maximumHeaderBytes = 16 * 1024
    /// Connections open at once (pages, their requests, scripts); more wait
    /// to be accepted until one closes.
    package static let maximumConnections = 64
    /// An HTTP connection that sends nothing this long is closed (a
    /// WebSocket is kept alive by its pings instead).
    package static let idleSeconds = 30
    /// Open event streams at once; one more is refused with 503.
    package static let maximumStreams = 32
    /// Messages waiting for a slow stream; past this the stream is closed
    /// (its page reconnects and reads the state anew) rather than the host
    /// keeping more for it.
    package static let queuedMessages = 1024
    /// Meters come no faster (`{"meters": HZ}` on the events stream).
    package static let maximumMeterHertz = 60.0
}
