import Yams

/// `midi-control:` (input ports, feedback `output` ports and `map:` entries) and `scenes:`. What needs
/// no plugin is checked here (declared nodes, numbers in range, curves and
/// ranges, scene names); parameters and their ranges are checked by
/// `PatchLoader`, at the same locations.
extension PatchDocumentReader {
    static let midiControlKeys = ["input", "output", "map"]
    static let mappingKeys = ["cc", "program", "to", "range", "channel", "curve", "scene", "glide", "morph"]

    func readMIDIControl(_ section: YAMLEntry?, scenes: YAMLEntry?, nodeNames: DeclaredNodeNames) throws(GraphError) -> MIDIControl {
        var control = MIDIControl()
        if let scenes { control.scenes = try readScenes(scenes.value, nodeNames: nodeNames) }
        guard let section else { return control }
        control.isDeclared = true
        // `midi-control:` with nothing under it: a MIDI port for `learn`, nothing mapped yet.
        if yaml.isNull(section.value) { return control }
        let entries = try yaml.entries(of: section.value, what: "`midi-control`")
        for entry in entries { try yaml.rejectUnknown(entry, allowed: Self.midiControlKeys, in: "`midi-control`") }
        if let input = entries.first(where: { $0.key == "input" }) {
            control.inputs = try readMIDIPorts(input.value, key: "input")
        }
        if let output = entries.first(where: { $0.key == "output" }) {
            control.outputs = try readMIDIPorts(output.value, key: "output")
        }
        if let map = entries.first(where: { $0.key == "map" }), !yaml.isNull(map.value) {
            let example = "`[{ cc: 7, to: amp:gain }]`"
            for item in try yaml.items(of: map.value, what: "`map` in `midi-control`", example: example) {
                control.mappings.append(try readMapping(item, nodeNames: nodeNames, scenes: control.scenes))
            }
        }
        return control
    }

    private func readMapping(_ item: Node, nodeNames: DeclaredNodeNames, scenes: [SceneDeclaration]) throws(GraphError) -> MIDIMapping {
        let what = "a MIDI mapping"
        let forms = "`{ cc: 7, to: amp:gain }`, `{ cc: 64, to: drive:bypass }` or `{ program: 2, scene: lead }`"
        guard item.mapping != nil else {
            throw GraphError("\(what) must be a mapping such as \(forms), got \(yaml.describe(item))", at: yaml.location(item))
        }
        let entries = try yaml.entries(of: item, what: what)
        for entry in entries { try yaml.rejectUnknown(entry, allowed: Self.mappingKeys, in: what) }
        func entry(_ key: String) -> YAMLEntry? { entries.first { $0.key == key } }
        let location = yaml.location(item)

        let channel = try entry("channel").map { entry throws(GraphError) in
            try midiNumber(entry, in: 1...16, meaning: "a MIDI channel from 1 to 16")
        }
        switch (entry("cc"), entry("program")) {
        case (nil, nil):
            throw GraphError("\(what) needs `cc` (a controller number) or `program` (a program change), as in \(forms)", at: location)
        case (.some, .some(let program)):
            throw GraphError("\(what) takes either `cc` or `program`, not both", at: yaml.location(program.keyNode))
        case (nil, .some(let program)):
            let number = try midiNumber(program, in: 0...127, meaning: "a program number from 0 to 127")
            for key in ["to", "range", "curve"] {
                if let extra = entry(key) {
                    throw GraphError("a program change switches a scene: give it `scene`, not `\(key)`",
                                     at: yaml.location(extra.keyNode))
                }
            }
            guard let scene = entry("scene") else {
                throw GraphError("a program change needs `scene`, the scene it switches to (as in `{ program: 2, scene: lead }`)",
                                 at: location)
            }
            guard let name = yaml.text(scene.value) else {
                throw GraphError("`scene` must be a scene's name, got \(yaml.describe(scene.value))", at: yaml.location(scene.value))
            }
            try requireScene(name, in: scenes, at: scene.value)
            let glide = try entry("glide").map { entry throws(GraphError) in try glideTime(entry) }
            return MIDIMapping(trigger: .program(number), channel: channel, target: .scene(name), location: location, glide: glide)
        case (.some(let controller), nil):
            let number = try midiNumber(controller, in: 0...127, meaning: "a controller number from 0 to 127")
            if let glide = entry("glide") {
                throw GraphError("`glide` belongs to a program change's scene (as in `{ program: 3, scene: lead, glide: 500ms }`)",
                                 at: yaml.location(glide.keyNode))
            }
            if let morph = entry("morph") {
                for key in ["to", "range", "curve", "scene"] {
                    if let extra = entry(key) {
                        throw GraphError("a morph blends two scenes: give it `morph`, not `\(key)`", at: yaml.location(extra.keyNode))
                    }
                }
                let example = "`[clean, lead]`"
                let names = try yaml.items(of: morph.value, what: "`morph`", example: example)
                guard names.count == 2, let first = yaml.text(names[0]), let second = yaml.text(names[1]) else {
                    throw GraphError(names.count == 2 ? "`morph` must be two scene names such as \(example), got \(yaml.describe(morph.value))"
                                         : "`morph` must be exactly two scene names such as \(example), got \(names.count)",
                                     at: yaml.location(morph.value))
                }
                try requireScene(first, in: scenes, at: names[0])
                try requireScene(second, in: scenes, at: names[1])
                return MIDIMapping(trigger: .controller(number), channel: channel, target: .morph(first, second), location: location)
            }
            if let scene = entry("scene") {
                throw GraphError("a controller maps to a parameter with `to`; scenes are switched by `program`",
                                 at: yaml.location(scene.keyNode))
            }
            guard let to = entry("to") else {
                throw GraphError("a controller mapping needs `to`, the `node:param` it moves (or `node:bypass`, or `tempo:tap`)", at: location)
            }
            let target = try readTarget(to, range: entry("range"), curve: entry("curve"), nodeNames: nodeNames)
            return MIDIMapping(trigger: .controller(number), channel: channel, target: target, location: location)
        }
    }

