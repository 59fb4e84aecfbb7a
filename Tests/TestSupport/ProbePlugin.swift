import Foundation

/// The test-only LV2 probe plugin (Tests/TestPlugin): `out = in +
/// freeWheeling + the worker's answer (0.5, asked on the first block)`.
/// `buildLibrary(in:)` compiles it, `bundle(in:library:)` writes its LV2
/// bundle around the library, for an LV2_PATH of its own.
public enum ProbePlugin {
    public static let uri = "urn:fxhost:test:probe"

    public struct BuildError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Compiles Tests/TestPlugin/probe.c into `folder/libprobe.so` with the C
    /// compiler on PATH (the Swift toolchain's clang, else cc). The tests
    /// build it themselves because SwiftPM makes a shared library only for a
    /// product, and a test fixture is no product of fxhost. `unloadable`
    /// makes a library that needs a symbol no library defines, so loading
    /// it fails the way a plugin with a missing dependency does.
    public static func buildLibrary(in folder: URL, unloadable: Bool = false) throws -> URL {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TestPlugin")
        let library = folder.appendingPathComponent("libprobe.so")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        let compilers = ["clang", "cc"].flatMap { name in searchPath.map { "\($0)/\(name)" } }
        guard let compiler = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BuildError(description: "no clang or cc on PATH to compile the probe plugin")
        }
        let log = folder.appendingPathComponent("probe-build.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = ["-shared", "-fPIC", "-O1", "-Wall", "-Werror"] + (unloadable ? ["-DFXHOST_PROBE_UNLOADABLE"] : [])
            + ["-I", source.appendingPathComponent("include").path,
               source.appendingPathComponent("probe.c").path, source.appendingPathComponent("probe_blocks.c").path,
               "-o", library.path]
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        try? output.close()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw BuildError(description: "\(compiler) could not compile the probe plugin:\n\(text)")
        }
        return library
    }

    /// Writes `probe.lv2` into `folder` and returns the folder, for LV2_PATH.
    public static func bundle(in folder: URL, library: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("probe.lv2")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let prefixes = """
            @prefix doap: <http://usefulinc.com/ns/doap#> .
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            @prefix work: <http://lv2plug.in/ns/ext/worker#> .

            """
        try (prefixes + """
            <\(uri)> a lv2:Plugin ;
                lv2:binary <\(library.absoluteString)> ;
                rdfs:seeAlso <probe.ttl> .
            """).write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try (prefixes + """
            <\(uri)> a lv2:Plugin ;
                doap:name "fxhost probe" ;
                lv2:requiredFeature work:schedule ;
                lv2:extensionData work:interface ;
                lv2:port [
                    a lv2:InputPort, lv2:AudioPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In"
                ] , [
                    a lv2:OutputPort, lv2:AudioPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out"
                ] , [
                    a lv2:InputPort, lv2:ControlPort ; lv2:index 2 ; lv2:symbol "free_wheeling" ;
                    lv2:name "Freewheeling" ; lv2:designation lv2:freeWheeling ; lv2:portProperty lv2:toggled ;
                    lv2:default 0 ; lv2:minimum 0 ; lv2:maximum 1
                ] .
            """).write(to: bundle.appendingPathComponent("probe.ttl"), atomically: true, encoding: .utf8)
        return folder
    }

    /// The block-length probe (Tests/TestPlugin/probe_blocks.c): out = in,
    /// latency = the nominal block length it was last told, through
    /// options:interface, which refuses more than `blocksLimit` frames.
    public static let blocksURI = "urn:fxhost:test:probe-blocks"
    public static let blocksLimit = 1024

    /// Writes `probe-blocks.lv2` (the same library) into `folder`; returns the bundle.
    public static func blocksBundle(in folder: URL, library: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("probe-blocks.lv2")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let prefixes = """
            @prefix doap: <http://usefulinc.com/ns/doap#> .
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix opts: <http://lv2plug.in/ns/ext/options#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            @prefix urid: <http://lv2plug.in/ns/ext/urid#> .

            """
        try (prefixes + """
            <\(blocksURI)> a lv2:Plugin ;
                lv2:binary <\(library.absoluteString)> ;
                rdfs:seeAlso <probe-blocks.ttl> .
            """).write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try (prefixes + """
            <\(blocksURI)> a lv2:Plugin ;
                doap:name "fxhost block-length probe" ;
                lv2:requiredFeature urid:map, opts:options ;
                lv2:extensionData opts:interface ;
                lv2:port [
                    a lv2:InputPort, lv2:AudioPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In"
                ] , [
                    a lv2:OutputPort, lv2:AudioPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out"
                ] , [
                    a lv2:OutputPort, lv2:ControlPort ; lv2:index 2 ; lv2:symbol "latency" ; lv2:name "Latency" ;
                    lv2:designation lv2:latency ; lv2:portProperty lv2:reportsLatency
                ] .
            """).write(to: bundle.appendingPathComponent("probe-blocks.ttl"), atomically: true, encoding: .utf8)
        return bundle
    }
}
