import TestSupport
import XCTest
@testable import HostCore

/// Well-formed patches parse to the model written out by hand from their text.
final class PatchParserTests: XCTestCase {
    /// The project's first design example: a live patch with a chain and a tap.
    static let liveExample = """
        fxhost: 1                       # format version
        name: crunch
        nodes:
          guitar: { input: [system:capture_1] }          # live source: JACK ports
          drive:
            plugin: http://drobilla.net/plugins/mda/Overdrive
            params: { drive: 0.6, muffle: 0.2 }
          eq:   { plugin: http://gareus.org/oss/lv2/fil4#stereo, preset: "..." }
          room: { plugin: http://drobilla.net/plugins/mda/Ambience, params: { mix: 0.25 } }
          main: { output: [system:playback_1, system:playback_2] }
        chain: [guitar, drive, eq, room, main]           # linear wiring shorthand
        taps:
          - { at: drive, file: takes/drive.flac }
        """

    /// The second design example: a project to bounce.
    static let bounceExample = """
        fxhost: 1
        nodes:
          drums: { file: stems/drums.wav, gain: -3dB }
          vox:   { file: stems/vox.wav, start: 1.5s }
          verb:  { plugin: http://drobilla.net/plugins/mda/Ambience }
          bus:   { mix: 2 }                               # summing bus, 2 channels
          out:   { output: [system:playback_1, system:playback_2] }
        connect:
          - drums -> bus
          - vox -> bus
          - { from: vox, to: verb, gain: -12dB }          # a send
          - verb -> bus
          - bus -> out
        """

    private func connection(_ from: String, _ to: String, gain: Double = 0) -> ConnectionDeclaration {
        ConnectionDeclaration(from: PortReference(node: from), to: PortReference(node: to), gainDecibels: gain)
    }

    func testLiveExampleModel() throws {
        let patch = try PatchParser.parse(text: Self.liveExample, path: "crunch.yaml")
        let mda = "http://drobilla.net/plugins/mda/"
        let expected = Patch(
            version: 1, name: "crunch",
            nodes: [
                NodeDeclaration(name: "guitar", kind: .input(.ports(["system:capture_1"]))),
                NodeDeclaration(name: "drive", kind: .plugin(PluginNodeSpec(plugin: mda + "Overdrive", parameters: [
                    ParameterSetting(symbol: "drive", value: .number(0.6)),
                    ParameterSetting(symbol: "muffle", value: .number(0.2)),
                ]))),
                NodeDeclaration(name: "eq", kind: .plugin(PluginNodeSpec(plugin: "http://gareus.org/oss/lv2/fil4#stereo", preset: "..."))),
                NodeDeclaration(name: "room", kind: .plugin(PluginNodeSpec(plugin: mda + "Ambience", parameters: [
                    ParameterSetting(symbol: "mix", value: .number(0.25)),
                ]))),
                NodeDeclaration(name: "main", kind: .output(.ports(["system:playback_1", "system:playback_2"]))),
            ],
            connections: [connection("guitar", "drive"), connection("drive", "eq"), connection("eq", "room"), connection("room", "main")],
            taps: [TapDeclaration(at: PortReference(node: "drive"), file: "takes/drive.flac")])
        XCTAssertEqual(withoutLocations(patch), expected)
        XCTAssertEqual(patch.sourcePath, "crunch.yaml")
    }

    func testLiveExampleLocations() throws {
        let patch = try PatchParser.parse(text: Self.liveExample, path: "crunch.yaml")
        func at(_ line: Int, _ column: Int) -> SourceLocation { SourceLocation(file: "crunch.yaml", line: line, column: column) }
        XCTAssertEqual(patch.node(named: "drive")?.location, at(5, 3))
        guard case .plugin(let drive) = patch.node(named: "drive")?.kind, case .plugin(let eq) = patch.node(named: "eq")?.kind else {
            return XCTFail("drive and eq should be plugins")
        }
        XCTAssertEqual(drive.pluginLocation, at(6, 13))
        XCTAssertEqual(drive.parameters.map(\.location), [at(7, 15), at(7, 27)])
        // `  eq:   { plugin: http://gareus.org/oss/lv2/fil4#stereo, preset: "..." }`: the quote is at column 66.
        XCTAssertEqual(eq.presetLocation, at(8, 66))
        // `chain: [guitar, drive, eq, room, main]`
        XCTAssertEqual(patch.connections.map(\.from.location), [at(11, 9), at(11, 17), at(11, 24), at(11, 28)])
        XCTAssertEqual(patch.connections.map(\.to.location), [at(11, 17), at(11, 24), at(11, 28), at(11, 34)])
        XCTAssertEqual(patch.taps.first?.at.location, at(13, 11))
    }

