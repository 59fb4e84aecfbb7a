import Foundation
import HostCore

/// Message parameters live (`set NODE PROP VALUE` on a plugin's
/// `patch:writable` property). The unit forges the message on this thread
/// and queues it in each instance's ring; the realtime thread appends it at
/// frame 0 of the next block. A property that goes through plugin state
/// instead (`messageParameterNeedsSilence`) is set while the session plays
/// a silent program, as a preset with state is.
extension LiveSession {
    /// Whether `set NODE NAME` means a message parameter (false for a
    /// control port, an unknown name or a node that is not a plugin: those
    /// take the `setParameter` path and its errors).
    package func isMessageParameter(node: String, name: String) -> Bool {
        guard let unit = try? unit(named: node) else { return false }
        return unit.isMessageParameter(name)
    }

    /// Sends `value` to `node`'s message parameter `name`; a relative path
    /// is taken from the working directory. Returns the value as sent, as text.
    @discardableResult
    package func setMessageParameter(node: String, name: String, value: ParameterValue) throws(LiveSessionError) -> String {
        let unit = try unit(named: node)
        guard !serverHasShutDown else { throw .serverGone }
        // A bounce's instances would not hear it: its render stays as it began.
        try requireNoBounce()
        var text = ""
        let before = unit.messageOutcome()
        if unit.messageParameterNeedsSilence(name) {
            try whileSilent { () throws(LiveSessionError) in
                text = try Self.send(unit, node: node, name: name, value: value)
                awaitWork(of: unit)  // the file loads before the plugin plays again
            }
        } else {
            text = try Self.send(unit, node: node, name: name, value: value)
        }
        awaitWork(of: unit)
        let after = unit.messageOutcome()
        if after.failures > before.failures {
            unit.withdrawMessageParameter(name)
            var reason = after.reason(since: before) ?? "its worker reported a failure"
            while reason.hasSuffix(".") { reason.removeLast() }
            throw .unit(node: node, UnitError("the plugin could not apply `\(name)` = \(text) (it said: \(reason)); it keeps what it had"))
        }
        return text
    }

    /// Waits until the unit has taken what it was sent and its worker has
    /// done the work that asked for (a file loaded or refused), seen idle
    /// across two whole cycles, so a refusal is the reply to the `set`
    /// that caused it; gives up after `Self.messageWorkTimeout` (a long
    /// file still loading is then taken as applied).
    private func awaitWork(of unit: any ProcessingUnit) {
        let deadline = ContinuousClock.now + Self.messageWorkTimeout
        while ContinuousClock.now < deadline, !serverHasShutDown {
            if !unit.messageOutcome().busy {
                let cycle = engine.statistics.cycles
                while engine.statistics.cycles < cycle + 2, ContinuousClock.now < deadline, !serverHasShutDown {
                    usleep(1000)
                }
                if !unit.messageOutcome().busy { return }
            }
            usleep(1000)
        }
    }

    static let messageWorkTimeout = Duration.seconds(5)

    private static func send(_ unit: any ProcessingUnit, node: String, name: String,
                             value: ParameterValue) throws(LiveSessionError) -> String {
        do throws(UnitError) {
            return try unit.setMessageParameter(name, to: value, relativeTo: nil)
        } catch {
            throw .unit(node: node, error)
        }
    }

    /// Every plugin node's message parameters as last set or reported, by
    /// node and short name (nodes without any left out).
    package func messageParameterValues() -> [String: [String: String]] {
        var values: [String: [String: String]] = [:]
        for node in graph.nodes {
            guard case .unit(let unit, _) = node.kind else { continue }
            let properties = unit.messageParameterValues()
            if !properties.isEmpty { values[node.name] = properties }
        }
        return values
    }
}
