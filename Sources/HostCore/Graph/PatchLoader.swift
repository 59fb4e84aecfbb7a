import Foundation

/// Builds an `AudioGraph` from a `Patch`: the patch file is one way into the
/// library API, and this is all it takes. Plugin-level checks (names,
/// parameters, presets, port symbols) and file checks happen here, reported
/// at the patch's locations.
public struct PatchLoader {
    package var units: any UnitProvider
    /// Opens a file source to learn its shape; the default reads its header.
    package var inspectFile: (String) throws(AudioFileError) -> FileShape

    /// A loader that makes plugin nodes' units with `units` and reads file
    /// sources' headers from disk.
    public init(units: any UnitProvider) {
        self.init(units: units, inspectFile: FileShape.read)
    }

    package init(units: any UnitProvider, inspectFile: @escaping (String) throws(AudioFileError) -> FileShape) {
        self.units = units
        self.inspectFile = inspectFile
    }

    /// The graph a patch declares. Relative paths in the patch are resolved
    /// against the patch file's folder.
    public func graph(for patch: Patch) throws(GraphError) -> AudioGraph {
        let graph = AudioGraph()
        graph.tempo = patch.tempo
        let folder = patch.sourcePath.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        for declaration in patch.nodes {
            try add(declaration, to: graph, folder: folder)
        }
        try graph.wire(patch.connections, taps: patch.taps) { Self.resolve($0, in: folder) }
        for tap in graph.taps { try TapFileCheck.requireFolder(tap) }
        try Self.check(patch.midiControl, in: graph)
        return graph
    }

    /// The sample rate a patch's file sources share, or nil when it has none.
    /// Different rates are an error naming two files that disagree.
    package static func sampleRate(of graph: AudioGraph) throws(GraphError) -> Double? {
        var first: (node: GraphNode, file: FilePlayerSource)?
        for node in graph.nodes {
            guard case .filePlayer(let file) = node.kind else { continue }
            if let first, first.file.sampleRate != file.sampleRate {
                throw GraphError(
                    "`\(file.path)` is at \(Int(file.sampleRate)) Hz but `\(first.file.path)` is at \(Int(first.file.sampleRate)) Hz",
                    at: node.location, suggestion: SampleRateMismatch.advice(rate: Int(first.file.sampleRate), path: file.path))
            }
            if first == nil { first = (node, file) }
        }
        return first?.file.sampleRate
    }

    package static func resolve(_ path: String, in folder: String?) -> String {
        guard let folder, !path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: folder).appendingPathComponent(path).standardizedFileURL.path
    }


    private func add(_ declaration: NodeDeclaration, to graph: AudioGraph, folder: String?) throws(GraphError) {
        let name = declaration.name, location = declaration.location
        switch declaration.kind {
        case .input(let ports):
            try graph.addInput(name, channels: ports.channelCount, ports: Self.portNames(ports), location: location)
        case .output(let ports):
            try graph.addOutput(name, channels: ports.channelCount, ports: Self.portNames(ports), location: location)
        case .mix(let channels):
            try graph.addMixer(name, channels: channels, location: location)
        case .gain(let decibels):
            try graph.addGain(name, decibels: decibels, location: location)
        case .midiInput(let ports):
            try graph.addMIDIInput(name, ports: ports, location: location)
        case .midiOutput(let ports):
            try graph.addMIDIOutput(name, ports: ports, location: location)
        case .midiFile(let spec):
            let path = Self.resolve(spec.path, in: folder)
            let file: StandardMIDIFile
            do {
                file = try StandardMIDIFile(path: path)
            } catch {
                throw GraphError("node `\(name)`: \(error.description)", at: spec.pathLocation ?? location)
            }
            try graph.addMIDIFile(name, file: MIDIFileSource(path: path, file: file, startSeconds: spec.startSeconds),
                                  location: location)
        case .file(let spec):
            let path = Self.resolve(spec.path, in: folder)
            let shape: FileShape
            do {
                shape = try inspectFile(path)
            } catch {
                throw GraphError("node `\(name)`: \(error.description)", at: spec.pathLocation ?? location)
            }
            let source = FilePlayerSource(path: path, channels: shape.channels, sampleRate: shape.sampleRate,
                                          frames: shape.frames, startSeconds: spec.startSeconds,
                                          gainDecibels: spec.gainDecibels, pan: spec.pan)
            try graph.addFilePlayer(name, file: source, location: location)
        case .plugin(let spec):
            let unit = try makeUnit(name, spec, at: location, folder: folder)
            try graph.addUnit(name, unit, bypass: spec.bypass, location: location)
        }
    }

    private static func portNames(_ ports: EndpointPorts) -> [String] {
        if case .ports(let names) = ports { return names }
        return []
    }
}

/// What the graph needs to know of a file before it plays it.
package struct FileShape: Sendable, Equatable {
    package var channels: Int
    package var sampleRate: Double
    package var frames: Int

    package init(channels: Int, sampleRate: Double, frames: Int) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.frames = frames
    }

    /// Reads a file's header.
    package static func read(_ path: String) throws(AudioFileError) -> FileShape {
        let reader = try AudioFileReader(path: path)
        return FileShape(channels: reader.channels, sampleRate: Double(reader.sampleRate), frames: try reader.lengthInFrames())
    }
}
