// Called by: the realtime thread only (`LiveMIDIInput` starts and advances
// ramps, `swapInPublishedProgram` finishes them); allocated off it.

/// The host's smoothing of controller-mapped continuous parameters: a CC
/// has 128 steps, and a plugin that does not smooth its controls clicks at
/// each one (zipper noise). So a mapped continuous parameter moves to a
/// CC's value in equal steps, one per block, over about `rampSeconds`, and
/// the last step stores the mapped value itself: at rest the parameter is
/// exactly what the CC maps to. A plugin reads a control once per block, so
/// the host cannot do finer than that; toggles, whole numbers, enumerations,
/// bypass and scenes jump at once.
///
/// A fixed number of ramps run at once; beyond that a value is stored at
/// once (never lost). A ramp whose parameter was stored by someone else
/// meanwhile (a `set`, a preset, a scene) stops there: the newer value wins.
package struct MIDIRampSlots {
    struct Ramp {
        var target: UnsafeMutablePointer<Float>?
        var goal: Float
        var step: Float
        /// Steps still to take after the last one stored.
        var remaining: Int
        /// The value this ramp stored last, to see whether someone else stored since.
        var written: Float
    }

    /// About the time a hardware multi-effect takes to glide a knob's step
    /// (`applyMIDIControl` divides the rate by 50).
    package static let rampSeconds = 0.02
    let ramps: UnsafeMutableBufferPointer<Ramp>
    /// How many ramps are under way: 0 lets a cycle (and MIDI feedback) skip them with one load.
    let live: UnsafeMutablePointer<Int>

    /// Moves `target` towards `goal` in `steps` blocks, the first one now.
    @_noLocks
    func start(_ target: UnsafeMutablePointer<Float>, goal: Float, steps: Int) {
        var free = -1
        var slot = -1
        for index in 0..<ramps.count {
            if ramps[index].target == target { slot = index; break }
            if free < 0 && ramps[index].target == nil { free = index }
        }
        let taken = slot >= 0
        if !taken { slot = free }
        let current = target.pointee
        guard slot >= 0, steps > 1, current.isFinite, current != goal else {
            if taken { release(slot) }
            target.pointee = goal
            return
        }
        let step = (goal - current) / Float(steps)
        let first = current + step
        target.pointee = first
        if !taken { live.pointee += 1 }
        ramps[slot] = Ramp(target: target, goal: goal, step: step, remaining: steps - 1, written: first)
    }

    /// One block's step of every ramp under way.
    @_noLocks
    func advance() {
        guard live.pointee > 0 else { return }
        for index in 0..<ramps.count {
            guard let target = ramps[index].target else { continue }
            // Stored by someone else since: theirs is the newer value.
            guard target.pointee == ramps[index].written else {
                release(index)
                continue
            }
            ramps[index].remaining -= 1
            let value = ramps[index].remaining <= 0 ? ramps[index].goal : ramps[index].written + ramps[index].step
            target.pointee = value
            ramps[index].written = value
            if ramps[index].remaining <= 0 { release(index) }
        }
    }

    /// Where `target`'s ramp is going, while one is under way and no one
    /// else stored since; nil otherwise. MIDI feedback reports the goal, not
    /// the steps on the way to it (the controller already shows the goal).
    @_noLocks
    func goal(of target: UnsafeMutablePointer<Float>) -> Float? {
        guard live.pointee > 0 else { return nil }
        for index in 0..<ramps.count where ramps[index].target == target {
            return target.pointee == ramps[index].written ? ramps[index].goal : nil
        }
        return nil
    }

    /// Stores every ramp's goal at once and forgets them: before a program
    /// is handed back, whose memory the targets may be in.
    @_noLocks
    func finishAll() {
        guard live.pointee > 0 else { return }
        for index in 0..<ramps.count {
            guard let target = ramps[index].target else { continue }
            if target.pointee == ramps[index].written { target.pointee = ramps[index].goal }
            release(index)
        }
    }

    /// Ends `target`'s ramp where it is, if one is under way: something
    /// else stored there (a command, a glide), maybe the very value the ramp
    /// stored last, and the newer store wins.
    @_noLocks
    func cancel(_ target: UnsafeMutablePointer<Float>) {
        guard live.pointee > 0 else { return }
        for index in 0..<ramps.count where ramps[index].target == target {
            release(index)
            return
        }
    }

    @_noLocks
    private func release(_ index: Int) {
        ramps[index].target = nil
        live.pointee -= 1
    }
}

/// Owns the ramps' memory for the engine's life.
package struct MIDIRamps: ~Copyable {
    package let slots: MIDIRampSlots

    package init(capacity: Int) {
        let memory = UnsafeMutableBufferPointer<MIDIRampSlots.Ramp>.allocate(capacity: capacity)
        _ = memory.initialize(from: (0..<capacity).lazy.map { _ in
            MIDIRampSlots.Ramp(target: nil, goal: 0, step: 0, remaining: 0, written: 0)
        })
        let live = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        live.initialize(to: 0)
        slots = MIDIRampSlots(ramps: memory, live: live)
    }

    deinit {
        slots.ramps.deallocate()
        slots.live.deallocate()
    }
}
