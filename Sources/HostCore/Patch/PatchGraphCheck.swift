/// Checks of the declared wiring that need only node kinds: self-connections,
/// signal direction (nothing flows into a source or out of an output) and
/// cycles. Node names are already known to exist.
struct PatchGraphCheck {
    let patch: Patch

    func run() throws(PatchError) {
        var kinds: [String: NodeKind] = [:]
        for node in patch.nodes { kinds[node.name] = node.kind }
        var successors: [String: [String]] = [:]
        for connection in patch.connections {
            let from = connection.from.node, to = connection.to.node
            if from == to {
                throw PatchError("node `\(from)` is connected to itself", at: connection.location)
            }
            if case .output = kinds[from] {
                throw PatchError("node `\(from)` is an output; it has nothing to feed `\(to)`", at: connection.from.location)
            }
            switch kinds[to] {
            case .input:
                throw PatchError("node `\(to)` is an input; nothing can be connected into it", at: connection.to.location)
            case .file:
                throw PatchError("node `\(to)` is a file player; nothing can be connected into it", at: connection.to.location)
            default:
                break
            }
            if let path = Self.path(from: to, to: from, successors: successors) {
                let cycle = (path + [to]).joined(separator: " -> ")
                throw PatchError("cycle: \(cycle)", at: connection.location)
            }
            successors[from, default: []].append(to)
        }
    }

    /// A path of node names from `start` to `goal` (both included), breadth first, or nil.
    static func path(from start: String, to goal: String, successors: [String: [String]]) -> [String]? {
        var cameFrom: [String: String] = [start: start]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            if current == goal {
                var path = [goal]
                while path.last != start { path.append(cameFrom[path.last!]!) }
                return path.reversed()
            }
            for next in successors[current] ?? [] where cameFrom[next] == nil {
                cameFrom[next] = current
                queue.append(next)
            }
        }
        return nil
    }
}
