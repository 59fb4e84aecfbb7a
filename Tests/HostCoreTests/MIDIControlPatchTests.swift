import XCTest
@testable import HostCore

/// `midi-control:` and `scenes:`: the issue's example loads as written;
/// each mistake is refused at its file:line:column (counted by hand from the
/// YAML in each test) with what was meant; and a controller's 0...127 is
/// scaled by arithmetic.
final class MIDIControlPatchTests: XCTestCase {
    /// The nodes the examples map, with the issue's names.
    private static let nodes = """
        fxhost: 1
        nodes:
          amp: { plugin: test }
          drive: { plugin: test }
          wah: { plugin: test }
          room: { plugin: test }
          out: { output: 1 }
        chain: [amp, drive, wah, room, out]

        """

    // MARK: The issue's example

    func testTheIssuesExampleLoadsExactlyAsWritten() throws {
        let text = Self.nodes + """
            midi-control:
              input: ["system:midi_capture_1"]          # JACK MIDI ports or patterns the controllers are on
              map:
                - { cc: 7, to: amp:gain, range: [-30, 0] }      # CC 0..127 scaled onto the range; channel: N to restrict
                - { cc: 64, to: drive:bypass }                   # a switch: values >= 64 mean on
                - { cc: 11, to: wah:freq, curve: log }           # log for frequencies, as hosts do
                - { program: 2, scene: lead }
            scenes:
              lead: { drive: { drive: 0.9, bypass: false }, room: { mix: 0.4 } }
            """
        let patch = try PatchParser.parse(text: text, path: "p.yaml")
        let control = patch.midiControl
        XCTAssertTrue(control.isDeclared)
        XCTAssertEqual(control.inputs, ["system:midi_capture_1"])
        XCTAssertEqual(control.mappings.map(\.trigger), [.controller(7), .controller(64), .controller(11), .program(2)])
        XCTAssertEqual(control.mappings.map(\.target), [
            .parameter(node: "amp", symbol: "gain", range: -30...0, curve: .linear),
            .bypass(node: "drive"),
            .parameter(node: "wah", symbol: "freq", range: nil, curve: .logarithmic),
            .scene("lead"),
        ])
        XCTAssertEqual(control.mappings.map(\.channel), [nil, nil, nil, nil])
        XCTAssertEqual(control.mappings[0].location, SourceLocation(file: "p.yaml", line: 12, column: 7))
        XCTAssertEqual(control.scenes.count, 1)
        let lead = control.scenes[0]
        XCTAssertEqual(lead.name, "lead")
        XCTAssertEqual(lead.nodes.map(\.node), ["drive", "room"])
        XCTAssertEqual(lead.nodes[0].parameters.map(\.symbol), ["drive"])
        XCTAssertEqual(lead.nodes[0].parameters.map(\.value), [.number(0.9)])
        XCTAssertEqual(lead.nodes[0].bypass, false)
        XCTAssertEqual(lead.nodes[1].parameters.map(\.value), [.number(0.4)])
        XCTAssertNil(lead.nodes[1].bypass)

        // The plugins' side: wah's freq is 20...20000 Hz, so log needs no range.
        XCTAssertNoThrow(try loader().graph(for: patch))
    }

    func testAPatchWithoutTheSectionsHasNoMIDIControl() throws {
        let patch = try PatchParser.parse(text: Self.nodes, path: "p.yaml")
        XCTAssertEqual(patch.midiControl, MIDIControl())
    }

    func testMappingsReadChannelsAndWriteBackAsThePatchDoes() throws {
        let patch = try PatchParser.parse(text: Self.nodes + """
            midi-control:
              input: "controller:.*"
              map:
                - { cc: 1, to: wah:freq, range: [200, 2000], curve: log, channel: 16 }
            """, path: "p.yaml")
        XCTAssertEqual(patch.midiControl.inputs, ["controller:.*"])
        XCTAssertEqual(patch.midiControl.mappings[0].channel, 16)
        XCTAssertEqual("\(patch.midiControl.mappings[0])", "{ cc: 1, to: wah:freq, range: [200, 2000], curve: log, channel: 16 }")
    }

