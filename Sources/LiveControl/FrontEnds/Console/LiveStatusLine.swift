import Foundation
import HostCore
import JackIO

/// How a live session looks on one line, and the summary at exit.
package enum LiveStatusLine {
    /// "0:12.3  DSP 3.1%  xruns 0  main -12.0/-11.8 dBFS  tap drive 0:12.0" (a paused
    /// tap: "tap drive 0:12.0 paused"; a failed one: "tap drive 0:05.2 failed: disk full")
    package static func text(_ status: LiveStatus) -> String {
        var parts = [NumberText.clock(status.seconds),
                     String(format: "DSP %.1f%%", status.dspLoadPercent),
                     "xruns \(status.xruns)"]
        for output in status.outputs {
            parts.append("\(output.node) \(levels(output.peakDecibels)) dBFS")
        }
        if let bounce = status.bounce {
            let done = NumberText.clock(bounce.secondsDone), total = NumberText.clock(bounce.secondsExpected)
            parts.append("bouncing \(bounce.files.first ?? "") \(done)/\(total)" + (bounce.inTail ? " (tail)" : "")
                         + String(format: " %.0f×", bounce.speed))
        }
        for tap in status.taps where tap.recording || tap.state == .failed {
            parts.append("tap \(tap.node) \(NumberText.clock(tap.seconds))"
                         + (tap.state == .paused ? " paused" : "")
                         + (tap.state == .failed ? " failed: \(tap.error ?? "")" : "")
                         + (tap.droppedFrames > 0 ? " (\(tap.droppedFrames) dropped)" : ""))
        }
        for file in status.files where file.underrunFrames > 0 {
            parts.append("\(file.node) late by \(file.underrunFrames) frames")
        }
        return parts.joined(separator: "  ")
    }

    package static func levels(_ decibels: [Double?]) -> String {
        decibels.map(Decibels.peakText).joined(separator: "/")
    }

    /// The closing lines on stderr.
    package static func printSummary(_ status: LiveStatus) {
        let server = status.server.map { "server `\($0)`" } ?? "the default server"
        Terminal.status(String(format: "played %@ on %@ as `%@` (%d Hz, %d frames): %d xruns, host %.1f µs per cycle",
                               NumberText.clock(status.seconds), server, status.client, status.sampleRate,
                               status.bufferFrames, status.xruns, status.hostMicrosecondsPerCycle))
        for output in status.outputs {
            Terminal.status("  \(output.node): peak \(levels(output.maximumDecibels)) dBFS")
        }
        for tap in status.taps {
            Terminal.status("  tap \(tap.node) → \(tap.file): \(NumberText.clock(tap.seconds))"
                            + (tap.state == .failed ? " kept, then failed: \(tap.error ?? "")" : "")
                            + (tap.droppedFrames > 0 ? ", \(tap.droppedFrames) frames dropped (the disk was too slow)" : ""))
        }
        for file in status.files where file.underrunFrames > 0 {
            Terminal.warning("`\(file.file)` was read too slowly: \(file.underrunFrames) frames played as silence")
        }
    }
}
