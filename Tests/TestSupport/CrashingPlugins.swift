import Foundation

/// The plugins of Tests/TestPlugin/crashy.c, which fail on purpose: each
/// passes its input through until it fails in one LV2 call. `after` (a
/// control port, default 10) is the number of whole blocks run before the
/// failure. `install(in:)` compiles the library and writes one bundle for all
/// of them, for an LV2_PATH of its own.
public enum CrashingPlugins {
    /// Segfaults in run() after `after` blocks.
    public static let crashInRun = "urn:fxhost:test:crash-run"
    /// Calls abort() in instantiate().
    public static let abortInInstantiate = "urn:fxhost:test:abort-instantiate"
    /// Loops forever in run() after `after` blocks.
    public static let spinInRun = "urn:fxhost:test:spin-run"
    /// Segfaults in its worker's work(), asked from run() after `after` blocks.
    public static let crashInWork = "urn:fxhost:test:crash-work"
    /// Overflows its stack in run() after `after` blocks.
    public static let overflowInRun = "urn:fxhost:test:overflow-run"
    /// Sleeps 100 ms once in run() after `after` blocks: the server plays
    /// cycles without the host (an xrun), and the host plays on.
    public static let stallInRun = "urn:fxhost:test:stall-run"

    /// Each plugin's URI and `doap:name`.
    public static let names = [
        crashInRun: "Crashy Effect",
        abortInInstantiate: "Aborting Effect",
        spinInRun: "Spinning Effect",
        crashInWork: "Crashy Worker",
        overflowInRun: "Deep Effect",
        stallInRun: "Stalling Effect",
    ]

    /// Writes the bundle `crashy.lv2`, the library compiled into it, into
    /// `folder`; returns `folder`, for LV2_PATH. (lilv reads every folder on
    /// LV2_PATH as a bundle: one holding only the library is an error.)
    public static func install(in folder: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("crashy.lv2")
        let library = try TestPluginCompiler.compile(["crashy.c"], into: bundle.appendingPathComponent("libcrashy.so"))
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let prefixes = """
            @prefix doap: <http://usefulinc.com/ns/doap#> .
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            @prefix work: <http://lv2plug.in/ns/ext/worker#> .


            """
        let uris = [crashInRun, abortInInstantiate, spinInRun, crashInWork, overflowInRun, stallInRun]
        try (prefixes + uris.map { uri in
            "<\(uri)> a lv2:Plugin ;\n    lv2:binary <\(library.absoluteString)> ;\n    rdfs:seeAlso <crashy.ttl> .\n"
        }.joined(separator: "\n")).write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try (prefixes + uris.map { uri in
            let worker = uri == crashInWork ? "    lv2:requiredFeature work:schedule ;\n    lv2:extensionData work:interface ;\n" : ""
            return """
                <\(uri)> a lv2:Plugin, lv2:UtilityPlugin ;
                    doap:name "\(names[uri]!)" ;
                \(worker)    lv2:port [
                        a lv2:InputPort, lv2:AudioPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In"
                    ] , [
                        a lv2:OutputPort, lv2:AudioPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out"
                    ] , [
                        a lv2:InputPort, lv2:ControlPort ; lv2:index 2 ; lv2:symbol "after" ; lv2:name "After" ;
                        lv2:portProperty lv2:integer ; lv2:default 10 ; lv2:minimum 0 ; lv2:maximum 1000000
                    ] .

                """
        }.joined(separator: "\n")).write(to: bundle.appendingPathComponent("crashy.ttl"), atomically: true, encoding: .utf8)
        return folder
    }

    /// A rig whose plugin crashes during a live `bounce`: a 60 s constant
    /// 0.5 (`dc.wav`) through `crashInRun` at `after: 2000` to one output,
    /// as `bounce.yaml` in `folder`, with the plugins' bundle. Live, 2000
    /// blocks of 256 take 10.7 s; the bounce's own instance reaches them in
    /// its first 10.7 s of the file, faster than realtime. Returns the
    /// patch's path and the folder for LV2_PATH.
    public static func writeBounceCrashRig(in folder: URL) throws -> (patch: String, plugins: URL) {
        let plugins = try install(in: folder.appendingPathComponent("lv2"))
        try Audio.constant([0.5], frames: 48_000 * 60).write(folder.appendingPathComponent("dc.wav").path)
        let patch = folder.appendingPathComponent("bounce.yaml").path
        try """
        fxhost: 1
        nodes:
          dc:  { file: dc.wav }
          bad: { plugin: "\(crashInRun)", params: { after: 2000 } }
          out: { output: 1 }
        chain: [dc, bad, out]
        """.write(toFile: patch, atomically: true, encoding: .utf8)
        return (patch, plugins)
    }
}
