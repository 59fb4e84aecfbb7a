import Glibc
import HostCore

// Called by: the realtime thread only: `LiveCommand.glide` and a program
// change with a glide start glides between blocks, `runLiveCycle` advances
// them before each block, `swapInPublishedProgram` lands them. Allocated
// and freed off it (`SceneGlides`).

/// How one value of a scene travels during a glide.
package enum SceneGlideShape: Sendable {
    /// Equal steps in the value (a gain in dB, a mix).
    case linear
    /// Equal ratios (the plugin says `pprops:logarithmic`: a frequency, a time).
    case logarithmic
    /// A toggle, an integer, an enumeration or a bypass: it switches when the glide ends.
    case atEnd

    /// Matched, not compared: `==` and `!=` on an enum go through generic code the realtime checker refuses.
    var switchesAtEnd: Bool { @_noLocks get { if case .atEnd = self { true } else { false } } }
    var isLogarithmic: Bool { @_noLocks get { if case .logarithmic = self { true } else { false } } }

    /// The shape of a parameter described by `info`.
    package init(_ info: ParameterInfo) {
        if info.isToggle || info.isInteger || !info.enumeration.isEmpty {
            self = .atEnd
        } else {
            self = info.isLogarithmic ? .logarithmic : .linear
        }
    }
}

/// One value's glide, as the control thread (or a program change) asks for it.
package struct SceneGlideStart {
    package var float: UnsafeMutablePointer<Float>?
    package var flag: UnsafeMutablePointer<UInt8>?
    package var goal: Float
    package var shape: SceneGlideShape
    package var frames: Int

    @_noLocks
    package init(float: UnsafeMutablePointer<Float>?, flag: UnsafeMutablePointer<UInt8>?, goal: Float,
                 shape: SceneGlideShape, frames: Int) {
        self.float = float
        self.flag = flag
        self.goal = goal
        self.shape = shape
        self.frames = frames
    }
}

