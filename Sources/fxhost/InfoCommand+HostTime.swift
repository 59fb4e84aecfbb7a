import LiveControl
import LV2Bridge

extension InfoCommand {
    /// The ports the host drives from its transport, which are not parameters.
    static func printHostTime(_ description: PluginDescription) {
        let ports = description.hostTimePorts
        guard !ports.isEmpty else { return }
        print("\nHost time (the patch's tempo: and meter:, or JACK transport; not parameters):")
        let width = ports.map(\.symbol.count).max() ?? 0
        for port in ports {
            print("  " + port.symbol.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(port.name): "
                  + PluginDescription.hostTimeNote(port))
        }
    }
}
