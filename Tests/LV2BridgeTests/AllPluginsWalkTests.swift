import Foundation
import HostCore
@testable import LV2Bridge
import XCTest

/// Runs `body` on its own thread; nil when it did not finish within `seconds`
/// (the thread is then abandoned: a hung plugin cannot be stopped).
func runWithTimeout<T>(seconds: Double, _ body: @escaping () -> T) -> T? {
    let box = ResultBox<T>()
    let thread = Thread {
        box.value = body()
        box.done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    return box.done.wait(timeout: .now() + seconds) == .timedOut ? nil : box.value
}

/// Hands a result from the worker thread back; the semaphore orders the accesses.
final class ResultBox<T>: @unchecked Sendable {
    var value: T?
    let done = DispatchSemaphore(value: 0)
}

enum WalkOutcome {
    case rendered(nonFinite: Bool)
    case refused(String)
}

/// One second of white noise at 48 kHz in blocks of 256 through one instance.
func renderOneSecond(_ plugin: PluginDescription, mode: RenderMode = .offline) -> WalkOutcome {
    do {
        let unit = try LV2Unit(plugin: plugin, catalog: Installed.catalog)
        let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: mode)
        guard let kernel = try unit.prepareInstances(count: 1, format: format).kernels.first else {
            return .refused("no instance")
        }
        let driver = KernelDriver(kernel, maxBlock: 256)
        var noise = Noise()
        var nonFinite = false
        var remaining = 48000
        while remaining > 0 {
            let frames = min(256, remaining)
            driver.runBlock(frames: frames) { _, buffer in
                for frame in 0..<frames { buffer[frame] = noise.next() }
            }
            for output in driver.outputs where !(0..<frames).allSatisfy({ output[$0].isFinite }) {
                nonFinite = true
            }
            remaining -= frames
        }
        return .rendered(nonFinite: nonFinite)
    } catch {
        return .refused(error.description)
    }
}

final class AllPluginsWalkTests: XCTestCase {
    /// Every installed effect (main audio in and out) renders, or is one the
    /// host is known to refuse and is refused for that reason.
    func testEveryEffectRendersOrIsRefused() {
        let effects = Installed.effects
        XCTAssertGreaterThan(effects.count, 100, "the Debian plugin packages should be installed")
        var loaded = 0
        var nonFinite: [String] = []
        var refused: [(String, String)] = []
        for plugin in effects {
            guard let outcome = runWithTimeout(seconds: 60, { renderOneSecond(plugin) }) else {
                XCTFail("\(plugin.uri) did not finish 1 s of audio within 60 s")
                break
            }
            switch outcome {
            case .rendered(let hadNonFinite):
                loaded += 1
                if hadNonFinite { nonFinite.append(plugin.uri) }
            case .refused(let reason):
                XCTAssertFalse(reason.isEmpty, "\(plugin.uri) was refused without a reason")
                if let expected = Installed.refusedEffects[plugin.uri] {
                    XCTAssertTrue(reason.contains(expected), "\(plugin.uri) refused for another reason: \(reason)")
                } else {
                    XCTFail("\(plugin.uri) was refused: \(reason)")
                }
                refused.append((plugin.uri, reason))
            }
        }
        print("all-plugins walk: \(effects.count) effects, loaded \(loaded), refused \(refused.count)")
        for (uri, reason) in refused { print("  refused \(uri): \(reason)") }
        if !nonFinite.isEmpty { print("  non-finite output from: \(nonFinite.joined(separator: ", "))") }
    }
}
