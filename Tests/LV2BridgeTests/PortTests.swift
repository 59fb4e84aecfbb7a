import CLilv
import HostCore
@testable import LV2Bridge
import XCTest

final class PortTests: XCTestCase {
    let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 128, mode: .offline)

    /// swh sc3 (plugin.ttl): `sidechain` is an lv2:isSideChain audio input; the
    /// main inputs are left_in/right_in. The unit feeds the sidechain silence.
    func testSidechainIsNotAMainInput() throws {
        let unit = try Installed.unit("swh-plugins/sc3")
        XCTAssertEqual(unit.inputPorts.map(\.symbol), ["left_in", "right_in"])
        XCTAssertEqual(unit.outputPorts.map(\.symbol), ["left_out", "right_out"])
        let sidechain = try XCTUnwrap(unit.plugin.ports.first { $0.symbol == "sidechain" })
        XCTAssertTrue(sidechain.isSideChain)
        let kernel = try XCTUnwrap(try unit.prepareInstances(count: 1, format: format).kernels.first)
        XCTAssertFalse(kernel.inputPorts.contains(sidechain.index))
        let driver = KernelDriver(kernel, maxBlock: 128)
        var noise = Noise()
        for _ in 0..<10 {
            driver.runBlock(frames: 128) { _, buffer in for frame in 0..<128 { buffer[frame] = noise.next() } }
        }
        XCTAssertTrue(driver.outputs.allSatisfy { output in (0..<128).allSatisfy { output[$0].isFinite } })
    }

    /// fil4.ttl gives fil4#mono's `notify` output rsz:minimumSize 65888; before
    /// each run its header must announce the whole buffer (size − 8 header
    /// bytes), and the `control` input must be an empty sequence.
    func testAtomBuffersFollowMinimumSizeAndAreResetEachRun() throws {
        let unit = try Installed.unit("fil4#mono")
        let notify = try XCTUnwrap(unit.plugin.ports.first { $0.symbol == "notify" })
        XCTAssertEqual(notify.minimumSize, 65888)
        let kernel = try XCTUnwrap(try unit.prepareInstances(count: 1, format: format).kernels.first)
        let outputHeaders = kernel.beforeRun.filter { $0.byteCount == MemoryLayout<LV2_Atom>.size }
        XCTAssertEqual(outputHeaders.map { $0.source.load(as: LV2_Atom.self).size }, [65888 - 8])
        let inputHeaders = kernel.beforeRun.filter { $0.byteCount == MemoryLayout<LV2_Atom_Sequence>.size }
        XCTAssertEqual(inputHeaders.count, 1)
        let empty = try XCTUnwrap(inputHeaders.first).source.load(as: LV2_Atom_Sequence.self)
        XCTAssertEqual(empty.atom.size, 8) // just the sequence body: no events
        XCTAssertEqual(empty.atom.type, Installed.catalog.world.urids.map("http://lv2plug.in/ns/ext/atom#Sequence"))

        // A run may shrink the output header; the reset before the next run restores it.
        let driver = KernelDriver(kernel, maxBlock: 128)
        driver.runBlock(frames: 128) { _, buffer in buffer.update(repeating: 0, count: 128) }
        let output = try XCTUnwrap(outputHeaders.first)
        output.destination.storeBytes(of: LV2_Atom(size: 0, type: 0), as: LV2_Atom.self)
        for reset in kernel.beforeRun { reset.destination.copyMemory(from: reset.source, byteCount: reset.byteCount) }
        XCTAssertEqual(output.destination.load(as: LV2_Atom.self).size, 65888 - 8)
    }

    /// The URID map is stable and unmaps what it mapped.
    func testURIDMapRoundTrips() {
        let urids = Installed.catalog.world.urids
        let id = urids.map("http://example.org/a")
        XCTAssertNotEqual(id, 0)
        XCTAssertEqual(urids.map("http://example.org/a"), id)
        XCTAssertNotEqual(urids.map("http://example.org/b"), id)
        XCTAssertEqual(urids.unmap(id).map { String(cString: $0) }, "http://example.org/a")
        XCTAssertNil(urids.unmap(0))
    }
}
