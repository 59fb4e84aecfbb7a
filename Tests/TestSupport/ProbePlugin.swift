import Foundation

/// The test-only LV2 probe plugin (Tests/TestPlugin): `out = in +
/// freeWheeling + the worker's answer (0.5, asked on the first block)`.
/// `buildLibrary(in:)` compiles it, `bundle(in:library:)` writes its LV2
/// bundle around the library, for an LV2_PATH of its own.
public enum ProbePlugin {
    public static let uri = "urn:fxhost:test:probe"

    /// Compiles Tests/TestPlugin/probe.c into `folder/libprobe.so` (see
    /// `TestPluginCompiler`). `unloadable`
    /// makes a library that needs a symbol no library defines, so loading
    /// it fails the way a plugin with a missing dependency does.
    public static func buildLibrary(in folder: URL, unloadable: Bool = false) throws -> URL {
        try TestPluginCompiler.compile(["probe.c", "probe_blocks.c"], into: folder.appendingPathComponent("libprobe.so"),
                                       defines: unloadable ? ["FXHOST_PROBE_UNLOADABLE"] : [])
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
