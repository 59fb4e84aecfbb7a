import ArgumentParser
import Foundation
import HostCore
import LiveControl
import LV2Bridge

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a plugin's ports, ranges, presets, latency and features.",
        discussion: """
            Examples:
              fxhost info mda/Overdrive
              fxhost info http://gareus.org/oss/lv2/fil4#stereo --json
            """)

    @Argument(help: "Plugin URI or unique short name.")
    var plugin: String

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @Flag(help: "Suggest names for an unknown plugin from every bundle, neither reading nor writing the plugin cache.")
    var noCache = false

    func run() throws {
        // One plugin is read from its bundle (cheaper than decoding the
        // cache); the cache serves the suggestions for an unknown name.
        let jsonOutput = json ? JSONStandardOutput() : nil
        let description = try Plugins(useCache: !noCache).catalog.resolve(plugin)
        if let jsonOutput { return try jsonOutput.print(description) }
        print("\(description.name)\n  \(description.uri)")
        if let classLabel = description.classLabel { print("  class: \(classLabel)") }
        if let author = description.author { print("  by: \(author)") }
        print("  audio: \(description.mainAudioInputs.count) in, \(description.mainAudioOutputs.count) out"
              + (description.reportsLatency ? ", reports latency" : ""))
        let midiIn = description.ports.filter { $0.supportsMIDI && $0.direction == .input }.map(\.symbol)
        let midiOut = description.ports.filter { $0.supportsMIDI && $0.direction == .output }.map(\.symbol)
        if !midiIn.isEmpty || !midiOut.isEmpty {
            // The ports a patch wires MIDI to and from (`node:symbol` picks one).
            func list(_ symbols: [String]) -> String { symbols.isEmpty ? "" : " (" + symbols.joined(separator: ", ") + ")" }
            print("  MIDI: \(midiIn.count) in\(list(midiIn)), \(midiOut.count) out\(list(midiOut))")
        }
        let audio = description.ports.filter { $0.kind == .audio }
        if !audio.isEmpty {
            print("\nAudio ports:")
            for port in audio {
                var notes: [String] = []
                if port.isSideChain { notes.append("sidechain") }
                if port.isOptional { notes.append("optional") }
                print("  \(port.direction == .input ? "in " : "out") \(port.symbol)  \(port.name)"
                      + (notes.isEmpty ? "" : "  (\(notes.joined(separator: ", ")))"))
            }
        }
        let controls = description.ports.filter { $0.kind == .control && $0.direction == .input && $0.designation == nil }
        if !controls.isEmpty {
            print("\nParameters (params: in a patch, symbol=value in --chain):")
            let width = controls.map(\.symbol.count).max() ?? 0
            for port in controls {
                print("  " + port.symbol.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + Self.describe(port))
            }
        }
        Self.printHostTime(description)
        let writable = description.properties.filter(\.isWritable)
        if !writable.isEmpty {
            print("\nMessage parameters (patch:writable; set them like parameters, by name):")
            let width = writable.map(\.shortName.count).max() ?? 0
            for property in writable {
                print("  " + property.shortName.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                      + Self.describe(property))
            }
        }
        let readable = description.properties.filter { !$0.isWritable }
        if !readable.isEmpty {
            print("\nReported by the plugin (patch:readable): " + readable.map(\.shortName).joined(separator: ", "))
        }
        if !description.presets.isEmpty {
            print("\nPresets (preset: in a patch):")
            for preset in description.presets { print("  \(preset.label)") }
        }
        if !description.requiredFeatures.isEmpty {
            print("\nRequires: " + description.requiredFeatures.joined(separator: ", "))
            let unsupported = description.unsupportedFeatures
            if !unsupported.isEmpty { print("  fxhost cannot provide: " + unsupported.joined(separator: ", ")) }
        }
    }

    /// "Impulse Response: file path", "Gain: number, 0 … 2, default 1".
    static func describe(_ property: PropertyDescription) -> String {
        var text = "\(property.label): \(property.valueType.phrase)"
        if let minimum = property.minimum, let maximum = property.maximum {
            text += ", \(NumberText.format(minimum)) … \(NumberText.format(maximum))"
        }
        if let defaultValue = property.defaultValue { text += ", default \(NumberText.format(defaultValue))" }
        return text
    }

    static func describe(_ port: PortDescription) -> String {
        var text = port.name
        if port.isToggle {
            text += ": on/off"
        } else if port.isEnumeration && !port.scalePoints.isEmpty {
            text += ": one of " + port.scalePoints.map { "\"\($0.label)\"" }.joined(separator: ", ")
        } else if let minimum = port.minimum, let maximum = port.maximum {
            text += ": \(NumberText.format(minimum)) … \(NumberText.format(maximum))" + (port.isInteger ? " (whole numbers)" : "")
                + (port.isLogarithmic ? " (logarithmic)" : "")
        }
        if let defaultValue = port.defaultValue { text += ", default \(NumberText.format(defaultValue))" }
        return text
    }
}
