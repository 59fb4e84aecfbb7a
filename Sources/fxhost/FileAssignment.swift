import ArgumentParser
import Foundation
import HostCore
import LiveControl
import LV2Bridge

/// `-i`/`-o` values: `FILE` for the patch's inputs or outputs in order, or
/// `NODE=FILE` for a named one.
struct FileAssignment: Codable {
    var node: String?
    var path: String

    init(node: String?, path: String) {
        self.node = node
        self.path = path
    }

    init(_ argument: String) {
        if let equals = argument.firstIndex(of: "="), PatchValueSyntax.isNodeName(argument[..<equals]) {
            node = String(argument[..<equals])
            path = String(argument[argument.index(after: equals)...])
        } else {
            path = argument
        }
    }

    /// Pairs files with nodes: named ones by name, the rest in order.
    static func assign(_ assignments: [FileAssignment], to nodes: [String], kind: String,
                       option: String) throws -> [String: String] {
        var result: [String: String] = [:]
        var unnamed = nodes
        for assignment in assignments {
            guard let node = assignment.node else { continue }
            guard nodes.contains(node) else {
                let known = nodes.map { "`\($0)`" }.joined(separator: ", ")
                throw CommandLineError("`\(option) \(node)=…` names no \(kind) of this patch; its \(kind)s are \(known.isEmpty ? "none" : known)")
            }
            result[node] = assignment.path
            unnamed.removeAll { $0 == node }
        }
        for assignment in assignments where assignment.node == nil {
            guard !unnamed.isEmpty else {
                throw CommandLineError("there are more `\(option)` files than \(kind)s in this patch (\(nodes.count))")
            }
            result[unnamed.removeFirst()] = assignment.path
        }
        return result
    }
}