    func testBounceExampleModel() throws {
        let patch = try PatchParser.parse(text: Self.bounceExample, path: "bounce.yaml")
        let expected = Patch(
            version: 1,
            nodes: [
                NodeDeclaration(name: "drums", kind: .file(FileSourceSpec(path: "stems/drums.wav", gainDecibels: -3))),
                NodeDeclaration(name: "vox", kind: .file(FileSourceSpec(path: "stems/vox.wav", startSeconds: 1.5))),
                NodeDeclaration(name: "verb", kind: .plugin(PluginNodeSpec(plugin: "http://drobilla.net/plugins/mda/Ambience"))),
                NodeDeclaration(name: "bus", kind: .mix(channels: 2)),
                NodeDeclaration(name: "out", kind: .output(.ports(["system:playback_1", "system:playback_2"]))),
            ],
            connections: [connection("drums", "bus"), connection("vox", "bus"), connection("vox", "verb", gain: -12),
                          connection("verb", "bus"), connection("bus", "out")])
        XCTAssertEqual(withoutLocations(patch), expected)
    }

    func testBounceExampleConnectionLocations() throws {
        let patch = try PatchParser.parse(text: Self.bounceExample, path: "b.yaml")
        func at(_ line: Int, _ column: Int) -> SourceLocation { SourceLocation(file: "b.yaml", line: line, column: column) }
        XCTAssertEqual(patch.connections.map(\.location), [at(9, 5), at(10, 5), at(11, 5), at(12, 5), at(13, 5)])
        // `  - drums -> bus`: `bus` starts at column 14.
        XCTAssertEqual(patch.connections[0].to.location, at(9, 14))
        // `  - { from: vox, to: verb, gain: -12dB }`: `verb` starts at column 22.
        XCTAssertEqual(patch.connections[2].to.location, at(11, 22))
    }

    func testValuesAndUnits() throws {
        let patch = try PatchParser.parse(text: """
            fxhost: 1
            nodes:
              a: { file: a.wav, gain: "-3 dB", start: 250ms, pan: -0.5 }
              b: { file: b.wav, gain: +2.5dB, start: 2 }
              c: { file: c.wav, gain: -6 }
              g: { gain: -6dB }
              p:
                plugin: eg-amp
                params: { gain: -6, on: true, mode: Shelf, name: "42" }
                bypass: false
                preset: Warm
              i: { input: 2 }
              bus: { mix: 1 }
            connect:
              - a:1 -> g
              - g -> p:in_1
              - { from: b, to: bus, gain: 0 }
            """, path: "p.yaml")
        XCTAssertEqual(withoutLocations(patch).nodes.map(\.kind), [
            .file(FileSourceSpec(path: "a.wav", startSeconds: 0.25, gainDecibels: -3, pan: -0.5)),
            .file(FileSourceSpec(path: "b.wav", startSeconds: 2, gainDecibels: 2.5)),
            .file(FileSourceSpec(path: "c.wav", gainDecibels: -6)),
            .gain(decibels: -6),
            .plugin(PluginNodeSpec(plugin: "eg-amp", parameters: [
                ParameterSetting(symbol: "gain", value: .number(-6)),
                ParameterSetting(symbol: "on", value: .toggle(true)),
                ParameterSetting(symbol: "mode", value: .label("Shelf")),
                ParameterSetting(symbol: "name", value: .label("42")),
            ], preset: "Warm", bypass: false)),
            .input(.channels(2)),
            .mix(channels: 1),
        ])
        XCTAssertEqual(patch.connections.map(arrow), ["a:1 -> g", "g -> p:in_1", "b -> bus"])
    }

    func testSeveralChains() throws {
        let patch = try PatchParser.parse(text: """
            fxhost: 1
            nodes:
              l: { input: 1 }
              r: { input: 1 }
              gl: { gain: -1 }
              gr: { gain: -2 }
              out: { output: 2 }
            chain:
              - [l, gl, out:1]
              - [r, gr, out:2]
            """, path: "p.yaml")
        XCTAssertEqual(patch.connections.map(arrow), ["l -> gl", "gl -> out:1", "r -> gr", "gr -> out:2"])
    }

    func testTextThatLooksLikeAnchorsIsAccepted() throws {
        // `&` and `*` inside plain text, quotes, comments and block scalars are not anchors or aliases.
        let patch = try PatchParser.parse(text: """
            fxhost: 1
            name: rock &roll * 2   # &not *an alias
            nodes:
              a: { file: "&drums*.wav" }
              b:
                plugin: 'x*y'
                params: { text: "*a" }
                preset: |
                  *looks like an alias
                  &and an anchor
              out: { output: 1 }
            chain: [a, b, out]
            """, path: "p.yaml")
        XCTAssertEqual(patch.name, "rock &roll * 2")
        guard case .plugin(let spec) = patch.node(named: "b")?.kind else { return XCTFail("b should be a plugin") }
        XCTAssertEqual(spec.preset, "*looks like an alias\n&and an anchor\n")
    }

    func testLoadReadsAFile() throws {
        let directory = try makeScratchFolder(prefix: "patch-tests")
        let path = directory.appendingPathComponent("bounce.yaml").path
        try Self.bounceExample.write(toFile: path, atomically: true, encoding: .utf8)
        let patch = try PatchParser.load(path: path)
        XCTAssertEqual(patch.sourcePath, path)
        XCTAssertEqual(withoutLocations(patch), withoutLocations(try PatchParser.parse(text: Self.bounceExample, path: "other")))
    }
}
