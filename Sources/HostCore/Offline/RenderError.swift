/// Why an offline render could not run or finish.
public enum RenderError: Error, CustomStringConvertible {
    case file(AudioFileError)
    /// A MIDI file given to a `midi-input` node that cannot be read.
    case midiFile(MIDIFileError)
    case missingInput(node: String)
    case sampleRate(SampleRateMismatch)
    case channelMismatch(path: String, fileChannels: Int, node: String, nodeChannels: Int)
    /// Two outputs or taps would write one file, or one would overwrite a file being played.
    case fileConflict(String)
    /// SIGINT or SIGTERM stopped the render; its partial files were removed.
    case interrupted(signal: Int32)
    /// A time range that selects nothing; the reason is a sentence's end.
    case invalidRange(String)
    /// A worker thread for `threads` could not be started (the system's limit).
    case threads(String)
    /// An output or tap held a sample that is not finite (inf or NaN); the
    /// render stopped there. `what` names the output or the tapped node and
    /// what feeds it, `sample` is `inf`, `-inf` or `NaN`.
    case nonFinite(what: String, sample: String, seconds: Double)

    public var description: String {
        switch self {
        case .file(let error):
            return error.description
        case .midiFile(let error):
            return error.description
        case .missingInput(let node):
            return "the patch's live input `\(node)` has nothing to play: give it a file with `-i \(node)=FILE` (or `-i FILE` for the first input)"
        case .sampleRate(let mismatch):
            return mismatch.description
        case .fileConflict(let message):
            return message
        case .interrupted(let signal):
            return "interrupted by \(signalName(signal)); no output was kept"
        case .threads(let reason):
            return "\(reason); render with fewer threads (--threads 1 uses none)"
        case .invalidRange(let reason):
            return "that time range selects nothing to render: \(reason)"
        case .nonFinite(let what, let sample, let seconds):
            return "the render stopped: \(what) became \(sample) at " + String(format: "%.3f s", seconds)
                + " (a gain or plugin on that path overflowed); no output was kept"
        case .channelMismatch(let path, let fileChannels, let node, let nodeChannels):
            return "`\(path)` has \(fileChannels) channels but `\(node)` takes \(nodeChannels)"
        }
    }
}
