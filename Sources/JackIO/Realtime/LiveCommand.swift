/// Called by: the control thread builds commands; the realtime thread
/// applies them (through `LiveCommandQueue`).
///
/// A fixed-size message to the realtime thread: a store it makes at the start
/// of a block. Pointers must stay valid until the command is applied: point
/// into memory owned by a unit or by a program that is current or pending.
package enum LiveCommand {
    /// A gain or a control port value.
    case setFloat(UnsafeMutablePointer<Float>, Float)
    /// A bypass or enable flag.
    case setFlag(UnsafeMutablePointer<UInt8>, UInt8)
    /// A scene's value gliding there from where it is (`scene NAME --glide`).
    case glide(SceneGlideStart)

    /// A store ends the glide or knob ramp moving its value (`ValueMotions`).
    @_noLocks
    func apply(_ motions: ValueMotions) {
        switch self {
        case .setFloat(let target, let value): motions.store(value, in: target)
        case .setFlag(let target, let value): motions.store(value, in: target)
        case .glide(let glide): motions.glide(glide)
        }
    }
}