/// The glides under way: plain memory the realtime thread alone reads and
/// writes. A glide keeps a start, an end and a frame count, never a list of
/// steps: before each block the value is the ramp at that block's first
/// frame, counted from the cycle the glide started in (`start + (end -
/// start) × elapsed / frames`, on the value's scale), and from `frames` on
/// it is the goal itself. A value stored by someone else meanwhile (a `set`,
/// a scene, a controller) ends that glide there: the newer value wins. A
/// new glide of the same value takes over from where the old one is.
package struct SceneGlideSlots {
    struct Slot {
        var float: UnsafeMutablePointer<Float>?
        var flag: UnsafeMutablePointer<UInt8>?
        /// The start and the end on the value's scale (their logarithms for `.logarithmic`).
        var from: Double
        var to: Double
        var goal: Float
        var shape: SceneGlideShape
        var elapsed: Int
        var frames: Int
        /// The value this glide stored last (or found), to see whether someone else stored since.
        var written: Float

        var isFree: Bool { @_noLocks get { float == nil && flag == nil } }
        var current: Float { @_noLocks get { if let float { float.pointee } else if let flag { Float(flag.pointee) } else { 0 } } }

        @_noLocks
        func store(_ value: Float) {
            if let float { float.pointee = value } else if let flag { flag.pointee = value != 0 ? 1 : 0 }
        }
    }

    let slots: UnsafeMutableBufferPointer<Slot>
    /// How many slots are taken: 0 lets a cycle skip the glides with one load.
    let live: UnsafeMutablePointer<Int>

    var isActive: Bool { @_noLocks get { live.pointee > 0 } }

    /// Starts a glide of `glide`'s value from where it is now; with no slot
    /// free or no frames, the goal is stored at once (never lost).
    @_noLocks
    package func start(_ glide: SceneGlideStart) {
        guard glide.float != nil || glide.flag != nil else { return }
        var slot = -1
        var free = -1
        for index in 0..<slots.count {
            if (glide.float != nil && slots[index].float == glide.float) || (glide.flag != nil && slots[index].flag == glide.flag) {
                slot = index
                break
            }
            if free < 0 && slots[index].isFree { free = index }
        }
        let taken = slot >= 0
        if !taken { slot = free }
        var entry = Slot(float: glide.float, flag: glide.flag, from: 0, to: 0, goal: glide.goal, shape: glide.shape,
                         elapsed: 0, frames: glide.frames, written: 0)
        let current = entry.current
        entry.written = current
        var shape = glide.shape
        if shape.isLogarithmic && !(current > 0 && glide.goal > 0) { shape = .linear }
        guard slot >= 0, glide.frames > 0, current.isFinite else {
            if taken { release(slot) }
            entry.store(glide.goal)
            return
        }
        entry.shape = shape
        if shape.isLogarithmic {
            entry.from = _unsafePerformance { Glibc.log(Double(current)) }
            entry.to = _unsafePerformance { Glibc.log(Double(glide.goal)) }
        } else {
            entry.from = Double(current)
            entry.to = Double(glide.goal)
        }
        if !taken { live.pointee += 1 }
        slots[slot] = entry
    }

    /// Stores every glide's value for the next `frames` frames: the ramp at
    /// their first frame, or the goal once the glide's frames have passed.
    @_noLocks
    func advance(frames: Int) {
        guard live.pointee > 0 else { return }
        for index in 0..<slots.count where !slots[index].isFree {
            let entry = slots[index]
            // Stored by someone else since: theirs is the newer value.
            guard entry.current == entry.written else {
                release(index)
                continue
            }
            if entry.elapsed >= entry.frames {
                entry.store(entry.goal)
                release(index)
                continue
            }
            if !entry.shape.switchesAtEnd {
                var value = entry.from + (entry.to - entry.from) * (Double(entry.elapsed) / Double(entry.frames))
                if entry.shape.isLogarithmic { value = _unsafePerformance { Glibc.exp(value) } }
                let stored = Float(value)
                entry.store(stored)
                slots[index].written = entry.current
            }
            slots[index].elapsed = entry.elapsed + frames
        }
    }

    /// Lands every glide on its goal and forgets them: before a program is
    /// handed back, whose memory a bypass flag is in.
    @_noLocks
    func finishAll() {
        guard live.pointee > 0 else { return }
        for index in 0..<slots.count where !slots[index].isFree {
            if slots[index].current == slots[index].written { slots[index].store(slots[index].goal) }
            release(index)
        }
    }

    /// Ends the glide of `float` or `flag` where it is, if one is under way:
    /// something else stored there (a `set`, a scene, a controller), maybe
    /// the very value the glide has, and the newer store wins.
    @_noLocks
    func cancel(float: UnsafeMutablePointer<Float>?, flag: UnsafeMutablePointer<UInt8>?) {
        guard live.pointee > 0 else { return }
        for index in 0..<slots.count where (float != nil && slots[index].float == float) || (flag != nil && slots[index].flag == flag) {
            release(index)
            return
        }
    }

    @_noLocks
    private func release(_ index: Int) {
        slots[index].float = nil
        slots[index].flag = nil
        live.pointee -= 1
    }
}

/// Owns the glides' memory for the engine's life.
package struct SceneGlides: ~Copyable {
    package let slots: SceneGlideSlots

    package init(capacity: Int) {
        let memory = UnsafeMutableBufferPointer<SceneGlideSlots.Slot>.allocate(capacity: capacity)
        _ = memory.initialize(from: (0..<capacity).lazy.map { _ in
            SceneGlideSlots.Slot(float: nil, flag: nil, from: 0, to: 0, goal: 0, shape: .linear, elapsed: 0, frames: 0, written: 0)
        })
        let live = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        live.initialize(to: 0)
        slots = SceneGlideSlots(slots: memory, live: live)
    }

    deinit {
        slots.slots.deallocate()
        slots.live.deallocate()
    }
}
