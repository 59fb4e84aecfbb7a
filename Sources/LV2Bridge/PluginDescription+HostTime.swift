/// What of a plugin follows the host's transport rather than the user: its
/// controls designated time:beatsPerMinute and time:speed (not parameters:
/// the host drives them from the same position it sends, so they never
/// disagree) and its atom inputs that take `time:Position`.
extension PluginDescription {
    /// The ports the host's time reaches, in port order.
    package var hostTimePorts: [PortDescription] {
        ports.filter { $0.isDrivenByTransport || $0.takesTimePosition }
    }

    /// "follows the host's tempo (time:beatsPerMinute)", as `info` and `check` say it.
    package static func hostTimeNote(_ port: PortDescription) -> String {
        switch port.designation {
        case .beatsPerMinute: return "follows the host's tempo (time:beatsPerMinute)"
        case .speed: return "follows the host's transport, 1 rolling, 0 stopped (time:speed)"
        default: return "receives the host's time:Position (tempo, meter, bar, beat, rolling or stopped)"
        }
    }
}
