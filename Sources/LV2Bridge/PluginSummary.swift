/// What `fxhost plugins` lists of a plugin: enough to search and print a
/// line, cached beside the full description so a warm listing need not
/// decode every plugin's ports.
package struct PluginSummary: Codable, Sendable, Equatable {
    package var uri: String
    package var name: String
    package var mainAudioInputs: Int
    package var mainAudioOutputs: Int

    package init(_ description: PluginDescription) {
        uri = description.uri
        name = description.name
        mainAudioInputs = description.mainAudioInputs.count
        mainAudioOutputs = description.mainAudioOutputs.count
    }

    /// Whether the URI or name contains `needle` (lowercased).
    func matches(_ needle: String) -> Bool {
        needle.isEmpty || uri.lowercased().contains(needle) || name.lowercased().contains(needle)
    }
}
