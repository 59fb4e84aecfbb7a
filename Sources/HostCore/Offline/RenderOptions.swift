/// What a render reads, writes and how long its tail may last: the same for
/// the embedded driver and a JACK freewheel bounce.
public struct RenderOptions {
    /// Files for live input nodes, by node name.
    public var inputFiles: [String: String] = [:]
    /// Live inputs with no file play silence instead of being refused (a
    /// bounce from a live session renders its file sources only).
    public var silentInputsWithoutFiles = false
    /// Files for output nodes, by node name.
    public var outputFiles: [String: RenderOutputFile] = [:]
    /// The latest a render's range may start or end (`--from`, `--to`, a
    /// bounce's range): 24 hours, so a time from outside never overflows a
    /// frame count.
    public static let longestRangeSeconds = 86_400.0

    /// The longest tail after the sources end; the tail stops earlier once
    /// every output stays below -90 dBFS for half a second. 0: stop with the sources.
    public var maximumTailSeconds: Double = 10
    /// Where on the timeline the render starts, in seconds (0: the beginning).
    public var startSeconds: Double = 0
    /// Where it ends, in seconds; nil: at the end of the sources, then the
    /// tail. With an end the render is exactly that range, with no tail.
    public var endSeconds: Double?
    /// Threads that render each block, this one included: independent
    /// branches of the graph run on the others. 1 renders on this thread
    /// only. Any number gives the same bits. (`fxhost render --threads`
    /// defaults to the number of cores.)
    public var threads = 1
    /// Called about ten times a second with the progress so far, on the
    /// thread that renders.
    public var progress: ((RenderProgress) -> Void)?
    /// Whether the summary's peaks are measured (every channel, every
    /// block); off, they are left empty. The tail's silence is measured
    /// either way. The command line turns it off when it shows no summary.
    package var measuresPeaks = true
    /// The tempo and meter plugins that take the host's time are told
    /// (the patch's `tempo:` and `meter:`); the transport rolls from the
    /// render's start.
    package var tempo = Tempo()

    public init() {}
}
