import Foundation
import HostCore
import LiveControl

extension SummaryPrinter {
    /// The closing summary of a batch: a line per output of each file, or the file's error.
    static func print(_ summary: BatchSummary) {
        let crashes = summary.crashed > 0 ? ", \(summary.crashed) of them crashed" : ""
        let failures = summary.failed > 0 ? " (\(summary.failed) failed\(crashes))" : ""
        Terminal.status(String(format: "rendered %d of %d files in %.2f s, up to %d at once", summary.rendered,
                               summary.files.count, summary.elapsedSeconds, summary.jobs) + failures)
        for file in summary.files {
            guard let render = file.render else {
                Terminal.status("  \(file.number) \(file.input): \(file.crashed == true ? "CRASHED" : "failed"): \(file.error ?? "")")
                continue
            }
            for output in render.outputs {
                let peaks = output.peakDecibels.map { Decibels.peakText($0) }
                Terminal.status("  \(file.number) \(file.input) → \(output.file ?? "(not written)"): "
                    + "\(NumberText.clock(render.durationSeconds)), peak \(peaks.joined(separator: " / ")) dBFS")
                if output.clipped {
                    Terminal.warning("`\(output.file ?? output.node)` peaks above 0 dBFS: it clips in integer formats and on playback; lower the gain or add a limiter")
                }
            }
        }
    }
}
