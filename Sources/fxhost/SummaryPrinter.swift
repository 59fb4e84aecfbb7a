import Foundation
import HostCore
import LiveControl

/// The closing summary of a render.
enum SummaryPrinter {
    static func print(_ summary: RenderSummary) {
        Terminal.status(String(format: "rendered %@ in %.2f s (%.1f× realtime)", NumberText.clock(summary.durationSeconds),
                               summary.elapsedSeconds, summary.speed))
        for output in summary.outputs {
            let peaks = output.peakDecibels.map { Decibels.peakText($0) }
            Terminal.status("  \(output.node) → \(output.file ?? "(not written)"): peak \(peaks.joined(separator: " / ")) dBFS")
            if output.clipped {
                Terminal.warning("`\(output.node)` peaks above 0 dBFS: it clips in integer formats and on playback; lower the gain or add a limiter")
            }
        }
        for tap in summary.taps {
            Terminal.status("  tap \(tap.node) → \(tap.file): \(NumberText.clock(Double(tap.frames) / summary.sampleRate))")
        }
    }
}
