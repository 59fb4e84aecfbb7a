// Called by: the thread that renders the plan (the realtime thread live,
// the render thread offline), through `RenderOp.delay`; allocated and freed
// on the control thread.

/// A fixed delay of `length` frames on one channel, with its own preallocated
/// history. Processing is in place.
package struct DelayLine {
    package let length: Int
    @usableFromInline var history: UnsafeMutablePointer<Float>
    @usableFromInline var position: Int

    /// Allocates and zeroes the history (off the realtime thread).
    package init(length: Int) {
        self.length = length
        history = .allocate(capacity: max(length, 1))
        history.initialize(repeating: 0, count: max(length, 1))
        position = 0
    }

    package func deallocate() { history.deallocate() }

    /// Delays `frames` samples of `buffer` in place.
    @inlinable @_noLocks
    package mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        guard length > 0 else { return }
        for index in 0..<frames {
            let delayed = history[position]
            history[position] = buffer[index]
            buffer[index] = delayed
            position += 1
            if position == length { position = 0 }
        }
    }
}

/// One delay line's memory, shared by the plans that use it: a live edit's
/// new plan takes over the lines of the plan it replaces (same signal, same
/// length), so their history carries on and the edit makes no gap.
final class DelayLineBox {
    let line: UnsafeMutablePointer<DelayLine>

    init(length: Int) {
        line = .allocate(capacity: 1)
        line.initialize(to: DelayLine(length: length))
    }

    deinit {
        line.pointee.deallocate()
        line.deinitialize(count: 1)
        line.deallocate()
    }
}
