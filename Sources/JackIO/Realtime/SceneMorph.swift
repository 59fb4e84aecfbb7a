import Glibc
import HostCore

// Called by: the realtime thread (`applyMorph`, from `applyMIDIControl` when
// a morph's controller moves) and the control thread (`blend`, to announce
// and record the same values).

/// A controller blending two scenes (`{ cc: 11, morph: [clean, lead] }`):
/// at 0 the first scene's values, at 127 the second's, and in between each
/// value both scenes name is `value / 127` of the way from the first to the
/// second on its own scale (linear, or logarithmic where the plugin says
/// so); toggles, integers, enumerations and bypasses take the second
/// scene's from the midpoint (64) on. A value only one scene names is left alone.
package enum SceneMorph {
    /// How far along the blend a controller value is, 0...1.
    @_noLocks
    package static func position(controller value: Int) -> Double {
        Double(min(max(value, 0), 127)) / 127
    }

    /// The value `position` of the way from `first` to `second` on `shape`'s scale.
    @_noLocks
    package static func blend(_ first: Float, _ second: Float, shape: SceneGlideShape, position: Double) -> Float {
        switch shape {
        case .atEnd:
            return position >= 0.5 ? second : first
        case .logarithmic where first > 0 && second > 0:
            let low = _unsafePerformance { Glibc.log(Double(first)) }
            let high = _unsafePerformance { Glibc.log(Double(second)) }
            return Float(_unsafePerformance { Glibc.exp(low + (high - low) * position) })
        case .linear, .logarithmic:
            return Float(Double(first) + (Double(second) - Double(first)) * position)
        }
    }
}

/// Stores morph `index` of `table` at `position`: continuous values through
/// the controller ramps (as a mapped knob's), switches and bypasses at once.
@_noLocks
func applyMorph(_ index: Int, table: MIDIControlTable, position: Double, state: UnsafeMutablePointer<LiveEngineState>,
                rampSteps: Int) {
    guard index >= 0 && index < table.morphs.count else { return }
    let morph = table.morphs[index]
    for item in morph.floatStart..<(morph.floatStart + morph.floatCount) {
        let value = table.morphFloats[item]
        let blended = SceneMorph.blend(value.first, value.second, shape: value.shape, position: position)
        if value.shape.switchesAtEnd {
            value.target.pointee = blended
        } else {
            state.pointee.midiRamps.start(value.target, goal: blended, steps: rampSteps)
        }
    }
    for item in morph.flagStart..<(morph.flagStart + morph.flagCount) {
        let flag = table.morphFlags[item]
        flag.target.pointee = position >= 0.5 ? flag.second : flag.first
    }
}
