/// A file at another rate than the one the audio runs at. fxhost does not
/// resample, so every place that meets this says the same thing.
public struct SampleRateMismatch: Error, Equatable, Sendable, UserFacingError {
    public var path: String
    public var fileRate: Int
    public var rate: Int
    /// What runs at `rate`: "this render", "the JACK server".
    public var runner: String

    public init(path: String, fileRate: Int, rate: Int, runner: String) {
        self.path = path
        self.fileRate = fileRate
        self.rate = rate
        self.runner = runner
    }

    public var description: String {
        "`\(path)` is at \(fileRate) Hz but \(runner) runs at \(rate) Hz; " + Self.advice(rate: rate, path: path)
    }

    /// "fxhost does not resample, so convert … first (e.g. `sox …`)".
    public static func advice(rate: Int, path: String = "in.wav") -> String {
        "fxhost does not resample, so convert it first (e.g. `sox \(path) -r \(rate) converted.wav`)"
    }
}
