import Foundation
import HostCore

/// One line a batch worker writes on its protocol descriptor, as JSON: that
/// it is ready for files, how far it has come through one, or what became
/// of it (its render's summary or the error sentence). The parent reads
/// these as input from outside: a line it cannot read, or one about a file
/// the worker was not given, counts as the worker's crash.
struct BatchWorkerMessage: Codable {
    /// The worker parsed its arguments and waits for files.
    var ready: Bool?
    /// The file's index in the batch (from 0), as the parent gave it.
    var index: Int?
    /// How far through the file, 0…1.
    var progress: Double?
    /// The file rendered: the summary `render --json` would print.
    var render: RenderSummary?
    /// The file failed to render: one sentence.
    var error: String?

    static let ready = BatchWorkerMessage(ready: true)

    /// A peak may be infinite or NaN (a plugin's output), which plain JSON
    /// cannot hold: both ends write and read those as strings.
    static let nonFinite = (positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: nonFinite.positiveInfinity, negativeInfinity: nonFinite.negativeInfinity, nan: nonFinite.nan)
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: nonFinite.positiveInfinity, negativeInfinity: nonFinite.negativeInfinity, nan: nonFinite.nan)
        return decoder
    }
}
