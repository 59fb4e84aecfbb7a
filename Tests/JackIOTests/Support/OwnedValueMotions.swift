import JackIO

/// The glides and knob ramps a test's commands store through, kept alive
/// (their owners are noncopyable) for as long as the test holds this.
final class OwnedValueMotions: @unchecked Sendable {
    let glides = SceneGlides(capacity: 8)
    let ramps = MIDIRamps(capacity: 8)
    var view: ValueMotions { ValueMotions(glides: glides.slots, ramps: ramps.slots) }
}
