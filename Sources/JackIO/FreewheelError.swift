import HostCore

/// Why a freewheel bounce failed, in one sentence. The server is back in
/// realtime mode whenever one of these reaches the caller.
public enum FreewheelError: Error, CustomStringConvertible, UserFacingError {
    case jack(JackError)
    case render(RenderError)
    /// JACK refused jack_set_freewheel.
    case freewheelRefused(server: String?, code: Int32)
    /// SIGINT or SIGTERM arrived mid-bounce; nothing was kept.
    case interrupted(signal: Int32, framesDone: Int)
    /// `cancel()` stopped it mid-bounce; nothing was kept.
    case cancelled(secondsDone: Double)
    /// The server went away mid-bounce.
    case serverShutDown(server: String?)
    /// The plan's block size differs from the server's buffer size.
    case blockSizeMismatch(planFrames: Int, serverFrames: Int)
    case sampleRateMismatch(planRate: Double, serverRate: Int)
    /// The thread that renders a live session's bounce could not start.
    case cannotStartThread(reason: String)

    public var description: String {
        switch self {
        case .jack(let error):
            return error.description
        case .render(let error):
            return error.description
        case .freewheelRefused(let server, let code):
            return "JACK server `\(server ?? "default")` refused to enter freewheel mode (error \(code))"
        case .interrupted(let signal, let framesDone):
            let name = signalName(signal)
            return "the bounce was interrupted by \(name) after \(framesDone) frames; no output was kept and the server is back in realtime mode"
        case .cancelled(let secondsDone):
            return String(format: "the bounce was stopped after %.1f s of audio; no output was kept and the server is back in realtime mode", secondsDone)
        case .serverShutDown(let server):
            return "JACK server `\(server ?? "default")` shut down during the bounce; no output was kept"
        case .blockSizeMismatch(let planFrames, let serverFrames):
            return "the plan renders blocks of \(planFrames) frames but the server's buffer is \(serverFrames) frames; compile it with the server's buffer size"
        case .cannotStartThread(let reason):
            return "cannot start the thread that renders the bounce: \(reason); no output was kept"
        case .sampleRateMismatch(let planRate, let serverRate):
            return "the patch's files are at \(Int(planRate)) Hz but the JACK server runs at \(serverRate) Hz; restart the server at \(Int(planRate)) Hz, or "
                + SampleRateMismatch.advice(rate: serverRate)
        }
    }
}
