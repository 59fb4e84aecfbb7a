import HostCore

/// An OSC message's arguments, with the readers every address shares, so a
/// wrong message is refused with the address's own form (`/fxhost/set takes
/// s:node s:param f|i|s:value, not arguments of types `ss``).
package struct OSCArguments: Sendable {
    package var message: OSCMessage
    /// What the address takes, as the table declares it.
    package var form: String

    package init(_ message: OSCMessage, form: String) {
        self.message = message
        self.form = form
    }

    package var values: [OSCMessage.Argument] { message.arguments }
    package var count: Int { message.arguments.count }
    package subscript(index: Int) -> OSCMessage.Argument { message.arguments[index] }

    package func expected() -> OSCRequestError {
        let got = message.typeTags.isEmpty ? "none" : message.typeTags
        return .wrongArguments("\(message.address) takes \(form), not arguments of types `\(got)`")
    }

    /// The string arguments, when the message has exactly `count` of them first and `extra` more after.
    package func strings(_ count: Int, extra: ClosedRange<Int> = 0...0) throws(OSCRequestError) -> [String] {
        guard (count + extra.lowerBound...count + extra.upperBound).contains(values.count) else { throw expected() }
        var texts: [String] = []
        for argument in values.prefix(count) {
            guard case .string(let text) = argument else { throw expected() }
            texts.append(text)
        }
        return texts
    }

    /// A number argument (float or int), as OSC senders differ in which they send.
    package func number(_ index: Int) throws(OSCRequestError) -> Double {
        switch values[index] {
        case .float(let value): return Double(value)
        case .int(let value): return Double(value)
        case .string: throw expected()
        }
    }

    /// An int argument read as on (not 0) or off.
    package func flag(_ index: Int) throws(OSCRequestError) -> Bool {
        guard case .int(let value) = values[index] else { throw expected() }
        return value != 0
    }

    package func port(_ text: String) throws(OSCRequestError) -> PortReference {
        do {
            return try PortReference(parsing: text)
        } catch {
            throw .wrongArguments("\(message.address): \(error.message)")
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
