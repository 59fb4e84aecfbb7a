import HostCore

/// What an OSC message asks of fxhost, read from its address and arguments
/// (the address space in docs/live.md). Most become a `ControlCommand`; the
/// rest (status, subscriptions) are the OSC front end's own business.
package enum OSCRequest: Equatable, Sendable {
    case control(ControlCommand)
    /// Reply `/fxhost/status s:json`.
    case status
    /// Send every change from any front end to this sender as `/fxhost/param`
    /// and the like, and, with a rate, the output meters that many times a second.
    case subscribe(meterHertz: Double?)
    case unsubscribe

    /// Every address fxhost answers, with its arguments, for the sentences that name what was expected.
    package static let addresses: [(address: String, arguments: String)] = [
        ("/fxhost/set", "s:node s:param f|i|s:value"),
        ("/fxhost/bypass", "s:node i:on"),
        ("/fxhost/preset", "s:node s:preset"),
        ("/fxhost/preset/save", "s:node s:name"),
        ("/fxhost/tap", "s:node[:port] s:file"),
        ("/fxhost/untap", "s:node[:port]"),
        ("/fxhost/tap/pause", "s:node[:port]"),
        ("/fxhost/tap/resume", "s:node[:port]"),
        ("/fxhost/connect", "s:from s:to [f:gain-dB]"),
        ("/fxhost/disconnect", "s:from s:to"),
        ("/fxhost/scene", "s:scene"),
        ("/fxhost/learn", "s:node s:param"),
        ("/fxhost/unlearn", "s:node s:param"),
        ("/fxhost/bounce", "s:file [f:from-seconds [f:to-seconds]]"),
        ("/fxhost/bounce/cancel", "no arguments"),
        ("/fxhost/save", "[s:file]"),
        ("/fxhost/tempo", "f:beats-per-minute"),
        ("/fxhost/transport", "i:rolling"),
        ("/fxhost/status", "no arguments"),
        ("/fxhost/subscribe", "[f:meter-hz]"),
        ("/fxhost/unsubscribe", "no arguments"),
    ]

    /// The run loop looks 50 times a second: meters come no faster.
    package static let maximumMeterHertz = 50.0

    /// Reads `message`; the error's sentence names what was expected.
    package init(_ message: OSCMessage) throws(OSCRequestError) {
        let arguments = message.arguments
        func expected() -> OSCRequestError {
            let form = Self.addresses.first { $0.address == message.address }?.arguments ?? ""
            let got = message.typeTags.isEmpty ? "none" : message.typeTags
            return .wrongArguments("\(message.address) takes \(form), not arguments of types `\(got)`")
        }
        func port(_ text: String) throws(OSCRequestError) -> PortReference {
            do {
                return try PortReference(parsing: text)
            } catch {
                throw .wrongArguments("\(message.address): \(error.message)")
            }
        }
        /// The string arguments, when the message has exactly `count` of them first and `extra` more after.
        func strings(_ count: Int, extra: ClosedRange<Int> = 0...0) throws(OSCRequestError) -> [String] {
            guard (count + extra.lowerBound...count + extra.upperBound).contains(arguments.count) else { throw expected() }
            var texts: [String] = []
            for argument in arguments.prefix(count) {
                guard case .string(let text) = argument else { throw expected() }
                texts.append(text)
            }
            return texts
        }
        /// A number argument (float or int), as OSC senders differ in which they send.
        func number(_ argument: OSCMessage.Argument) throws(OSCRequestError) -> Double {
            switch argument {
            case .float(let value): return Double(value)
            case .int(let value): return Double(value)
            case .string: throw expected()
            }
        }
        switch message.address {
        case "/fxhost/set":
            let names = try strings(2, extra: 1...1)
            let value: ParameterValue
            switch arguments[2] {
            case .float(let number): value = .number(Double(number))
            case .int(let number): value = .number(Double(number))
            case .string(let text): value = PatchValueSyntax.parameterValue(text)
            }
            self = .control(.set(node: names[0], parameter: names[1], value: value))
        case "/fxhost/bypass":
            let names = try strings(1, extra: 1...1)
            guard case .int(let on) = arguments[1] else { throw expected() }
            self = .control(.bypass(node: names[0], on: on != 0))
        case "/fxhost/preset":
            let names = try strings(2)
            self = .control(.preset(node: names[0], name: names[1]))
        case "/fxhost/preset/save":
            let names = try strings(2)
            self = .control(.savePreset(node: names[0], name: names[1]))
        case "/fxhost/tap":
            let names = try strings(2)
            self = .control(.tap(try port(names[0]), file: names[1]))
        case "/fxhost/untap":
            self = .control(.untap(try port(try strings(1)[0])))
        case "/fxhost/tap/pause":
            self = .control(.pauseTap(try port(try strings(1)[0])))
        case "/fxhost/tap/resume":
            self = .control(.resumeTap(try port(try strings(1)[0])))
        case "/fxhost/scene":
            self = .control(.scene(try strings(1)[0]))
        case "/fxhost/learn":
            let names = try strings(2)
            self = .control(.learn(node: names[0], parameter: names[1]))
        case "/fxhost/unlearn":
            let names = try strings(2)
            self = .control(.unlearn(node: names[0], parameter: names[1]))
        case "/fxhost/bounce":
            let file = try strings(1, extra: 0...2)[0]
            let from = arguments.count > 1 ? try number(arguments[1]) : 0
            let to = arguments.count > 2 ? try number(arguments[2]) : nil
            guard from >= 0, (to ?? .infinity) > from else {
                throw .wrongArguments("/fxhost/bounce: the end must come after the start, and the start may not be negative")
            }
            self = .control(.bounce(file: file, from: from, to: to))
        case "/fxhost/bounce/cancel":
            _ = try strings(0)
            self = .control(.cancelBounce)
        case "/fxhost/connect":
            let names = try strings(2, extra: 0...1)
            let gain = arguments.count == 3 ? try number(arguments[2]) : 0
            self = .control(.connect(from: try port(names[0]), to: try port(names[1]), gainDecibels: gain))
        case "/fxhost/disconnect":
            let names = try strings(2)
            self = .control(.disconnect(from: try port(names[0]), to: try port(names[1])))
        case "/fxhost/status":
            _ = try strings(0)
            self = .status
        case "/fxhost/subscribe":
            _ = try strings(0, extra: 0...1)
            let hertz = arguments.isEmpty ? nil : try number(arguments[0])
            if let hertz, !(hertz >= 0 && hertz <= Self.maximumMeterHertz) {
                throw .wrongArguments("/fxhost/subscribe: the meter rate is from 0 (no meters) to "
                    + "\(Int(Self.maximumMeterHertz)) per second, not \(NumberText.format(hertz))")
            }
            self = .subscribe(meterHertz: hertz == 0 ? nil : hertz)
        case "/fxhost/unsubscribe":
            _ = try strings(0)
            self = .unsubscribe
        case "/fxhost/tempo":
            _ = try strings(0, extra: 1...1)
            self = .control(.tempo(try number(arguments[0])))
        case "/fxhost/transport":
            _ = try strings(0, extra: 1...1)
            guard case .int(let rolling) = arguments[0] else { throw expected() }
            self = .control(.transport(rolling: rolling != 0))
        case "/fxhost/save":
            let names = try strings(arguments.isEmpty ? 0 : 1)
            self = .control(.save(file: names.first))
        default:
            if Self.addresses.contains(where: { $0.address == message.address }) { throw expected() }
            throw .unknownAddress("unknown OSC address `\(message.address)`; fxhost answers "
                + Self.addresses.map(\.address).joined(separator: ", "))
        }
    }
}

/// An OSC message fxhost cannot carry out as sent, in one sentence for `/fxhost/error`.
package enum OSCRequestError: Error, Equatable, CustomStringConvertible {
    case unknownAddress(String)
    case wrongArguments(String)

    package var description: String {
        switch self {
        case .unknownAddress(let sentence), .wrongArguments(let sentence): return sentence
        }
    }
}
