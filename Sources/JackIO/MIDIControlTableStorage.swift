import HostCore

/// The memory of one `MIDIControlTable`, made on the control thread from
/// the session's mappings resolved against a plan, kept alive by the
/// program's owner (`LivePlanOwner.midi`) and freed with it, once the
/// realtime thread has let go.
final class MIDIControlTableStorage {
    let table: MIDIControlTable
    private let controllers: UnsafeMutableBufferPointer<MIDIControlTable.Controller>
    private let programs: UnsafeMutableBufferPointer<MIDIControlTable.Program>
    private let scenes: UnsafeMutableBufferPointer<MIDIControlTable.Scene>
    private let sceneFloats: UnsafeMutableBufferPointer<(target: UnsafeMutablePointer<Float>, value: Float)>
    private let sceneFlags: UnsafeMutableBufferPointer<(target: UnsafeMutablePointer<UInt8>, value: UInt8)>
    private let sceneFloatShapes: UnsafeMutableBufferPointer<SceneGlideShape>
    private let morphs: UnsafeMutableBufferPointer<MIDIControlTable.Morph>
    private let morphFloats: UnsafeMutableBufferPointer<MIDIControlTable.MorphFloat>
    private let morphFlags: UnsafeMutableBufferPointer<MIDIControlTable.MorphFlag>

    init(controllers: [MIDIControlTable.Controller], programs: [MIDIControlTable.Program], scenes: [LiveMIDIControl.ResolvedScene],
         morphs: [LiveMIDIControl.ResolvedMorph] = [], generation: Int32) {
        self.controllers = Self.copy(controllers)
        self.programs = Self.copy(programs)
        var ranges: [MIDIControlTable.Scene] = []
        var floats: [(target: UnsafeMutablePointer<Float>, value: Float)] = []
        var flags: [(target: UnsafeMutablePointer<UInt8>, value: UInt8)] = []
        var shapes: [SceneGlideShape] = []
        for scene in scenes {
            ranges.append(MIDIControlTable.Scene(floatStart: floats.count, floatCount: scene.parameters.count,
                                                 flagStart: flags.count, flagCount: scene.bypasses.count))
            floats += scene.parameters.map { ($0.target, $0.value) }
            shapes += scene.parameters.indices.map { $0 < scene.shapes.count ? scene.shapes[$0] : .atEnd }
            flags += scene.bypasses.map { ($0.flag, $0.on ? 1 : 0) }
        }
        self.scenes = Self.copy(ranges)
        sceneFloats = Self.copy(floats)
        sceneFlags = Self.copy(flags)
        sceneFloatShapes = Self.copy(shapes)
        var morphRanges: [MIDIControlTable.Morph] = []
        var morphFloats: [MIDIControlTable.MorphFloat] = []
        var morphFlags: [MIDIControlTable.MorphFlag] = []
        for morph in morphs {
            morphRanges.append(MIDIControlTable.Morph(floatStart: morphFloats.count, floatCount: morph.parameters.count,
                                                      flagStart: morphFlags.count, flagCount: morph.bypasses.count))
            morphFloats += morph.parameters.map {
                MIDIControlTable.MorphFloat(target: $0.target, first: $0.first, second: $0.second, shape: $0.shape)
            }
            morphFlags += morph.bypasses.map {
                MIDIControlTable.MorphFlag(target: $0.flag, first: $0.first ? 1 : 0, second: $0.second ? 1 : 0)
            }
        }
        self.morphs = Self.copy(morphRanges)
        self.morphFloats = Self.copy(morphFloats)
        self.morphFlags = Self.copy(morphFlags)
        table = MIDIControlTable(controllers: UnsafeBufferPointer(self.controllers), programs: UnsafeBufferPointer(self.programs),
                                 scenes: UnsafeBufferPointer(self.scenes), sceneFloats: UnsafeBufferPointer(sceneFloats),
                                 sceneFlags: UnsafeBufferPointer(sceneFlags), generation: generation,
                                 sceneFloatShapes: UnsafeBufferPointer(sceneFloatShapes), morphs: UnsafeBufferPointer(self.morphs),
                                 morphFloats: UnsafeBufferPointer(self.morphFloats), morphFlags: UnsafeBufferPointer(self.morphFlags))
    }

    deinit {
        controllers.deallocate()
        programs.deallocate()
        scenes.deallocate()
        sceneFloats.deallocate()
        sceneFlags.deallocate()
        sceneFloatShapes.deallocate()
        morphs.deallocate()
        morphFloats.deallocate()
        morphFlags.deallocate()
    }

    private static func copy<Element>(_ items: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(items.count, 1))
        _ = buffer.initialize(from: items)
        return UnsafeMutableBufferPointer(rebasing: buffer[0..<items.count])
    }
}
