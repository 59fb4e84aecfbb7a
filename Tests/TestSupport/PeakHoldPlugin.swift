import Foundation

/// The peak hold of Tests/TestPlugin/peak_hold.c: out = the largest |in|
/// it has seen, a value it keeps as LV2 state (`state:interface`) that no
/// port shows, so a patch's text cannot hold it; and twins segfaulting in
/// its state save() or restore(). `install(in:)` compiles the library and
/// writes their bundle, for an LV2_PATH of its own.
public enum PeakHoldPlugin {
    public static let uri = "urn:fxhost:test:peak-hold"
    /// The same, but its state save() segfaults.
    public static let crashInSave = "urn:fxhost:test:peak-hold-crash-save"
    /// The same, but its state restore() segfaults.
    public static let crashInRestore = "urn:fxhost:test:peak-hold-crash-restore"
    /// Each plugin's URI and `doap:name`.
    public static let names = [uri: "Peak Hold", crashInSave: "Crashy Save", crashInRestore: "Crashy Restore"]
    /// The key its state stores the held value under.
    public static let heldKey = "urn:fxhost:test:peak-hold#held"

    /// Writes the bundle `peak-hold.lv2`, the library compiled into it, into
    /// `folder`; returns the bundle.
    @discardableResult
    public static func install(in folder: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("peak-hold.lv2")
        let library = try TestPluginCompiler.compile(["peak_hold.c"], into: bundle.appendingPathComponent("libpeakhold.so"))
        let prefixes = """
            @prefix doap: <http://usefulinc.com/ns/doap#> .
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            @prefix state: <http://lv2plug.in/ns/ext/state#> .
            @prefix urid: <http://lv2plug.in/ns/ext/urid#> .


            """
        try (prefixes + [uri, crashInSave, crashInRestore].map { uri in
            "<\(uri)> a lv2:Plugin ;\n    lv2:binary <\(library.absoluteString)> ;\n    rdfs:seeAlso <peak-hold.ttl> .\n"
        }.joined(separator: "\n")).write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try (prefixes + [uri, crashInSave, crashInRestore].map { uri in
            """
            <\(uri)> a lv2:Plugin, lv2:UtilityPlugin ;
                doap:name "\(names[uri]!)" ;
                lv2:requiredFeature urid:map ;
                lv2:extensionData state:interface ;
                lv2:port [
                    a lv2:InputPort, lv2:AudioPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In"
                ] , [
                    a lv2:OutputPort, lv2:AudioPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out"
                ] .

            """
        }.joined(separator: "\n")).write(to: bundle.appendingPathComponent("peak-hold.ttl"), atomically: true, encoding: .utf8)
        return bundle
    }
}
