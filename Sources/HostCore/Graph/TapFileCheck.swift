import Foundation

/// What a render or a live run would refuse about a tap's file, found before
/// any file is opened, so `fxhost check` refuses the same taps at the tap's
/// line. The file's format comes from its extension and must hold the tap's
/// channels at the plan's rate (checked when compiling, where both are
/// known); the file goes into a folder that exists and can be written, and
/// can itself be written if it exists, and is a regular file if it exists
/// (checked when a patch is loaded, like its file sources).
package enum TapFileCheck {
    static func requireFormat(_ tap: GraphTap, channels: Int, sampleRate: Double) throws(GraphError) {
        let format: AudioFileFormat
        do {
            format = try AudioFileFormat(path: tap.file)
        } catch {
            throw GraphError("\(owner(tap)): cannot tell the audio format of `\(tap.file)` from its extension",
                             at: tap.location,
                             suggestion: "end the file name in " + AudioFileFormat.acceptedExtensions.joined(separator: ", "))
        }
        do {
            try format.validate(channels: channels, sampleRate: Int(sampleRate))
        } catch {
            throw GraphError("\(owner(tap)) cannot record to `\(tap.file)`: \(error.description)", at: tap.location)
        }
    }

    package static func requireFolder(_ tap: GraphTap) throws(GraphError) {
        let url = URL(fileURLWithPath: tap.file)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        // A FIFO, a device, a socket or a directory is no file to record to.
        do {
            try RegularFile.requireReplaceable(tap.file)
        } catch where error.systemMessage == nil {
            throw GraphError("\(owner(tap)): \(error.description)", at: tap.location)
        } catch {
            // Other failures (a missing folder) are told below.
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw GraphError("\(owner(tap)): the folder of `\(tap.file)` does not exist", at: tap.location,
                             suggestion: "create `\(folder)` first")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw GraphError("\(owner(tap)): the folder of `\(tap.file)` cannot be written to", at: tap.location)
        }
        // A live run records into the file itself, not beside it.
        if FileManager.default.fileExists(atPath: url.path), access(url.path, W_OK) != 0 {
            throw GraphError("\(owner(tap)): `\(tap.file)` exists and cannot be written to", at: tap.location)
        }
    }

    private static func owner(_ tap: GraphTap) -> String { "the tap on `\(tap.node)`" }
}
