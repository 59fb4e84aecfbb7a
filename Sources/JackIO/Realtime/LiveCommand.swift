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
    case glide(SceneGlideStart, SceneGlideSlots)

    @inlinable @_noLocks
    package func apply() {
        switch self {
        case .setFloat(let target, let value): target.pointee = value
        case .setFlag(let target, let value): target.pointee = value
        case .glide(let glide, let slots): slots.start(glide)
        }
    }
}
