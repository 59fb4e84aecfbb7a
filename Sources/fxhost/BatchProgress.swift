import Foundation
import HostCore
import LiveControl
import Synchronization

/// One progress display over a whole batch, on stderr: a bar with the
/// files done and an ETA on a terminal, a plain line per finished file
/// otherwise (logs and CI). Each file counts by its length, so a long take
/// moves the bar more than a short one. Called from the batch's one thread.
final class BatchProgress {
    private struct State {
        /// How far each file has come, 0…1.
        var fractions: [Double]
        var finished = 0
        var failed = 0
        var lastDraw: UInt64 = 0
        var drewBar = false
    }

    private let enabled: Bool
    private let interactive = Terminal.standardErrorIsTerminal
    /// Each file's share of the batch; they add up to 1.
    private let weights: [Double]
    private let started = DispatchTime.now()
    private let state: Mutex<State>

    /// `lengths`: each file's length in seconds (0 when unknown).
    init(enabled: Bool, lengths: [Double]) {
        self.enabled = enabled
        let total = lengths.reduce(0, +)
        weights = total > 0 ? lengths.map { $0 / total } : lengths.map { _ in 1 / Double(max(lengths.count, 1)) }
        state = Mutex(State(fractions: [Double](repeating: 0, count: lengths.count)))
    }

    /// A worker's progress through file `index`, 0…1.
    func report(_ index: Int, fraction: Double) {
        guard enabled, interactive else { return }
        state.withLock { state in
            state.fractions[index] = fraction
            let now = DispatchTime.now().uptimeNanoseconds
            // Every worker reports ten times a second: draw at that pace, not at theirs combined.
            guard now - state.lastDraw > 100_000_000 else { return }
            state.lastDraw = now
            draw(state)
            state.drewBar = true
        }
    }

    /// File `index` is done, rendered or failed.
    func finished(_ index: Int, failed: Bool) {
        guard enabled else { return }
        state.withLock { state in
            state.fractions[index] = 1
            state.finished += 1
            if failed { state.failed += 1 }
            if interactive {
                draw(state)
                state.drewBar = true
            } else {
                Terminal.status("batch: \(state.finished) of \(weights.count) files done" + failures(state)
                    + ", \(percent(state))%" + (eta(state).map { ", ETA \($0)" } ?? ""))
            }
        }
    }

    /// A line of a worker's stderr, above the bar (drawn again at the next report).
    func printAbove(_ line: String) {
        state.withLock { state in
            if state.drewBar { Terminal.statusLine("") }
            Terminal.status(line)
        }
    }

    /// Clears the bar before the summary.
    func finish() {
        state.withLock { state in
            if state.drewBar { Terminal.statusLine("") }
        }
    }

    private func draw(_ state: State) {
        let width = 30
        let filled = Int(fraction(state) * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        Terminal.statusLine("[\(bar)] \(percent(state))%  \(state.finished) of \(weights.count) files" + failures(state)
            + (eta(state).map { "  ETA \($0)" } ?? ""))
    }

    private func fraction(_ state: State) -> Double {
        zip(weights, state.fractions).reduce(0) { $0 + $1.0 * $1.1 }
    }

    private func percent(_ state: State) -> Int { Int(fraction(state) * 100) }

    private func failures(_ state: State) -> String {
        state.failed > 0 ? " (\(state.failed) failed)" : ""
    }

    /// Time left at the pace so far, once there is a pace to go by.
    private func eta(_ state: State) -> String? {
        let done = fraction(state)
        guard done > 0.001, done < 1 else { return nil }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        return NumberText.clock(elapsed * (1 - done) / done)
    }
}
