import XCTest
@testable import HostCore

/// The message `PatchParser` gives for `text` (as file `p.yaml`), or a note that it parsed.
func patchFailure(_ text: String) -> String {
    do {
        _ = try PatchParser.parse(text: text, path: "p.yaml")
        return "(parsed without error)"
    } catch {
        return error.description
    }
}

/// The message `ChainSpec` gives for `text`, or a note that it parsed.
func chainFailure(_ text: String) -> String {
    do {
        _ = try ChainSpec.patch(from: text, units: ChainTestUnits())
        return "(parsed without error)"
    } catch {
        return error.description
    }
}

/// The patch with every source location removed, to compare models by content.
func withoutLocations(_ patch: Patch) -> Patch {
    var patch = patch
    patch.sourcePath = nil
    for index in patch.nodes.indices {
        patch.nodes[index].location = nil
        if case .plugin(var spec) = patch.nodes[index].kind {
            spec.pluginLocation = nil
            spec.presetLocation = nil
            for parameter in spec.parameters.indices { spec.parameters[parameter].location = nil }
            patch.nodes[index].kind = .plugin(spec)
        }
        if case .file(var spec) = patch.nodes[index].kind {
            spec.pathLocation = nil
            patch.nodes[index].kind = .file(spec)
        }
        if case .midiFile(var spec) = patch.nodes[index].kind {
            spec.pathLocation = nil
            patch.nodes[index].kind = .midiFile(spec)
        }
    }
    for index in patch.connections.indices {
        patch.connections[index].location = nil
        patch.connections[index].from.location = nil
        patch.connections[index].to.location = nil
    }
    for index in patch.taps.indices {
        patch.taps[index].location = nil
        patch.taps[index].at.location = nil
    }
    return patch
}

/// `from -> to`, with port selectors, for comparing wiring at a glance.
func arrow(_ connection: ConnectionDeclaration) -> String {
    "\(connection.from) -> \(connection.to)"
}
