import HostCore

// Called by: the realtime thread reads a program's table every cycle (see
// `LiveMIDIInput`); the control thread builds it (`MIDIControlTableStorage`)
// and publishes it inside a `LiveProgram`.

/// A live program's MIDI mappings as the realtime thread sees them: plain
/// pointers into memory the program's owner keeps alive, resolved against
/// that program's plan (a bypass flag belongs to one plan). Immutable once
/// published: `learn` and `unlearn` publish a new program with a new table.
package struct MIDIControlTable {
    /// One mapped controller.
    package struct Controller {
        package var controller: UInt8
        /// 1...16, or 0: any channel.
        package var channel: UInt8
        /// Moved over a few blocks rather than in one step (continuous parameters only).
        package var smoothed: Bool
        package var scale: MIDIControllerScale
        /// A parameter's control value, or nil for a bypass.
        package var value: UnsafeMutablePointer<Float>?
        /// The plan's bypass flag, or nil for a parameter.
        package var flag: UnsafeMutablePointer<UInt8>?
        /// The mapping's place in the table's list (announcements name it by this).
        package var mapping: Int32
        /// A tap of tap tempo (`tempo:tap`): neither `value` nor `flag`; a
        /// value from 64 is reported with its frame time.
        package var tapsTempo = false
        /// A morph's index in `morphs` (`{ cc: 11, morph: [clean, lead] }`), or -1.
        package var morph: Int32 = -1
    }

    /// A morph between two scenes: its values are `morphFloats[floatStart..<floatStart + floatCount]`,
    /// and the same for bypass flags (what both scenes name).
    package struct Morph {
        package var floatStart: Int
        package var floatCount: Int
        package var flagStart: Int
        package var flagCount: Int
    }

    package struct MorphFloat {
        package var target: UnsafeMutablePointer<Float>
        package var first: Float
        package var second: Float
        package var shape: SceneGlideShape
    }

    package struct MorphFlag {
        package var target: UnsafeMutablePointer<UInt8>
        package var first: UInt8
        package var second: UInt8
    }

    /// A program change that switches a scene.
    package struct Program {
        package var program: UInt8
        package var channel: UInt8
        package var scene: Int32
        /// The scene glides there over this many frames; 0: it lands in one cycle.
        package var glideFrames = 0
    }

    /// One scene: its stores are `floats[floatStart..<floatStart + floatCount]`
    /// and the same for flags, all made in one cycle.
    package struct Scene {
        package var floatStart: Int
        package var floatCount: Int
        package var flagStart: Int
        package var flagCount: Int
    }

    package var controllers: UnsafeBufferPointer<Controller>
    package var programs: UnsafeBufferPointer<Program>
    package var scenes: UnsafeBufferPointer<Scene>
    package var sceneFloats: UnsafeBufferPointer<(target: UnsafeMutablePointer<Float>, value: Float)>
    package var sceneFlags: UnsafeBufferPointer<(target: UnsafeMutablePointer<UInt8>, value: UInt8)>
    /// Names this table in announcements, so a value read after a newer
    /// table was published is still told apart.
    package var generation: Int32
    /// How each of `sceneFloats` glides (same indices), for a program change with a glide.
    package var sceneFloatShapes = UnsafeBufferPointer<SceneGlideShape>(start: nil, count: 0)
    package var morphs = UnsafeBufferPointer<Morph>(start: nil, count: 0)
    package var morphFloats = UnsafeBufferPointer<MorphFloat>(start: nil, count: 0)
    package var morphFlags = UnsafeBufferPointer<MorphFlag>(start: nil, count: 0)

    package static let empty = MIDIControlTable(
        controllers: UnsafeBufferPointer(start: nil, count: 0), programs: UnsafeBufferPointer(start: nil, count: 0),
        scenes: UnsafeBufferPointer(start: nil, count: 0), sceneFloats: UnsafeBufferPointer(start: nil, count: 0),
        sceneFlags: UnsafeBufferPointer(start: nil, count: 0), generation: 0)

    /// Makes every store of scene `index` (each ends its value's glide or ramp).
    @_noLocks
    func applyScene(_ index: Int, motions: ValueMotions) {
        guard index >= 0 && index < scenes.count else { return }
        let scene = scenes[index]
        for item in scene.floatStart..<(scene.floatStart + scene.floatCount) {
            motions.store(sceneFloats[item].value, in: sceneFloats[item].target)
        }
        for item in scene.flagStart..<(scene.flagStart + scene.flagCount) {
            motions.store(sceneFlags[item].value, in: sceneFlags[item].target)
        }
    }

    /// Starts scene `index`'s glide over `frames`: its values from where they
    /// are, its switches and bypasses at the end (see `SceneGlideSlots`).
    @_noLocks
    func glideScene(_ index: Int, frames: Int, motions: ValueMotions) {
        guard index >= 0 && index < scenes.count else { return }
        let scene = scenes[index]
        for item in scene.floatStart..<(scene.floatStart + scene.floatCount) {
            let shape = item < sceneFloatShapes.count ? sceneFloatShapes[item] : .atEnd
            motions.glide(SceneGlideStart(float: sceneFloats[item].target, flag: nil, goal: sceneFloats[item].value,
                                         shape: shape, frames: frames))
        }
        for item in scene.flagStart..<(scene.flagStart + scene.flagCount) {
            motions.glide(SceneGlideStart(float: nil, flag: sceneFlags[item].target, goal: Float(sceneFlags[item].value),
                                         shape: .atEnd, frames: frames))
        }
    }
}
