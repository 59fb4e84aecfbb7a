import HostCore

/// Why a live session could not start or a live command was refused: one
/// sentence a user can act on.
public enum LiveSessionError: Error, CustomStringConvertible, UserFacingError {
    case jack(JackError)
    case engine(LiveEngineError)
    case graph(GraphError)
    case file(AudioFileError)
    case sampleRate(SampleRateMismatch)
    case unknownNode(String, suggestion: String?)
    case notAPlugin(node: String)
    case unit(node: String, UnitError)
    case noTap(node: String, tapped: [String])
    /// `tap pause` on a tap that is paused, finished or failed.
    case tapNotRecording(tap: String, state: LiveStatus.Tap.State)
    /// `tap resume` on a tap that is recording, finished or failed.
    case tapNotPaused(tap: String, state: LiveStatus.Tap.State)
    case noConnection(from: String, to: String)
    case programNotTaken(seconds: Double)
    case serverGone
    /// A bounce is under way: edits and another bounce wait for it.
    case bouncing(files: [String])
    case noBounce
    case nothingToBounce
    case bounce(FreewheelError)
    /// `bounce FILE` without force, and a file it would write (`path`) exists.
    case bounceFileExists(path: String, asked: String)
    case render(RenderError)
    /// `learn` on a session whose patch has no `midi-control:`.
    case noMIDIInput
    /// `feedback` in a session whose patch has no `midi-control: { output: … }`.
    case noMIDIFeedback
    /// `unlearn` of a parameter no mapping moves.
    case noMapping(String, mapped: [String])
    case unknownScene(String, known: [String])
    /// `tempo` outside 1...999 beats per minute.
    case tempoOutOfRange(Double)
    /// `tempo` while a JACK timebase master sets the tempo.
    case tempoFromJack(beatsPerMinute: Double)
    /// `tempo` or a tap while a MIDI clock (`clock: { input }`) is followed.
    case tempoFromClock(beatsPerMinute: Double)

    public var description: String {
        switch self {
        case .jack(let error): return error.description
        case .engine(let error): return error.description
        case .graph(let error): return error.description
        case .file(let error): return error.description
        case .sampleRate(let mismatch):
            return mismatch.description
        case .unknownNode(let name, let suggestion):
            return "there is no node named `\(name)`" + (suggestion.map { " (\($0))" } ?? "")
        case .notAPlugin(let node):
            return "node `\(node)` is not a plugin, so it has no parameters, presets or bypass"
        case .unit(let node, let error):
            return "node `\(node)`: \(error.description)"
        case .noTap(let node, let tapped):
            return "`\(node)` has no tap" + (tapped.isEmpty ? "; nothing is being recorded"
                : "; the taps are on " + tapped.map { "`\($0)`" }.joined(separator: ", "))
        case .tapNotRecording(let tap, let state):
            return state == .finished ? Self.finished(tap, "paused")
                : state == .failed ? Self.failed(tap, "paused")
                : "the tap on `\(tap)` is already paused; `tap resume \(tap)` continues it"
        case .tapNotPaused(let tap, let state):
            return state == .finished ? Self.finished(tap, "resumed")
                : state == .failed ? Self.failed(tap, "resumed")
                : "the tap on `\(tap)` is recording, not paused, so there is nothing to resume"
        case .noConnection(let from, let to):
            return "there is no connection from `\(from)` to `\(to)`"
        case .programNotTaken(let seconds):
            return "the JACK process thread did not take the new graph within \(seconds) s; is the server running?"
        case .serverGone:
            return "the JACK server has shut down"
        case .bouncing(let files):
            return "fxhost is bouncing to " + files.map { "`\($0)`" }.joined(separator: ", ")
                + "; wait for it to finish (`status` shows how far it is) or stop it with `bounce cancel`"
        case .noBounce:
            return "no bounce is under way"
        case .nothingToBounce:
            return "this patch has no output, so a bounce would write nothing"
        case .bounceFileExists(let path, let asked):
            return "`\(path)` exists; `bounce` replaces a file only when forced (`bounce \(asked) --force`)"
        case .bounce(let error):
            return error.description
        case .render(let error):
            return error.description
        case .noMIDIFeedback:
            return "this patch sends no MIDI feedback; add `output: [\"PORT\"]` (your controller's MIDI input) to its `midi-control:` section"
        case .noMIDIInput:
            return "this patch has no `midi-control:` section, so fxhost has no MIDI input to learn from; add `midi-control: { input: [\"system:midi_capture_1\"] }` (or your controller's port)"
        case .noMapping(let destination, let mapped):
            return "no MIDI mapping moves `\(destination)`" + (mapped.isEmpty ? "; nothing is mapped"
                : "; mapped are " + Array(Set(mapped)).sorted().map { "`\($0)`" }.joined(separator: ", "))
        case .unknownScene(let name, let known):
            return known.isEmpty ? "there is no scene `\(name)`: the patch has no `scenes:`"
                : "there is no scene `\(name)`" + (Suggestion.didYouMean(name, in: known).map { " (\($0))" }
                    ?? "; the scenes are " + known.map { "`\($0)`" }.joined(separator: ", "))
        case .tempoOutOfRange(let value):
            return InputBounds.tempoRefusal(value) ?? "\(InputBounds.tempoRule), not \(NumberText.format(value))"
        case .tempoFromJack(let beatsPerMinute):
            return "a JACK timebase master sets the tempo (\(NumberText.format(beatsPerMinute)) bpm now); change it there"
        case .tempoFromClock(let beatsPerMinute):
            return "the MIDI clock followed sets the tempo (\(NumberText.format(beatsPerMinute)) bpm now); change it there"
        }
    }

    private static func failed(_ tap: String, _ verb: String) -> String {
        "the tap on `\(tap)` failed (its file could not be written; `status` says why), so it cannot be \(verb); "
            + "its file is closed and keeps what was written"
    }

    private static func finished(_ tap: String, _ verb: String) -> String {
        "the tap on `\(tap)` is finished (its file is closed), so it cannot be \(verb); "
            + "`tap \(tap) FILE` starts a new take"
    }
}

extension JackError: UserFacingError {}
extension LiveEngineError: UserFacingError {}
