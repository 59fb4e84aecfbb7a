@testable import JackIO
import XCTest

/// A store from outside ends the glide or knob ramp moving its value, even
/// when it stores the very value already there: the newest store wins.
/// Judged on plain memory, as the realtime thread applies commands (one
/// `applyPending`, then the glides and ramps advance as a cycle would).
final class ValueMotionsTests: XCTestCase {
    /// A bypass gliding on (it switches at the glide's end), then `set` to
    /// off, the value it already has: it stays off after the glide's end.
    func testASetOfTheSameValueEndsAToggleGlide() {
        let rig = MotionRig()
        rig.flag.pointee = 0
        XCTAssertEqual(rig.apply(.glide(SceneGlideStart(float: nil, flag: rig.flag, goal: 1, shape: .atEnd, frames: 100))), 1)
        rig.motions.glides.slots.advance(frames: 64)
        XCTAssertEqual(rig.flag.pointee, 0, "a toggle holds until its glide ends")
        XCTAssertEqual(rig.apply(.setFlag(rig.flag, 0)), 1)
        for _ in 0..<4 { rig.motions.glides.slots.advance(frames: 64) }
        XCTAssertEqual(rig.flag.pointee, 0, "the set came after the glide, so it wins")
        XCTAssertFalse(rig.motions.glides.slots.isActive)
    }

    /// A gain gliding from 0 to -24 over 1000 frames, `set` to where the
    /// glide stands: it stays there instead of going on to -24.
    func testASetOfTheSameValueEndsAContinuousGlide() {
        let rig = MotionRig()
        rig.apply(.glide(SceneGlideStart(float: rig.gain, flag: nil, goal: -24, shape: .linear, frames: 1000)))
        rig.motions.glides.slots.advance(frames: 250)
        rig.motions.glides.slots.advance(frames: 250)
        XCTAssertEqual(rig.gain.pointee, -6, "250 of 1000 frames: a quarter of the way")
        rig.apply(.setFloat(rig.gain, -6))
        for _ in 0..<8 { rig.motions.glides.slots.advance(frames: 250) }
        XCTAssertEqual(rig.gain.pointee, -6)
    }

    /// A knob's ramp still under way when a scene starts gliding the same
    /// value: the glide goes on (the ramp ends), reaching its goal.
    func testAGlideEndsAKnobRampRatherThanTheOtherWayRound() {
        let rig = MotionRig()
        rig.motions.view.ramp(rig.gain, to: -10, steps: 10)
        XCTAssertEqual(rig.gain.pointee, -1, "the ramp's first of 10 steps")
        rig.apply(.glide(SceneGlideStart(float: rig.gain, flag: nil, goal: -21, shape: .linear, frames: 400)))
        for _ in 0..<5 {
            rig.motions.ramps.slots.advance()
            rig.motions.glides.slots.advance(frames: 100)
        }
        XCTAssertEqual(rig.gain.pointee, -21, "from -1 to -21 over 400 frames, then the goal")
        XCTAssertFalse(rig.motions.glides.slots.isActive)
    }

    /// A `set` of the value a knob's ramp stored last ends the ramp there.
    func testASetOfTheSameValueEndsAKnobRamp() {
        let rig = MotionRig()
        rig.motions.view.ramp(rig.gain, to: -10, steps: 10)
        rig.apply(.setFloat(rig.gain, -1))
        for _ in 0..<12 { rig.motions.ramps.slots.advance() }
        XCTAssertEqual(rig.gain.pointee, -1)
        XCTAssertNil(rig.motions.ramps.slots.goal(of: rig.gain), "no ramp is under way")
    }
}

/// A command queue, the glides and ramps it stores through, and a gain
/// (starting at 0) and a flag to move.
private final class MotionRig {
    let motions = OwnedValueMotions()
    let queue = LiveCommandQueue(capacity: 4)
    let gain = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    let flag = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

    init() {
        gain.initialize(to: 0)
        flag.initialize(to: 0)
    }

    deinit {
        gain.deallocate()
        flag.deallocate()
    }

    /// Queues `command` and applies what is queued, as a cycle's start does.
    @discardableResult
    func apply(_ command: LiveCommand) -> Int {
        XCTAssertTrue(queue.push(command))
        return queue.applyPending(motions.view)
    }
}