    /// `output:` (MIDI feedback's ports): one name or a list, written back by `save`; a mapping is refused at its place.
    func testFeedbackOutputsReadAndWriteBack() throws {
        let patch = try PatchParser.parse(text: Self.nodes + """
            midi-control:
              output: [fader:in, "leds:.*"]
              map:
                - { cc: 7, to: amp:gain }
            """, path: "p.yaml")
        XCTAssertEqual(patch.midiControl.outputs, ["fader:in", "leds:.*"])
        XCTAssertEqual(patch.midiControl.inputs, [])
        let written = MIDIControlSection.section(patch.midiControl, unlessSameAs: MIDIControl())?.lines.joined(separator: "\n") ?? ""
        let again = try PatchParser.parse(text: Self.nodes + written + "\n", path: "p.yaml")
        XCTAssertEqual(again.midiControl.outputs, ["fader:in", "leds:.*"], written)
        XCTAssertEqual(try PatchParser.parse(text: Self.nodes + "midi-control:\n  output: fader:in\n", path: "p.yaml").midiControl.outputs,
                       ["fader:in"])
        XCTAssertEqual(patchFailure(Self.nodes + "midi-control:\n  output: { a: 1 }\n"),
                       "p.yaml:10:11: `output` must be a list of JACK MIDI port names (or patterns), got a mapping")
    }

    func testTapTempoIsAControllerTargetWrittenBackAsRead() throws {
        let patch = try PatchParser.parse(text: Self.nodes + """
            midi-control:
              map:
                - { cc: 80, to: tempo:tap, channel: 2 }
            """, path: "p.yaml")
        XCTAssertEqual(patch.midiControl.mappings.map(\.target), [.tempoTap])
        XCTAssertEqual(patch.midiControl.mappings.map(\.trigger), [.controller(80)])
        XCTAssertEqual("\(patch.midiControl.mappings[0])", "{ cc: 80, to: tempo:tap, channel: 2 }")
        XCTAssertNoThrow(try loader().graph(for: patch), "no node is named tempo, and none need be")
        // What `save` writes reads back to the same mapping.
        let written = MIDIControlSection.section(patch.midiControl, unlessSameAs: MIDIControl())?.lines.joined(separator: "\n") ?? ""
        let again = try PatchParser.parse(text: Self.nodes + written + "\n", path: "p.yaml")
        XCTAssertEqual(again.midiControl.mappings.map(\.target), [.tempoTap])
        XCTAssertEqual(again.midiControl.mappings.map(\.channel), [2])
    }

    func testTapTempoTakesNoRangeOrCurve() {
        XCTAssertEqual(mapping("{ cc: 80, to: tempo:tap, range: [0, 1] }"),
                       "p.yaml:11:32: `range` does not apply to tap tempo (values from 64 are taps)")
        XCTAssertEqual(mapping("{ cc: 80, to: tempo:tap, curve: log }"),
                       "p.yaml:11:32: `curve` does not apply to tap tempo (values from 64 are taps)")
    }

    // MARK: Mistakes the reader finds

    private func mapping(_ entry: String) -> String {
        patchFailure(Self.nodes + "midi-control:\n  map:\n    - \(entry)\nscenes:\n  lead: { room: { mix: 0.4 } }\n")
    }

    func testUnknownNode() {
        XCTAssertEqual(mapping("{ cc: 7, to: amb:gain }"),
                       "p.yaml:11:20: unknown node `amb` in a MIDI mapping (did you mean `amp`?)")
    }

    func testControllerNumberOutOfRange() {
        XCTAssertEqual(mapping("{ cc: 128, to: amp:gain }"),
                       "p.yaml:11:13: `cc` must be a controller number from 0 to 127, got 128")
        XCTAssertEqual(mapping("{ cc: -1, to: amp:gain }"),
                       "p.yaml:11:13: `cc` must be a controller number from 0 to 127, got -1")
        XCTAssertEqual(mapping("{ program: 200, scene: lead }"),
                       "p.yaml:11:18: `program` must be a program number from 0 to 127, got 200")
        XCTAssertEqual(mapping("{ cc: 7, to: amp:gain, channel: 0 }"),
                       "p.yaml:11:39: `channel` must be a MIDI channel from 1 to 16, got 0")
    }

    func testBadRange() {
        XCTAssertEqual(mapping("{ cc: 7, to: amp:gain, range: [0, 0] }"),
                       "p.yaml:11:37: `range` must go from low to high, got [0, 0]")
        XCTAssertEqual(mapping("{ cc: 7, to: amp:gain, range: [-30] }"),
                       "p.yaml:11:37: `range` must be two numbers `[low, high]` such as `[-30, 0]`, got a list")
        XCTAssertEqual(mapping("{ cc: 7, to: amp:gain, range: loud }"),
                       "p.yaml:11:37: `range` must be two numbers `[low, high]` such as `[-30, 0]`, got \"loud\"")
    }

    func testLogCurveOnARangeReachingZero() {
        XCTAssertEqual(mapping("{ cc: 11, to: wah:freq, range: [0, 2000], curve: log }"),
                       "p.yaml:11:38: a `log` curve needs a range above 0, got [0, 2000]; use `curve: linear` or a range such as [20, 20000]")
        XCTAssertEqual(mapping("{ cc: 11, to: wah:freq, curve: exp }"),
                       "p.yaml:11:38: `curve` must be `linear` or `log`, got \"exp\"")
    }

