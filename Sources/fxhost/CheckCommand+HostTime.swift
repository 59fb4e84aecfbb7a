import HostCore
import LiveControl
import LV2Bridge

extension CheckCommand {
    /// Per plugin node that takes the host's time, the line `check` prints
    /// under it: what follows the tempo, and the tempo itself.
    static func hostTimeLines(_ graph: AudioGraph) -> [String: String] {
        let tempo = graph.tempo
        let tempoText = "\(NumberText.format(tempo.beatsPerMinute)) bpm, \(tempo.beatsPerBar)/\(tempo.beatUnit)"
        var lines: [String: String] = [:]
        for node in graph.nodes {
            guard case .unit(let unit, _) = node.kind, let plugin = (unit as? LV2Unit)?.plugin else { continue }
            let ports = plugin.hostTimePorts
            guard !ports.isEmpty else { continue }
            let names = ports.map { $0.takesTimePosition ? "time:Position on \($0.symbol)" : $0.symbol }
            lines[node.name] = "host time (\(tempoText), or JACK transport live): " + names.joined(separator: ", ")
                + (ports.contains { $0.isDrivenByTransport } ? " (driven by the host, not parameters)" : "")
        }
        return lines
    }
}
