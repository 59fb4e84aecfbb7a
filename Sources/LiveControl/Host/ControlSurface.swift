import HostCore
import JackIO

/// What a front end sees of a live session, and all it may touch: commands
/// in, every change and refusal out, and the readings it shows (status,
/// meters, taps, names for completion). Front ends never hold the session
/// itself, so the same front ends serve a session in this process
/// (`ControlDispatcher`) or one played by another. Called on the host's
/// thread only.
package protocol ControlSurface: AnyObject {
    /// Carries out `command` for `source` and announces what changed; a
    /// refusal changes nothing and throws the session's sentence.
    @discardableResult
    func dispatch(_ command: ControlCommand, from source: ControlSource) throws(ControlError) -> ControlResult
    @discardableResult
    func addListener(_ listener: @escaping ControlDispatcher.Listener) -> ControlDispatcher.ListenerID
    func removeListener(_ id: ControlDispatcher.ListenerID)
    func addRefusalListener(_ listener: @escaping ControlDispatcher.RefusalListener)
    /// Adds what a front end counts itself to every status it answers.
    var amendStatus: ((inout LiveStatus) -> Void)? { get set }
    /// The folder paths from remote front ends are confined to.
    var remotePaths: RemotePaths { get }

    /// The status now, as the status line shows it (peaks since its last look).
    func status() -> LiveStatus
    /// The names Tab offers now.
    var completion: CompletionSource { get }
    /// True when the patch maps MIDI controllers (there is something to poll).
    var hasMIDIControl: Bool { get }
    /// Announces what MIDI controllers changed since the last call.
    func pollMIDI()

    /// A reader of peaks at its own pace (an OSC subscriber, a web page).
    func addMeterReader() -> OutputPeakReaders.Reader
    func removeMeterReader(_ reader: OutputPeakReaders.Reader)
    /// Each output's peak per channel in dBFS since `reader` last looked.
    func meters(_ reader: OutputPeakReaders.Reader) -> [(node: String, decibels: [Double])]
    /// Each tapped node's peak per channel in dBFS since `reader` last looked.
    func tapMeters(_ reader: OutputPeakReaders.Reader) -> [(node: String, decibels: [Double])]
    /// DSP load, xruns and the bounce under way, without taking the status's peaks.
    var activity: (dspLoadPercent: Double, xruns: Int, bounce: LiveStatus.Bounce?) { get }
    /// The latest taps stopped, then those recording.
    var taps: [LiveStatus.Tap] { get }
    /// Where each file and MIDI-file source stands on the server's frame
    /// clock (nil before its first cycle), for a restart to play on from.
    var sourceOrigins: [String: Int?] { get }
    /// The running state as `save` would write it (nil: no patch to write).
    var runningText: String? { get }
    /// The setlist's patch playing, whose text `runningText` is (nil: no setlist).
    var setlistPatch: String? { get }
    /// `save`'s first half, for a patch file another process writes: what
    /// to write where, checked (and confined, from a remote front end) as
    /// `save` is; a refusal is announced and thrown.
    func draftSave(_ command: ControlCommand, from source: ControlSource) throws(ControlError) -> PatchSaveDraft
    /// Its second half, once the draft is written: remembered and announced.
    func saved(_ draft: PatchSaveDraft, from source: ControlSource) throws(ControlError) -> ControlResult
}

/// A session as `LiveHost` drives it: started, polled between wake-ups and
/// finished, with the surface its front ends steer it through.
package protocol HostedEngine: AnyObject {
    var surface: any ControlSurface { get }
    func start() throws
    func connectPorts() throws
    /// Between wake-ups: the server's news (format changes, xruns).
    func poll() throws
    var serverHasShutDown: Bool { get }
    func reconnect() throws(LiveSessionError)
    /// Announces a bounce that ended and taps whose files failed since the last call.
    func announceEnded()
    /// Stops playing, every tap finalised; the closing status.
    func finish() throws -> LiveStatus
    /// Descriptors the loop also waits on (an engine process's link and crash pipe).
    var wakeDescriptors: [Int32] { get }
    /// What the operator should hear since the last call (an engine's own warnings).
    func takeNotes() -> [(text: String, isWarning: Bool)]
    /// Why the session can play no more (a supervisor gave up restarting its
    /// engine); nil while it plays.
    var failure: String? { get }
    /// When it next wants `poll` without being woken; nil: only when woken.
    var nextDeadline: Double? { get }
    /// `beat` is called about every 0.1 s while the engine keeps the
    /// host's thread waiting (a supervisor restarting its engine).
    func keepAliveWhileWaiting(_ beat: @escaping () -> Void)
}

extension HostedEngine {
    package var wakeDescriptors: [Int32] { [] }
    package func takeNotes() -> [(text: String, isWarning: Bool)] { [] }
    package var failure: String? { nil }
    package var nextDeadline: Double? { nil }
    package func keepAliveWhileWaiting(_ beat: @escaping () -> Void) {}  // one in this process never waits long
}
