import HostCore
@testable import LV2Bridge
import XCTest

final class AmpTests: XCTestCase {
    /// eg-amp with gain -6 dB multiplies by 10^(-6/20) = 0.501187.
    func testAmpAppliesGainInDecibels() throws {
        let unit = try Installed.unit("http://lv2plug.in/plugins/eg-amp")
        try unit.setParameter("gain", to: .number(-6))
        let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline)
        let kernel = try XCTUnwrap(try unit.prepareInstances(count: 1, format: format).first)
        XCTAssertEqual(kernel.inputPorts.count, 1)
        XCTAssertEqual(kernel.outputPorts.count, 1)
        let driver = KernelDriver(kernel, maxBlock: 256)
        let factor = pow(10.0, -6.0 / 20.0)
        var noise = Noise()
        var checked = 0
        for block in 0..<20 {
            let frames = block == 19 ? 100 : 256 // a short last block, as at the end of a file
            var input = [Float](repeating: 0, count: frames)
            driver.runBlock(frames: frames) { _, buffer in
                for frame in 0..<frames {
                    input[frame] = noise.next()
                    buffer[frame] = input[frame]
                }
            }
            for frame in 0..<frames {
                let expected = Double(input[frame]) * factor
                let error = abs(Double(driver.outputs[0][frame]) - expected)
                XCTAssertLessThanOrEqual(error, 1e-6 * abs(Double(input[frame])) + 1e-12,
                                         "frame \(frame) of block \(block)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 19 * 256 + 100)
    }

    /// Every instance of one unit reads the same input controls.
    func testParameterReachesEveryInstance() throws {
        let unit = try Installed.unit("eg-amp")
        let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 64, mode: .offline)
        let kernels = try unit.prepareInstances(count: 2, format: format)
        try unit.setParameter("gain", to: .number(-20)) // ×0.1
        for kernel in kernels {
            let driver = KernelDriver(kernel, maxBlock: 64)
            driver.runBlock(frames: 64) { _, buffer in buffer.update(repeating: 1, count: 64) }
            XCTAssertEqual(Double(driver.outputs[0][63]), 0.1, accuracy: 1e-6)
        }
        // The same instances come back first, so a rebuilt plan keeps them.
        let again = try unit.prepareInstances(count: 3, format: format)
        XCTAssertEqual(again.count, 3)
        XCTAssertEqual(again[0].handle, kernels[0].handle)
        XCTAssertEqual(again[1].handle, kernels[1].handle)
        XCTAssertNotEqual(again[2].handle, kernels[1].handle)
    }
}
