import Foundation
import HostCore
import LiveControl

/// Render progress on stderr: a bar with ETA on a terminal, a plain line
/// every 10% otherwise (logs and CI).
final class ProgressReporter {
    private let enabled: Bool
    private let interactive = Terminal.standardErrorIsTerminal
    private var lastDecile = -1
    private var drewBar = false

    init(enabled: Bool) { self.enabled = enabled }

    func report(_ progress: RenderProgress) {
        guard enabled, !progress.finished else { return }
        let seconds = Double(progress.framesDone) / progress.sampleRate
        let fraction = progress.framesExpected > 0 ? min(1, Double(progress.framesDone) / Double(progress.framesExpected)) : 1
        if interactive {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            var line = "[\(bar)] \(Int(fraction * 100))%  \(NumberText.clock(seconds))  \(String(format: "%.1f", progress.speed))× realtime"
            if progress.inTail { line += "  tail" } else if let remaining = progress.remainingSeconds {
                line += "  ETA \(NumberText.clock(remaining))"
            }
            Terminal.statusLine(line)
            drewBar = true
        } else {
            let decile = Int(fraction * 10)
            guard decile > lastDecile, !progress.inTail else { return }
            lastDecile = decile
            Terminal.status("rendering: \(decile * 10)% (\(NumberText.clock(seconds)), \(String(format: "%.1f", progress.speed))× realtime)")
        }
    }

    func finish() {
        if drewBar { Terminal.statusLine("") }
    }
}