    func testUnknownScene() {
        XCTAssertEqual(mapping("{ program: 2, scene: laed }"),
                       "p.yaml:11:28: unknown scene `laed`; the patch's scenes are `lead` (did you mean `lead`?)")
    }

    func testWrongShapes() {
        XCTAssertEqual(mapping("{ cc: 7, to: amp:gain, rnage: [0, 1] }"),
                       "p.yaml:11:30: unknown key `rnage` in a MIDI mapping (did you mean `range`?)")
        XCTAssertEqual(mapping("{ to: amp:gain }"),
                       "p.yaml:11:7: a MIDI mapping needs `cc` (a controller number) or `program` (a program change), as in `{ cc: 7, to: amp:gain }`, `{ cc: 64, to: drive:bypass }` or `{ program: 2, scene: lead }`")
        XCTAssertEqual(mapping("{ cc: 7 }"),
                       "p.yaml:11:7: a controller mapping needs `to`, the `node:param` it moves (or `node:bypass`, or `tempo:tap`)")
        XCTAssertEqual(mapping("{ cc: 7, to: amp }"),
                       "p.yaml:11:20: `to` must be `node:param` (a plugin node and one of its parameters), `node:bypass` or `tempo:tap`, got \"amp\"")
        XCTAssertEqual(mapping("{ program: 2, to: amp:gain }"),
                       "p.yaml:11:21: a program change switches a scene: give it `scene`, not `to`")
        XCTAssertEqual(mapping("{ cc: 64, to: drive:bypass, range: [0, 1] }"),
                       "p.yaml:11:35: `range` does not apply to a bypass switch (values from 64 bypass the node)")
    }

    func testScenesNameDeclaredNodes() {
        XCTAssertEqual(patchFailure(Self.nodes + "scenes:\n  lead: { rom: { mix: 0.4 } }\n"),
                       "p.yaml:10:11: unknown node `rom` in scene `lead` (did you mean `room`?)")
        XCTAssertEqual(patchFailure(Self.nodes + "scenes:\n  lead: { room: { bypass: maybe } }\n"),
                       "p.yaml:10:27: `bypass` must be true or false, got \"maybe\"")
    }

    // MARK: Mistakes only the plugins show

    private func loadFailure(_ entry: String, scene: String = "{ room: { mix: 0.4 } }") -> String {
        do {
            let patch = try PatchParser.parse(text: Self.nodes + "midi-control:\n  map:\n    - \(entry)\nscenes:\n  lead: \(scene)\n",
                                              path: "p.yaml")
            _ = try loader().graph(for: patch)
            return "(loaded without error)"
        } catch {
            return error.description
        }
    }

    func testUnknownParameter() {
        XCTAssertEqual(loadFailure("{ cc: 7, to: amp:gian }"),
                       "p.yaml:11:7: node `amp`: `Test` has no parameter `gian` (did you mean `gain`?)")
    }

    func testRangeBeyondTheParameters() {
        XCTAssertEqual(loadFailure("{ cc: 7, to: amp:gain, range: [-100, 0] }"),
                       "p.yaml:11:7: the range [-100, 0] of `amp:gain` goes beyond the parameter's own, [-90, 24]")
    }

    func testLogCurveOverAParameterReachingZero() {
        XCTAssertEqual(loadFailure("{ cc: 7, to: amp:gain, curve: log }"),
                       "p.yaml:11:7: a `log` curve needs a range above 0, but `amp:gain` would span [-90, 24]; give a `range` above 0 or use `curve: linear`")
    }

    func testNotAPlugin() {
        XCTAssertEqual(loadFailure("{ cc: 64, to: out:bypass }"),
                       "p.yaml:11:7: node `out` in a MIDI bypass switch is not a plugin, so it has no parameters or bypass")
    }

    func testSceneValueOutOfRange() {
        XCTAssertEqual(loadFailure("{ cc: 7, to: amp:gain }", scene: "{ room: { mix: 4 } }"),
                       "p.yaml:13:19: scene `lead`, node `room`: `mix` must be between 0 and 1, got 4")
    }

    // MARK: Scaling, by arithmetic

    func testLinearScaling() {
        let scale = MIDIControllerScale(low: -30, high: 0)
        XCTAssertEqual(scale.value(controller: 0), -30)
        XCTAssertEqual(scale.value(controller: 127), 0)
        XCTAssertEqual(Double(scale.value(controller: 64)), -30 + 30 * 64.0 / 127, accuracy: 1e-5)
        XCTAssertEqual(scale.value(controller: 200), 0, "clamped")
    }

