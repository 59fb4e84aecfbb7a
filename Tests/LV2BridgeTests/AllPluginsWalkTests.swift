import Foundation
import HostCore
import TestSupport
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

    /// One line, for a walk in child processes (`ProcessWalk`).
    var line: String {
        switch self {
        case .rendered(let nonFinite): return nonFinite ? "rendered non-finite" : "rendered"
        case .refused(let reason): return "refused " + reason
        }
    }

    init?(line: String) {
        switch line {
        case "rendered": self = .rendered(nonFinite: false)
        case "rendered non-finite": self = .rendered(nonFinite: true)
        default:
            guard line.hasPrefix("refused ") else { return nil }
            self = .refused(String(line.dropFirst("refused ".count)))
        }
    }
}

/// One second of white noise at 48 kHz in blocks of 256 through one instance.
func renderOneSecond(_ plugin: PluginDescription, catalog: PluginCatalog = Installed.catalog,
                     mode: RenderMode = .offline) -> WalkOutcome {
    do {
        let unit = try LV2Unit(plugin: plugin, catalog: catalog)
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
    /// host is known to refuse and is refused for that reason. Each plugin
    /// runs in a child process (`ProcessWalk`), so one that crashes or hangs
    /// is reported as such and the walk goes on. The four test plugins that
    /// fail on purpose (Tests/TestPlugin/crashy.c) walk last, and must be
    /// reported as they fail: SIGSEGV in run() and in work() (offline, the
    /// worker runs inside run()), SIGABRT in instantiate(), and a hang.
    func testEveryEffectRendersOrIsRefused() throws {
        let failing = try TestFolders.make(#function, prefix: "fxhost-lv2bridge")
        let crashy = PluginCatalog(world: LV2World(bundles: [try CrashingPlugins.install(in: failing)
            .appendingPathComponent("crashy.lv2").path]))
        let effects = Installed.effects
        XCTAssertGreaterThan(effects.count, 100, "the Debian plugin packages should be installed")
        let failingOnPurpose = [CrashingPlugins.crashInRun, CrashingPlugins.abortInInstantiate,
                                CrashingPlugins.spinInRun, CrashingPlugins.crashInWork]
        let walked: [(PluginDescription, PluginCatalog)] = effects.map { ($0, Installed.catalog) }
            + failingOnPurpose.map { uri in (crashy.plugins.first { $0.uri == uri }!, crashy) }
        let results = ProcessWalk.walk(count: walked.count, secondsEach: Self.secondsEach, encode: \.line,
                                       decode: WalkOutcome.init(line:)) { renderOneSecond(walked[$0].0, catalog: walked[$0].1) }
        var loaded = 0
        var nonFinite: [String] = []
        var refused: [(String, String)] = []
        var failed: [String: String] = [:]
        for ((plugin, _), result) in zip(walked, results) {
            switch result {
            case .finished(.rendered(let hadNonFinite)):
                loaded += 1
                if hadNonFinite { nonFinite.append(plugin.uri) }
            case .finished(.refused(let reason)):
                XCTAssertFalse(reason.isEmpty, "\(plugin.uri) was refused without a reason")
                if let expected = Installed.refusedEffects[plugin.uri] {
                    XCTAssertTrue(reason.contains(expected), "\(plugin.uri) refused for another reason: \(reason)")
                } else {
                    XCTFail("\(plugin.uri) was refused: \(reason)")
                }
                refused.append((plugin.uri, reason))
            case .crashed(let signal):
                failed[plugin.uri] = "crashed (\(String(cString: strsignal(signal))))"
            case .exited(let status):
                failed[plugin.uri] = "ended the process (status \(status))"
            case .hung:
                failed[plugin.uri] = "hung (no second of audio in \(Int(Self.secondsEach)) s)"
            case .unreadable(let line):
                failed[plugin.uri] = "reported `\(line)`, which the walk cannot read"
            }
        }
        print("all-plugins walk: \(walked.count) effects, loaded \(loaded), refused \(refused.count), failed \(failed.count)")
        for (uri, reason) in refused { print("  refused \(uri): \(reason)") }
        for (uri, what) in failed.sorted(by: { $0.key < $1.key }) { print("  \(what): \(uri)") }
        if !nonFinite.isEmpty { print("  non-finite output from: \(nonFinite.joined(separator: ", "))") }
        // The test plugins fail as they were written to; no installed effect fails.
        XCTAssertEqual(failed, [
            CrashingPlugins.crashInRun: "crashed (\(String(cString: strsignal(SIGSEGV))))",
            CrashingPlugins.crashInWork: "crashed (\(String(cString: strsignal(SIGSEGV))))",
            CrashingPlugins.abortInInstantiate: "crashed (\(String(cString: strsignal(SIGABRT))))",
            CrashingPlugins.spinInRun: "hung (no second of audio in \(Int(Self.secondsEach)) s)",
        ])
    }

    /// A second of audio takes milliseconds; this much means a plugin is stuck.
    static let secondsEach = 20.0
}
