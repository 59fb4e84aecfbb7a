import Foundation
import LiveControl
import Synchronization

/// A batch worker's reports to its parent: JSON lines on a copy of the
/// stdout it was started with, which `Terminal.separateResultsFromPluginOutput`
/// sets apart (as for `--json`): descriptor 1 then points at stderr, so what
/// a plugin prints on stdout cannot break into the protocol.
final class BatchWorkerChannel: Sendable {
    private let descriptor: Int32
    /// Progress comes from the render's thread, results from the worker's; a line is written whole.
    private let writing = Mutex(())

    init() throws {
        guard let copy = Terminal.separateResultsFromPluginOutput() else {
            throw CommandLineError("a batch worker could not set its report pipe apart (\(String(cString: strerror(errno))))")
        }
        descriptor = copy
    }

    /// One line; a summary JSON cannot encode becomes the file's error, so the parent always hears of the file.
    func send(_ message: BatchWorkerMessage) {
        let encoder = BatchWorkerMessage.encoder()
        var line: Data
        if let data = try? encoder.encode(message) {
            line = data
        } else {
            let fallback = BatchWorkerMessage(index: message.index, error: "the render's summary could not be written as JSON")
            guard let data = try? encoder.encode(fallback) else { return }
            line = data
        }
        line.append(0x0A)
        let text = String(decoding: line, as: UTF8.self)
        writing.withLock { _ in Terminal.writeAll(text, to: descriptor) }
    }
}
