/// What a declared node is: the patch keys `plugin`, `file`, `input`, `output`, `mix` and `gain`.
package enum NodeKind: Sendable, Equatable {
    /// An LV2 plugin (`plugin: URI-or-short-name`).
    case plugin(PluginNodeSpec)
    /// A sound file played from `start` with `gain`.
    case file(FileSourceSpec)
    /// A live input: JACK ports to read (`input: [system:capture_1]`) or just a
    /// channel count (`input: 2`). Offline, `-i FILE` feeds it.
    case input(EndpointPorts)
    /// An output: JACK ports to write, or a channel count. Offline, `-o FILE` takes it.
    case output(EndpointPorts)
    /// A summing bus of a fixed channel count (`mix: 2`).
    case mix(channels: Int)
    /// A gain stage (`gain: -6dB`), as wide as its input.
    case gain(decibels: Double)
}
