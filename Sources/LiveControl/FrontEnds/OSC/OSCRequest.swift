import HostCore

/// What an OSC message asks of fxhost, read from its address and arguments:
/// a command of the protocol, read by its entry in `CommandTable` (the
/// address space in docs/control.md), or what only the OSC front end has
/// (subscriptions, and a JSON command for scripts).
package enum OSCRequest: Equatable, Sendable {
    case control(ControlCommand)
    /// `/fxhost/json s:request`: a command in the protocol's JSON; the
    /// reply goes back as `/fxhost/json s:reply`.
    case json(String)
    /// Send every change from any front end to this sender as `/fxhost/param`
    /// and the like, and, with a rate, the output meters that many times a second.
    case subscribe(meterHertz: Double?)
    case unsubscribe

    /// The OSC front end's own addresses, with their arguments.
    package static let ownAddresses: [(address: String, arguments: String)] = [
        ("/fxhost/json", "s:json-command"),
        ("/fxhost/subscribe", "[f:meter-hz]"),
        ("/fxhost/unsubscribe", "no arguments"),
    ]

    /// Every address fxhost answers, with its arguments.
    package static var addresses: [(address: String, arguments: String)] {
        CommandTable.all.map { ($0.oscAddress, $0.oscArguments) } + ownAddresses
    }

    /// The host's meter timer: meters come no faster.
    package static let maximumMeterHertz = OSCLimits.maximumMeterHertz

    /// Reads `message`; the error's sentence names what was expected.
    package init(_ message: OSCMessage) throws(OSCRequestError) {
        if let spec = CommandTable.at(address: message.address) {
            self = .control(try spec.osc(OSCArguments(message, form: spec.oscArguments)))
            return
        }
        guard let own = Self.ownAddresses.first(where: { $0.address == message.address }) else {
            throw .unknownAddress("unknown OSC address `\(message.address)`; fxhost answers "
                + Self.addresses.map(\.address).joined(separator: ", "))
        }
        let arguments = OSCArguments(message, form: own.arguments)
        switch message.address {
        case "/fxhost/json":
            self = .json(try arguments.strings(1)[0])
        case "/fxhost/subscribe":
            _ = try arguments.strings(0, extra: 0...1)
            let hertz = arguments.count == 0 ? nil : try arguments.number(0)
            if let hertz, !(hertz >= 0 && hertz <= Self.maximumMeterHertz) {
                throw .wrongArguments("/fxhost/subscribe: the meter rate is from 0 (no meters) to "
                    + "\(Int(Self.maximumMeterHertz)) per second, not \(NumberText.format(hertz))")
            }
            self = .subscribe(meterHertz: hertz == 0 ? nil : hertz)
        default:
            _ = try arguments.strings(0)
            self = .unsubscribe
        }
    }
}