    private func readTarget(_ to: YAMLEntry, range: YAMLEntry?, curve: YAMLEntry?,
                            nodeNames: DeclaredNodeNames) throws(GraphError) -> MIDIMapping.Target {
        let location = yaml.location(to.value)
        if yaml.text(to.value) == MIDIMapping.tempoTapDestination {
            for extra in [range, curve].compactMap({ $0 }) {
                throw GraphError("`\(extra.key)` does not apply to tap tempo (values from 64 are taps)",
                                 at: yaml.location(extra.keyNode))
            }
            return .tempoTap
        }
        guard let text = yaml.text(to.value), case .success(let (node, port)) = PatchValueSyntax.portReference(text),
              case .symbol(let symbol) = port else {
            throw GraphError("`to` must be `node:param` (a plugin node and one of its parameters), `node:bypass` or `tempo:tap`, got \(yaml.describe(to.value))",
                             at: location)
        }
        guard nodeNames.contains(node) else {
            throw GraphError("unknown node `\(node)` in a MIDI mapping", at: location,
                             suggestion: Suggestion.didYouMean(node, in: nodeNames.inOrder))
        }
        if symbol == "bypass" {
            for extra in [range, curve].compactMap({ $0 }) {
                throw GraphError("`\(extra.key)` does not apply to a bypass switch (values from 64 bypass the node)",
                                 at: yaml.location(extra.keyNode))
            }
            return .bypass(node: node)
        }
        var scaledCurve = MIDICurve.linear
        if let curve {
            switch yaml.plainText(curve.value) {
            case "linear": scaledCurve = .linear
            case "log": scaledCurve = .logarithmic
            default:
                throw GraphError("`curve` must be `linear` or `log`, got \(yaml.describe(curve.value))",
                                 at: yaml.location(curve.value))
            }
        }
        var bounds: ClosedRange<Double>?
        if let range {
            let items = range.value.sequence.map(Array.init) ?? []
            let numbers = items.compactMap { yaml.plainText($0).flatMap { PatchValueSyntax.number($0) } }
            guard items.count == 2, numbers.count == 2 else {
                throw GraphError("`range` must be two numbers `[low, high]` such as `[-30, 0]`, got \(yaml.describe(range.value))",
                                 at: yaml.location(range.value))
            }
            guard numbers[0] < numbers[1] else {
                throw GraphError("`range` must go from low to high, got [\(NumberText.format(numbers[0])), \(NumberText.format(numbers[1]))]",
                                 at: yaml.location(range.value))
            }
            if scaledCurve == .logarithmic, numbers[0] <= 0 {
                throw GraphError("a `log` curve needs a range above 0, got [\(NumberText.format(numbers[0])), \(NumberText.format(numbers[1]))]; use `curve: linear` or a range such as [20, 20000]",
                                 at: yaml.location(range.value))
            }
            bounds = numbers[0]...numbers[1]
        }
        return .parameter(node: node, symbol: symbol, range: bounds, curve: scaledCurve)
    }

