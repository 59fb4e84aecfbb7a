import Glibc

/// Why an audio file could not be opened, created, read or written. Every
/// case names the file (or the format) and renders as one sentence.
public enum AudioFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path's extension names no format this host writes.
    case unknownExtension(path: String)
    /// A `--format` name this host does not know.
    case unknownFormatName(String)
    /// The format cannot be written at this rate; `supportedRates` lists the ones it takes
    /// (empty when libsndfile only said no).
    case unsupportedSampleRate(format: AudioFileFormat, sampleRate: Int, supportedRates: [Int])
    case sampleRateTooHigh(format: AudioFileFormat, sampleRate: Int, maximum: Int)
    /// libsndfile refused this channel count / rate combination for the format.
    case unsupportedLayout(format: AudioFileFormat, channels: Int, sampleRate: Int)
    case fileNotFound(path: String)
    case isDirectory(path: String)
    /// The path names a FIFO, a device, a socket (`kind`: "a FIFO"), not a
    /// regular file; nothing was opened that could hang on it.
    case notRegularFile(path: String, kind: String)
    /// The path is a loop of symbolic links.
    case symbolicLinkLoop(path: String)
    /// The file exists but this process may not read it.
    case notReadable(path: String)
    /// libsndfile could not make sense of the file; `reason` is its own words.
    case notAudio(path: String, reason: String)
    /// The file could not be created (missing or unwritable directory, ...).
    case cannotCreate(path: String, reason: String)
    /// A write failed part-way (disk full, I/O error).
    case writeFailed(path: String, reason: String)
    /// Closing or moving the finished file into place failed.
    case finishFailed(path: String, reason: String)
    case seekFailed(path: String, frame: Int)
    /// A tap recorder could not start its writer thread.
    case cannotStartWriter(path: String, reason: String)
    /// A live file source could not start its disk thread.
    case cannotStartReader(path: String, reason: String)
    /// The writer was already finished or aborted.
    case closed(path: String)

    public var description: String {
        switch self {
        case .unknownExtension(let path):
            return "cannot tell the audio format of `\(path)` from its extension; use one of "
                + AudioFileFormat.acceptedExtensions.joined(separator: " ")
                + " or name a format (" + AudioFileFormat.acceptedNames.joined(separator: ", ") + ")."
        case .unknownFormatName(let name):
            return "unknown audio format `\(name)`; the accepted formats are "
                + AudioFileFormat.acceptedNames.joined(separator: ", ") + "."
        case .unsupportedSampleRate(let format, let rate, let supported):
            if supported.isEmpty {
                return "\(format.displayName) cannot be written at \(rate) Hz."
            }
            return "\(format.displayName) cannot be written at \(rate) Hz; it takes "
                + Self.list(supported.map { "\($0)" }) + " Hz."
        case .sampleRateTooHigh(let format, let rate, let maximum):
            return "\(format.displayName) cannot be written at \(rate) Hz; it takes rates up to \(maximum) Hz."
        case .unsupportedLayout(let format, let channels, let rate):
            return "\(format.displayName) cannot hold \(channels) channel(s) at \(rate) Hz."
        case .fileNotFound(let path):
            return "audio file `\(path)` does not exist."
        case .isDirectory(let path):
            return RegularFileRefusal(path: path, reason: .notRegular(.directory)).description + "."
        case .notRegularFile(let path, let kind):
            return "`\(path)` is \(kind), not a regular file; fxhost reads and writes only regular files."
        case .symbolicLinkLoop(let path):
            return RegularFileRefusal(path: path, reason: .symbolicLinkLoop).description + "."
        case .notReadable(let path):
            return "audio file `\(path)` cannot be read: permission denied."
        case .notAudio(let path, let reason):
            return "`\(path)` is not an audio file that can be read (\(reason))."
        case .cannotCreate(let path, let reason):
            return "cannot create audio file `\(path)`: \(reason)."
        case .writeFailed(let path, let reason):
            return "writing audio file `\(path)` failed: \(reason)."
        case .finishFailed(let path, let reason):
            return "could not finish audio file `\(path)`: \(reason)."
        case .seekFailed(let path, let frame):
            return "cannot seek to frame \(frame) in audio file `\(path)`."
        case .cannotStartWriter(let path, let reason):
            return "cannot start the thread that writes `\(path)`: \(reason)."
        case .cannotStartReader(let path, let reason):
            return "cannot start the thread that reads `\(path)`: \(reason)."
        case .closed(let path):
            return "audio file `\(path)` is already closed."
        }
    }

    /// Why a file to read was not opened.
    init(reading refusal: RegularFileRefusal) {
        let path = refusal.path
        switch refusal.reason {
        case .notRegular(.directory): self = .isDirectory(path: path)
        case .notRegular(let kind): self = .notRegularFile(path: path, kind: kind.rawValue)
        case .symbolicLinkLoop: self = .symbolicLinkLoop(path: path)
        case .system(ENOENT), .system(ENOTDIR): self = .fileNotFound(path: path)
        case .system(EACCES): self = .notReadable(path: path)
        case .system: self = .notAudio(path: path, reason: refusal.systemMessage ?? "")
        }
    }

    /// Why a file to write was not created (or opened, when it was there):
    /// a system error names `path` (the file meant, where a temporary file
    /// was being created beside it); the rest name what the refusal found.
    init(writing refusal: RegularFileRefusal, path: String) {
        switch refusal.reason {
        case .notRegular(.directory): self = .isDirectory(path: refusal.path)
        case .notRegular(let kind): self = .notRegularFile(path: refusal.path, kind: kind.rawValue)
        case .symbolicLinkLoop: self = .symbolicLinkLoop(path: refusal.path)
        case .system: self = .cannotCreate(path: path, reason: refusal.systemMessage ?? "")
        }
    }

    /// "a, b or c"
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}
