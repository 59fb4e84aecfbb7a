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
        let motions = OwnedValueMotions()
        let queue = LiveCommandQueue(capacity: 4)
        let flag = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        defer { flag.deallocate() }
        flag.pointee = 0
        XCTAssertTrue(queue.push(.glide(SceneGlideStart(float: nil, flag: flag, goal: 1, shape: .atEnd, frames: 100))))
        XCTAssertEqual(queue.applyPending(motions.view), 1)
        motions.glides.slots.advance(frames: 64)
        XCTAssertEqual(flag.pointee, 0, "a toggle holds until its glide ends")
        XCTAssertTrue(queue.push(.setFlag(flag, 0)))
        XCTAssertEqual(queue.applyPending(motions.view), 1)
        for _ in 0..<4 { motions.glides.slots.advance(frames: 64) }
        XCTAssertEqual(flag.pointee, 0, "the set came after the glide, so it wins")
        XCTAssertFalse(motions.glides.slots.isActive)
    }

    /// A gain gliding from 0 to -24 over 1000 frames, `set` to where the
    /// glide stands: it stays there instead of going on to -24.
    func testASetOfTheSameValueEndsAContinuousGlide() {
        let motions = OwnedValueMotions()
        let queue = LiveCommandQueue(capacity: 4)
        let gain = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        defer { gain.deallocate() }
        gain.pointee = 0
        XCTAssertTrue(queue.push(.glide(SceneGlideStart(float: gain, flag: nil, goal: -24, shape: .linear, frames: 1000))))
        _ = queue.applyPending(motions.view)
        motions.glides.slots.advance(frames: 250)
        motions.glides.slots.advance(frames: 250)
        XCTAssertEqual(gain.pointee, -6, "250 of 1000 frames: a quarter of the way")
        XCTAssertTrue(queue.push(.setFloat(gain, -6)))
        _ = queue.applyPending(motions.view)
        for _ in 0..<8 { motions.glides.slots.advance(frames: 250) }
        XCTAssertEqual(gain.pointee, -6)
    }

    /// A knob's ramp still under way when a scene starts gliding the same
    /// value: the glide goes on (the ramp ends), reaching its goal.
    func testAGlideEndsAKnobRampRatherThanTheOtherWayRound() {
        let motions = OwnedValueMotions()
        let queue = LiveCommandQueue(capacity: 4)
        let gain = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        defer { gain.deallocate() }
        gain.pointee = 0
        motions.view.ramp(gain, to: -10, steps: 10)
        XCTAssertEqual(gain.pointee, -1, "the ramp's first of 10 steps")
        XCTAssertTrue(queue.push(.glide(SceneGlideStart(float: gain, flag: nil, goal: -21, shape: .linear, frames: 400))))
        _ = queue.applyPending(motions.view)
        for _ in 0..<5 {
            motions.ramps.slots.advance()
            motions.glides.slots.advance(frames: 100)
        }
        XCTAssertEqual(gain.pointee, -21, "from -1 to -21 over 400 frames, then the goal")
        XCTAssertFalse(motions.glides.slots.isActive)
    }

    /// A `set` of the value a knob's ramp stored last ends the ramp there.
    func testASetOfTheSameValueEndsAKnobRamp() {
        let motions = OwnedValueMotions()
        let queue = LiveCommandQueue(capacity: 4)
        let gain = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        defer { gain.deallocate() }
        gain.pointee = 0
        motions.view.ramp(gain, to: -10, steps: 10)
        XCTAssertTrue(queue.push(.setFloat(gain, -1)))
        _ = queue.applyPending(motions.view)
        for _ in 0..<12 { motions.ramps.slots.advance() }
        XCTAssertEqual(gain.pointee, -1)
        XCTAssertNil(motions.ramps.slots.goal(of: gain), "no ramp is under way")
    }
}
