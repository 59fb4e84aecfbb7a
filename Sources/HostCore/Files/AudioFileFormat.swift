import CSndFile

/// The file formats the host writes. Reading accepts anything libsndfile reads.
public enum AudioFileFormat: String, CaseIterable, Equatable, Sendable {
    case wavFloat = "wav"
    case wav16
    case wav24
    case rf64
    case flac16
    case flac24
    case oggVorbis = "ogg"
    case oggOpus = "opus"
    case mp3

    /// Names accepted by `init(name:)`, in the order help text shows them.
    public static let acceptedNames = ["wav", "wav16", "wav24", "rf64", "flac", "flac16", "flac24", "ogg", "opus", "mp3"]
    public static let acceptedExtensions = [".wav", ".rf64", ".flac", ".ogg", ".oga", ".opus", ".mp3"]

    /// A `--format` name; `flac` means 24-bit FLAC.
    public init(name: String) throws(AudioFileError) {
        let lowered = name.lowercased()
        if lowered == "flac" {
            self = .flac24
        } else if let format = AudioFileFormat(rawValue: lowered) {
            self = format
        } else {
            throw .unknownFormatName(name)
        }
    }

    /// The format an output path's extension implies (WAV means 32-bit float,
    /// FLAC means 24-bit).
    public init(path: String) throws(AudioFileError) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { throw .unknownExtension(path: path) }
        switch name[name.index(after: dot)...].lowercased() {
        case "wav": self = .wavFloat
        case "rf64": self = .rf64
        case "flac": self = .flac24
        case "ogg", "oga": self = .oggVorbis
        case "opus": self = .oggOpus
        case "mp3": self = .mp3
        default: throw .unknownExtension(path: path)
        }
    }

    /// The format for an output file: the explicit `--format` name when
    /// there is one, otherwise the path's extension.
    public init(path: String, name: String?) throws(AudioFileError) {
        if let name {
            try self.init(name: name)
        } else {
            try self.init(path: path)
        }
    }

    /// For messages: "Ogg Opus", "16-bit WAV".
    public var displayName: String {
        switch self {
        case .wavFloat: return "32-bit float WAV"
        case .wav16: return "16-bit WAV"
        case .wav24: return "24-bit WAV"
        case .rf64: return "32-bit float RF64"
        case .flac16: return "16-bit FLAC"
        case .flac24: return "24-bit FLAC"
        case .oggVorbis: return "Ogg Vorbis"
        case .oggOpus: return "Ogg Opus"
        case .mp3: return "MP3"
        }
    }

    /// libsndfile's major | subtype code.
    public var sndfileFormat: Int32 {
        let code: Int
        switch self {
        case .wavFloat: code = SF_FORMAT_WAV | SF_FORMAT_FLOAT
        case .wav16: code = SF_FORMAT_WAV | SF_FORMAT_PCM_16
        case .wav24: code = SF_FORMAT_WAV | SF_FORMAT_PCM_24
        case .rf64: code = SF_FORMAT_RF64 | SF_FORMAT_FLOAT
        case .flac16: code = SF_FORMAT_FLAC | SF_FORMAT_PCM_16
        case .flac24: code = SF_FORMAT_FLAC | SF_FORMAT_PCM_24
        case .oggVorbis: code = SF_FORMAT_OGG | SF_FORMAT_VORBIS
        case .oggOpus: code = SF_FORMAT_OGG | SF_FORMAT_OPUS
        case .mp3: code = SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III
        }
        return Int32(code)
    }

    /// Bits per sample of the integer PCM formats (nil for float and lossy
    /// ones). Float input beyond full scale is clipped, not wrapped.
    public var bitDepth: Int? {
        switch self {
        case .wav16, .flac16: return 16
        case .wav24, .flac24: return 24
        default: return nil
        }
    }


    /// Rates the codec takes, when it takes only some. libsndfile's
    /// sf_format_check does not know these limits; sf_open would refuse later.
    public var fixedSampleRates: [Int]? {
        switch self {
        case .oggOpus: return [8000, 12000, 16000, 24000, 48000]
        case .mp3: return [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]
        default: return nil
        }
    }

    /// The highest rate the format's header holds, when libsndfile's
    /// sf_format_check does not know it (FLAC: 655350 Hz, found by trying).
    public var maximumSampleRate: Int? {
        switch self {
        case .flac16, .flac24: return 655_350
        default: return nil
        }
    }

    /// Throws a one-sentence error when the format cannot hold this layout.
    public func validate(channels: Int, sampleRate: Int) throws(AudioFileError) {
        if let rates = fixedSampleRates, !rates.contains(sampleRate) {
            throw .unsupportedSampleRate(format: self, sampleRate: sampleRate, supportedRates: rates)
        }
        if let maximum = maximumSampleRate, sampleRate > maximum {
            throw .sampleRateTooHigh(format: self, sampleRate: sampleRate, maximum: maximum)
        }
        guard Self.check(sndfileFormat, channels: channels, sampleRate: sampleRate) else {
            if channels >= 1, Self.check(sndfileFormat, channels: channels, sampleRate: 48000) {
                let common = [8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000, 176400, 192000]
                throw .unsupportedSampleRate(format: self, sampleRate: sampleRate, supportedRates: common.filter {
                    Self.check(sndfileFormat, channels: channels, sampleRate: $0)
                })
            }
            throw .unsupportedLayout(format: self, channels: channels, sampleRate: sampleRate)
        }
    }

    private static func check(_ format: Int32, channels: Int, sampleRate: Int) -> Bool {
        guard channels >= 1, sampleRate >= 1, let rate = Int32(exactly: sampleRate),
              let count = Int32(exactly: channels) else { return false }
        var info = SF_INFO(frames: 0, samplerate: rate, channels: count, format: format, sections: 0, seekable: 0)
        return sf_format_check(&info) == 1
    }
}
