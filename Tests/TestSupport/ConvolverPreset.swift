import Foundation

/// An impulse response for x42's IR convolver (`zeroconvolv#CfgMono`) and an
/// LV2 preset bundle whose state names it (`zeroconvolv#ir`), the way the
/// plugin's own presets do, so a test can give the convolver its IR with
/// `applyPreset` and a world that loads the bundle.
public enum ConvolverPreset {
    public static let plugin = "http://gareus.org/oss/lv2/zeroconvolv#CfgMono"

    /// The label of the preset `write` names `name`.
    public static func label(_ name: String = "echo") -> String { "fxhost test \(name)" }

    /// Writes `folder/NAME.wav` (`gain` at frame `delay`, zeros around it,
    /// 48 kHz mono) and the bundle `folder/NAME.lv2`; returns the bundle's path.
    public static func write(in folder: URL, name: String = "echo", delay: Int, gain: Float) throws -> String {
        var samples = [Float](repeating: 0, count: delay + 64)
        samples[delay] = gain
        let impulse = folder.appendingPathComponent("\(name).wav")
        try Audio(channels: [samples]).write(impulse.path)
        let bundle = folder.appendingPathComponent("\(name).lv2", isDirectory: true)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let prefixes = """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            @prefix state: <http://lv2plug.in/ns/ext/state#> .

            """
        try (prefixes + """
            <\(name).ttl> a pset:Preset ;
                lv2:appliesTo <\(plugin)> ;
                rdfs:seeAlso <\(name).ttl> .

            """).write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try (prefixes + """
            <> a pset:Preset ;
                lv2:appliesTo <\(plugin)> ;
                rdfs:label "\(label(name))" ;
                state:state [
                    <http://gareus.org/oss/lv2/zeroconvolv#ir> <\(impulse.absoluteString)>
                ] .

            """).write(to: bundle.appendingPathComponent("\(name).ttl"), atomically: true, encoding: .utf8)
        return bundle.path
    }

    /// Every installed bundle and `bundles`, for `LV2World(bundles:)`.
    public static func bundles(with bundles: String...) throws -> [String] {
        let installed = try FileManager.default.contentsOfDirectory(atPath: "/usr/lib/lv2")
            .filter { $0.hasSuffix(".lv2") }.sorted().map { "/usr/lib/lv2/" + $0 }
        return installed + bundles
    }
}