    /// Refuses a scene name the patch does not declare, at `node`.
    private func requireScene(_ name: String, in scenes: [SceneDeclaration], at node: Node) throws(GraphError) {
        guard !scenes.contains(where: { $0.name == name }) else { return }
        let known = scenes.map(\.name)
        throw GraphError(known.isEmpty ? "unknown scene `\(name)`: the patch has no `scenes:`"
                             : "unknown scene `\(name)`; the patch's scenes are \(known.map { "`\($0)`" }.joined(separator: ", "))",
                         at: yaml.location(node), suggestion: Suggestion.didYouMean(name, in: known))
    }

    /// `glide: 500ms`: a time, bounded before it is used.
    private func glideTime(_ entry: YAMLEntry) throws(GraphError) -> Double {
        guard let text = yaml.plainText(entry.value) else {
            throw GraphError("`glide` must be a time such as `2s` or `500ms`, got \(yaml.describe(entry.value))",
                             at: yaml.location(entry.value))
        }
        do throws(SceneGlideTimeError) {
            return try SceneGlideTime.seconds(text)
        } catch {
            throw GraphError(error.message, at: yaml.location(entry.value))
        }
    }

    private func midiNumber(_ entry: YAMLEntry, in bounds: ClosedRange<Int>, meaning: String) throws(GraphError) -> Int {
        guard let text = yaml.plainText(entry.value), let number = PatchValueSyntax.integer(text) else {
            throw GraphError("`\(entry.key)` must be \(meaning), got \(yaml.describe(entry.value))", at: yaml.location(entry.value))
        }
        guard bounds.contains(number) else {
            throw GraphError("`\(entry.key)` must be \(meaning), got \(number)", at: yaml.location(entry.value))
        }
        return number
    }

    /// `scenes: { lead: { drive: { drive: 0.9, bypass: false }, room: { mix: 0.4 } } }`
    private func readScenes(_ node: Node, nodeNames: DeclaredNodeNames) throws(GraphError) -> [SceneDeclaration] {
        var scenes: [SceneDeclaration] = []
        for entry in try yaml.entries(of: node, what: "`scenes`") {
            let what = "scene `\(entry.key)`"
            var scene = SceneDeclaration(name: entry.key, location: yaml.location(entry.keyNode))
            for setting in try yaml.entries(of: entry.value, what: what) {
                guard nodeNames.contains(setting.key) else {
                    throw GraphError("unknown node `\(setting.key)` in \(what)", at: yaml.location(setting.keyNode),
                                     suggestion: Suggestion.didYouMean(setting.key, in: nodeNames.inOrder))
                }
                scene.nodes.append(try readSceneNode(setting, scene: entry.key))
            }
            scenes.append(scene)
        }
        return scenes
    }

    private func readSceneNode(_ setting: YAMLEntry, scene: String) throws(GraphError) -> SceneDeclaration.NodeSetting {
        var result = SceneDeclaration.NodeSetting(node: setting.key, location: yaml.location(setting.keyNode))
        let what = "node `\(setting.key)` of scene `\(scene)`"
        for entry in try yaml.entries(of: setting.value, what: what) {
            if entry.key == "bypass" {
                guard let on = yaml.bool(entry.value) else {
                    throw GraphError("`bypass` must be true or false, got \(yaml.describe(entry.value))", at: yaml.location(entry.value))
                }
                result.bypass = on
                continue
            }
            guard PatchValueSyntax.isSymbol(entry.key) else {
                throw GraphError("`\(entry.key)` is not a port symbol; symbols contain only letters, digits and `_`",
                                 at: yaml.location(entry.keyNode))
            }
            let value = try parameterValue(entry, where: "in \(what)")
            result.parameters.append(ParameterSetting(symbol: entry.key, value: value, location: yaml.location(entry.keyNode)))
        }
        return result
    }
}
