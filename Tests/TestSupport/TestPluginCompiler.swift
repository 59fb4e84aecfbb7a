import Foundation

/// Compiles test plugins from Tests/TestPlugin with the C compiler on PATH
/// (the Swift toolchain's clang, else cc). The tests build them themselves
/// because SwiftPM makes a shared library only for a product, and a test
/// fixture is no product of fxhost.
public enum TestPluginCompiler {
    public struct BuildError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Compiles `sources` (file names in Tests/TestPlugin) into the shared
    /// library `library`, with `-D` for each of `defines`; returns `library`.
    public static func compile(_ sources: [String], into library: URL, defines: [String] = []) throws -> URL {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TestPlugin")
        let folder = library.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        let compilers = ["clang", "cc"].flatMap { name in searchPath.map { "\($0)/\(name)" } }
        guard let compiler = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BuildError(description: "no clang or cc on PATH to compile \(sources.joined(separator: ", "))")
        }
        let log = folder.appendingPathComponent(library.deletingPathExtension().lastPathComponent + "-build.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        var arguments = ["-shared", "-fPIC", "-O1", "-Wall", "-Werror"]
        arguments += defines.map { "-D" + $0 }
        arguments += ["-I", source.appendingPathComponent("include").path]
        arguments += sources.map { source.appendingPathComponent($0).path }
        arguments += ["-o", library.path]
        process.arguments = arguments
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        try? output.close()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw BuildError(description: "\(compiler) could not compile \(sources.joined(separator: ", ")):\n\(text)")
        }
        return library
    }
}