    func testLogScaling() {
        let scale = MIDIControllerScale(low: 20, high: 20_000, curve: .logarithmic)
        XCTAssertEqual(scale.value(controller: 0), 20)
        XCTAssertEqual(scale.value(controller: 127), 20_000)
        // Equal ratios: halfway up, the geometric mean; each step the 127th root of 1000.
        XCTAssertEqual(Double(scale.value(controller: 64)), 20 * pow(1000, 64.0 / 127), accuracy: 1e-2)
        XCTAssertEqual(Double(scale.value(controller: 1) / scale.value(controller: 0)), pow(1000, 1.0 / 127), accuracy: 1e-5)
    }

    func testSwitchAndWholeNumbers() {
        let toggle = MIDIControllerScale(low: 0, high: 1, stepping: .toggle)
        XCTAssertEqual([0, 63, 64, 127].map { toggle.value(controller: $0) }, [0, 0, 1, 1])
        let integer = MIDIControllerScale(low: 0, high: 3, stepping: .integer)
        // 3 × v / 127 rounded: 0 → 0, 21 → 0.496 → 0, 22 → 0.52 → 1, 127 → 3.
        XCTAssertEqual([0, 21, 22, 64, 127].map { integer.value(controller: $0) }, [0, 0, 1, 2, 3])
    }

    func testAParametersKindDecidesTheStepping() throws {
        let mapping = MIDIMapping(trigger: .controller(1), target: .parameter(node: "amp", symbol: "x", range: nil, curve: .linear))
        XCTAssertEqual(try mapping.scale(for: ParameterInfo(symbol: "x", name: "x", minimum: 0, maximum: 1, defaultValue: 0,
                                                             isToggle: true)).stepping, .toggle)
        XCTAssertEqual(try mapping.scale(for: ParameterInfo(symbol: "x", name: "x", minimum: 0, maximum: 4, defaultValue: 0,
                                                             isInteger: true)).stepping, .integer)
        XCTAssertEqual(try mapping.scale(for: ParameterInfo(symbol: "x", name: "x", minimum: 0, maximum: 4, defaultValue: 0))
                        .stepping, .continuous)
    }

    private func loader() -> PatchLoader {
        PatchLoader(units: MIDITestUnits(), inspectFile: { _ throws(AudioFileError) in
            FileShape(channels: 1, sampleRate: 48_000, frames: 0)
        })
    }
}

/// Units with eg-amp's gain, a frequency, Ambience's mix and Overdrive's drive, for the loader's checks.
private struct MIDITestUnits: UnitProvider {
    func makeUnit(_ reference: String) throws(UnitError) -> any ProcessingUnit { MIDITestUnit() }
}

private final class MIDITestUnit: ProcessingUnit {
    let displayName = "Test"
    var inputPorts: [AudioPortInfo] { [AudioPortInfo(symbol: "in", name: "In")] }
    var outputPorts: [AudioPortInfo] { [AudioPortInfo(symbol: "out", name: "Out")] }
    let parameters = [
        ParameterInfo(symbol: "gain", name: "Gain", minimum: -90, maximum: 24, defaultValue: 0),
        ParameterInfo(symbol: "freq", name: "Frequency", minimum: 20, maximum: 20_000, defaultValue: 1000),
        ParameterInfo(symbol: "mix", name: "Mix", minimum: 0, maximum: 1, defaultValue: 0.5),
        ParameterInfo(symbol: "drive", name: "Drive", minimum: 0, maximum: 1, defaultValue: 0),
    ]

    func setParameter(_ symbol: String, to value: ParameterValue) throws(UnitError) { _ = try checkedValue(symbol, value) }
    func parameterValue(_ symbol: String) -> Float? { nil }
    func applyPreset(_ name: String) throws(UnitError) { throw UnitError("no presets") }
    func prepareInstances(count: Int, format: RenderFormat) throws(UnitError) -> PreparedUnit { throw UnitError("not for rendering") }

    func checkedValue(_ symbol: String, _ value: ParameterValue) throws(UnitError) -> Float {
        guard let parameter = parameters.first(where: { $0.symbol == symbol }) else {
            throw UnitError("`\(displayName)` has no parameter `\(symbol)`")
        }
        guard case .number(let number) = value, (Double(parameter.minimum)...Double(parameter.maximum)).contains(number) else {
            throw UnitError("`\(symbol)` must be between \(NumberText.format(Double(parameter.minimum))) and \(NumberText.format(Double(parameter.maximum))), got \(value)")
        }
        return Float(number)
    }
}
