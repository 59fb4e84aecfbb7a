import Glibc
import HostCore

// Called by: the realtime thread (`applyMorph`, from `applyMIDIControl` when
// a morph's controller moves) and the control thread (`blend`, to announce
// and record the same values).

/// A controller blending two scenes (`{ cc: 11, morph: [clean, lead] }`):
/// at 0 the first scene's values, at 127 the second's, at 64 (MIDI's
/// centre, as for pan) exactly halfway, and in between each value both
/// scenes name moves on its own scale (linear, or logarithmic where the
/// plugin says so) in equal steps on each side of 64: `value / 128` of the
/// way below it, `1/2 + (value - 64) / 126` above. Toggles, integers,
/// enumerations and bypasses take the second scene's from the midpoint (64)
/// on. A value only one scene names is left alone.
package enum SceneMorph {
    /// How far along the blend a controller value is, 0...1.
    @_noLocks
    package static func position(controller value: Int) -> Double {
        let value = min(max(value, 0), 127)
        return value <= 64 ? Double(value) / 128 : 0.5 + Double(value - 64) / 126
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
            state.pointee.motions.store(blended, in: value.target)
        } else {
            state.pointee.motions.ramp(value.target, to: blended, steps: rampSteps)
        }
    }
    for item in morph.flagStart..<(morph.flagStart + morph.flagCount) {
        let flag = table.morphFlags[item]
        state.pointee.motions.store(position >= 0.5 ? flag.second : flag.first, in: flag.target)
    }
}
