import HostCore

extension ControlChange.Kind {
    /// The event's name in the protocol's JSON (docs/control.md lists each with its fields).
    package var eventName: String {
        switch self {
        case .parameter: return "parameter"
        case .property: return "property"
        case .bypass: return "bypass"
        case .presetApplied: return "preset"
        case .presetSaved: return "preset.saved"
        case .tapStarted: return "tap.started"
        case .tapPaused: return "tap.paused"
        case .tapResumed: return "tap.resumed"
        case .tapStopped: return "tap.stopped"
        case .tapFailed: return "tap.failed"
        case .connected: return "connected"
        case .disconnected: return "disconnected"
        case .bounceStarted: return "bounce.started"
        case .bounceFinished: return "bounce.finished"
        case .bounceFailed: return "bounce.failed"
        case .learning: return "learning"
        case .mapped: return "mapped"
        case .unmapped: return "unmapped"
        case .sceneApplied: return "scene"
        case .saved: return "saved"
        case .patchReloaded: return "reloaded"
        case .patchRefused: return "reload.refused"
        case .patchSwitched: return "setlist"
        case .tempo: return "tempo"
        case .tempoTapped: return "tempo.tap"
        case .transport: return "transport"
        case .engineCrashed: return "engine.crashed"
        case .restored: return "restored"
        }
    }

    /// The event's fields besides `v`, `event` and `source`.
    package var jsonFields: [String: JSONValue] {
        func take(_ take: ControlChange.Take) -> [String: JSONValue] {
            ["node": .string(take.node), "file": .string(take.file), "seconds": .number(take.seconds),
             "droppedFrames": .number(Double(take.droppedFrames))]
        }
        switch self {
        case .parameter(let node, let parameter, let value):
            return ["node": .string(node), "param": .string(parameter), "value": .number(Double(value))]
        case .property(let node, let property, let value):
            return ["node": .string(node), "param": .string(property), "value": .string(value)]
        case .bypass(let node, let on):
            return ["node": .string(node), "on": .bool(on)]
        case .presetApplied(let node, let name):
            return ["node": .string(node), "name": .string(name)]
        case .presetSaved(let node, let name, let bundle):
            return ["node": .string(node), "name": .string(name), "bundle": .string(bundle)]
        case .tapStarted(let reference, let file):
            return ["at": .string(reference.description), "file": .string(file)]
        case .tapPaused(let tap), .tapResumed(let tap), .tapStopped(let tap):
            return take(tap)
        case .tapFailed(let tap, let reason):
            return take(tap).merging(["reason": .string(reason)]) { $1 }
        case .connected(let from, let to, let gain):
            return ["from": .string(from.description), "to": .string(to.description), "gainDB": .number(gain)]
        case .disconnected(let from, let to):
            return ["from": .string(from.description), "to": .string(to.description)]
        case .bounceStarted(let files):
            return ["files": .array(files.map(JSONValue.string))]
        case .bounceFinished(let bounced):
            return ["files": .array(bounced.files.map(JSONValue.string)), "seconds": .number(bounced.seconds),
                    "elapsedSeconds": .number(bounced.elapsedSeconds), "speed": .number(bounced.speed)]
        case .bounceFailed(let reason), .patchRefused(let reason):
            return ["reason": .string(reason)]
        case .learning(let node, let parameter), .unmapped(let node, let parameter):
            return ["node": .string(node), "param": .string(parameter)]
        case .mapped(let mapping, let replaced):
            var fields: [String: JSONValue] = ["param": .string(mapping.destination), "mapping": .string(mapping.description)]
            if !replaced.isEmpty { fields["replacing"] = .array(replaced.map { .string($0.description) }) }
            return fields
        case .sceneApplied(let name):
            return ["name": .string(name)]
        case .patchSwitched(let name, let index):
            return ["name": .string(name), "index": .number(Double(index))]
        case .saved(let file):
            return ["file": .string(file)]
        case .patchReloaded(let added, let removed, let rewired):
            return ["added": .array(added.map(JSONValue.string)), "removed": .array(removed.map(JSONValue.string)),
                    "rewired": .bool(rewired)]
        case .tempo(let beatsPerMinute):
            return ["bpm": .number(beatsPerMinute)]
        case .tempoTapped(let taps):
            return ["taps": .number(Double(taps))]
        case .transport(let rolling):
            return ["rolling": .bool(rolling)]
        case .engineCrashed(let crash):
            var fields: [String: JSONValue] = ["sentence": .string(crash.sentence), "signal": .string(crash.signal),
                                               "atSeconds": .number(crash.atSeconds), "leftOut": .bool(crash.leftOut)]
            if let node = crash.node { fields["node"] = .string(node) }
            if let plugin = crash.plugin { fields["plugin"] = .string(plugin) }
            if let call = crash.call { fields["call"] = .string(call) }
            if let seconds = crash.restartSeconds { fields["restartSeconds"] = .number(seconds) }
            return fields
        case .restored(let node):
            return ["node": .string(node)]
        }
    }
}
