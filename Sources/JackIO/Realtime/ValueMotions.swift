// Called by: the realtime thread only: commands, controllers, scenes and
// morphs store through it (`LiveCommandQueue`, `LiveMIDIInput`, `SceneMorph`).

/// What moves a value over time on the realtime thread: scene glides and
/// knob ramps. Each notices a store by someone else when the value differs
/// from what it wrote last; a store of the very value it holds would go
/// unseen, and a toggle's glide would still switch at its end. So every
/// store from outside goes through here and ends the motion of its value
/// outright: the newest store wins, whatever it stores.
package struct ValueMotions {
    let glides: SceneGlideSlots
    let ramps: MIDIRampSlots

    @_noLocks
    package init(glides: SceneGlideSlots, ramps: MIDIRampSlots) {
        self.glides = glides
        self.ramps = ramps
    }

    /// Stores `value` in a parameter, ending its glide or ramp.
    @_noLocks
    func store(_ value: Float, in target: UnsafeMutablePointer<Float>) {
        target.pointee = value
        glides.cancel(float: target, flag: nil)
        ramps.cancel(target)
    }

    /// Stores `value` in a bypass or enable flag, ending its glide.
    @_noLocks
    func store(_ value: UInt8, in flag: UnsafeMutablePointer<UInt8>) {
        flag.pointee = value
        glides.cancel(float: nil, flag: flag)
    }

    /// A knob's ramp towards `goal` (`MIDIRampSlots`): it ends the value's glide.
    @_noLocks
    func ramp(_ target: UnsafeMutablePointer<Float>, to goal: Float, steps: Int) {
        glides.cancel(float: target, flag: nil)
        ramps.start(target, goal: goal, steps: steps)
    }

    /// A scene's glide of one value: it ends the value's knob ramp, so a
    /// ramp still under way cannot cut the newer glide short.
    @_noLocks
    func glide(_ glide: SceneGlideStart) {
        if let target = glide.float { ramps.cancel(target) }
        glides.start(glide)
    }
}
