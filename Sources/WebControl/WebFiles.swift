import Foundation
import LiveControl

/// The audio files a web client may name for a plugin to read (an impulse
/// response, a sample): those under the folder remote paths are confined
/// to, relative to it, as `GET /api/v1/files` lists them for the page's
/// menus. Bounded: hidden files and symbolic links skipped, at most
/// `maximumDepth` folders down and `maximumFiles` files.
enum WebFiles {
    static let maximumFiles = 500
    static let maximumDepth = 4

    static func list(in folder: String) -> [String] {
        let root = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
        let extensions = RemotePaths.Use.audioRead.extensions
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey],
                                                         options: [.skipsHiddenFiles, .skipsPackageDescendants]) else { return [] }
        var files: [String] = []
        for case let url as URL in walk {
            if walk.level > maximumDepth { walk.skipDescendants(); continue }
            let kind = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            guard kind?.isSymbolicLink != true else { walk.skipDescendants(); continue }
            guard kind?.isRegularFile == true, extensions.contains(where: { url.path.lowercased().hasSuffix($0) }) else { continue }
            let relative = url.standardizedFileURL.path.dropFirst(root.path.count).drop { $0 == "/" }
            files.append(String(relative))
            if files.count >= maximumFiles { break }
        }
        return files.sorted()
    }
}
