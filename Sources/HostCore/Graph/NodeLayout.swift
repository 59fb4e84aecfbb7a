/// How wide each node is once the wiring is known, and how a unit is
/// instantiated to fit its stream (`ChannelResolver` works it out).
struct NodeLayout {
    var inputWidth: Int
    var outputWidth: Int
    /// Plugin instances: more than one when a mono plugin runs per channel.
    var instances: Int
}
