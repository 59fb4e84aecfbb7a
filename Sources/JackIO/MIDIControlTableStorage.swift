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

    init(controllers: [MIDIControlTable.Controller], programs: [MIDIControlTable.Program], scenes: [LiveMIDIControl.ResolvedScene],
         generation: Int32) {
        self.controllers = Self.copy(controllers)
        self.programs = Self.copy(programs)
        var ranges: [MIDIControlTable.Scene] = []
        var floats: [(target: UnsafeMutablePointer<Float>, value: Float)] = []
        var flags: [(target: UnsafeMutablePointer<UInt8>, value: UInt8)] = []
        for scene in scenes {
            ranges.append(MIDIControlTable.Scene(floatStart: floats.count, floatCount: scene.parameters.count,
                                                 flagStart: flags.count, flagCount: scene.bypasses.count))
            floats += scene.parameters.map { ($0.target, $0.value) }
            flags += scene.bypasses.map { ($0.flag, $0.on ? 1 : 0) }
        }
        self.scenes = Self.copy(ranges)
        sceneFloats = Self.copy(floats)
        sceneFlags = Self.copy(flags)
        table = MIDIControlTable(controllers: UnsafeBufferPointer(self.controllers), programs: UnsafeBufferPointer(self.programs),
                                 scenes: UnsafeBufferPointer(self.scenes), sceneFloats: UnsafeBufferPointer(sceneFloats),
                                 sceneFlags: UnsafeBufferPointer(sceneFlags), generation: generation)
    }

    deinit {
        controllers.deallocate()
        programs.deallocate()
        scenes.deallocate()
        sceneFloats.deallocate()
        sceneFlags.deallocate()
    }

    private static func copy<Element>(_ items: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(items.count, 1))
        _ = buffer.initialize(from: items)
        return UnsafeMutableBufferPointer(rebasing: buffer[0..<items.count])
    }
}
