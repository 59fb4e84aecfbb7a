import CLV2Shim
import Foundation
import HostCore

/// Message parameters: values a plugin takes as `patch:Set` messages on its
/// control atom input (`patch:writable`), and reports on its notify output.
/// The host forges each message here, on the control thread, and hands it to
/// every instance's `PatchMessagePort`, whose hook appends it at frame 0 of
/// the next block; a plugin that loads a file does so on its worker.
extension LV2Unit {
    package func isMessageParameter(_ name: String) -> Bool {
        parameterPorts[name] == nil && property(named: name) != nil
    }

    package func messageParameterShortName(_ name: String) -> String? {
        isMessageParameter(name) ? property(named: name)?.shortName : nil
    }

    /// By URI, short name (`ir`) or label, in that order.
    func property(named name: String) -> PropertyDescription? {
        plugin.properties.first { $0.uri == name }
            ?? plugin.properties.first { $0.shortName == name }
            ?? plugin.properties.first { $0.label.lowercased() == name.lowercased() }
    }

    package func setMessageParameter(_ name: String, to value: ParameterValue,
                                     relativeTo folder: String?) throws(UnitError) -> String {
        guard let property = property(named: name) else {
            throw UnitError("`\(displayName)` has no parameter `\(name)`",
                            suggestion: Suggestion.didYouMean(name, in: parameters.map(\.symbol) + plugin.properties.map(\.shortName)))
        }
        guard messagePortCount > 0 || instances.isEmpty else {
            throw UnitError("`\(displayName)` has no atom input to send `\(property.shortName)` to")
        }
        let checked = try PropertyRules.check(value, for: property, relativeTo: folder)
        for instance in instances {
            guard deliver(property.uri, checked, to: instance) else {
                throw UnitError("`\(displayName)` did not take `\(property.shortName)` (too long for its input, too many messages waiting, or its state refused it)")
            }
        }
        propertyRecord.recordSent(property.uri, checked)
        return checked.text
    }

    package func checkedMessageParameter(_ name: String, _ value: ParameterValue,
                                         relativeTo folder: String?) throws(UnitError) -> String {
        guard let property = property(named: name) else {
            throw UnitError("`\(displayName)` has no parameter `\(name)`",
                            suggestion: Suggestion.didYouMean(name, in: parameters.map(\.symbol) + plugin.properties.map(\.shortName)))
        }
        return try PropertyRules.check(value, for: property, relativeTo: folder).text
    }

    package func messageParametersSet() -> [MessageParameterSetting] {
        propertyRecord.sent.compactMap { sent in
            guard let property = plugin.properties.first(where: { $0.uri == sent.property }) else { return nil }
            let isPath: Bool
            if case .path = sent.value { isPath = true } else { isPath = false }
            return MessageParameterSetting(name: property.shortName, value: sent.value.parameterValue, isPath: isPath)
        }
    }

    package var writableMessageParameters: [WritableMessageParameter] {
        plugin.properties.filter { $0.isWritable && parameterPorts[$0.shortName] == nil }.map { property in
            WritableMessageParameter(name: property.shortName, kind: property.valueType.messageParameterKind)
        }
    }

    package func messageParameterValues() -> [String: String] {
        takeNotifications()
        var values: [String: String] = [:]
        for property in plugin.properties {
            if let value = propertyRecord.current[property.uri] { values[property.shortName] = value.text }
        }
        return values
    }

    package func messageOutcome() -> MessageOutcome {
        var outcome = MessageOutcome()
        for instance in instances {
            if instance.messages?.hasPendingMessages == true { outcome.busy = true }
            if let progress = instance.worker?.progress {
                if !progress.idle { outcome.busy = true }
                outcome.failures += progress.failures
            }
        }
        var text = [CChar](repeating: 0, count: 512)
        outcome.problemsLogged = Int(fxhost_log_last_problem(log, &text, text.count))
        let problem = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        outcome.lastProblem = problem.isEmpty ? nil : problem
        return outcome
    }

    package func withdrawMessageParameter(_ name: String) {
        guard let property = property(named: name) else { return }
        propertyRecord.withdraw(property.uri)
    }

    /// The sentence for values the plugin could not apply: the worker's
    /// `work()` failed since `earlier`, with the plugin's own words if it
    /// logged any.
    func couldNotApply(_ what: String, since earlier: MessageOutcome) -> UnitError {
        guard var reason = messageOutcome().reason(since: earlier) else {
            return UnitError("the plugin could not apply \(what) (its worker reported a failure)")
        }
        while reason.hasSuffix(".") { reason.removeLast() }
        return UnitError("the plugin could not apply \(what) (it said: \(reason))")
    }

    /// What the host set, as `name = value` text, for a sentence.
    var messageParametersSetText: String {
        propertyRecord.sent.map { sent in
            "`\(plugin.properties.first { $0.uri == sent.property }?.shortName ?? sent.property)` = \(sent.value.text)"
        }.joined(separator: ", ")
    }

    /// The latest value of each property by URI, typed (for tests and `save`).
    package func messageParameterValuesByURI() -> [String: PropertyValue] {
        takeNotifications()
        return propertyRecord.current
    }

    /// What the plugin itself last reported of each property, by URI.
    package func reportedMessageParameterValues() -> [String: PropertyValue] {
        takeNotifications()
        return propertyRecord.reported
    }

    /// Asks every instance to report all its properties (`patch:Get`); the
    /// answers arrive with the next blocks' notify output.
    package func requestMessageParameterValues() {
        let message = forge.get()
        for instance in instances { _ = instance.messages?.send(message) }
    }

    /// A new instance gets every value set so far, as messages for its first block.
    func sendRecordedProperties(to instance: LV2Instance) {
        for (property, value) in propertyRecord.sent { _ = deliver(property, value, to: instance) }
    }

    package func messageParameterNeedsSilence(_ name: String) -> Bool {
        guard let property = property(named: name) else { return false }
        return takesThroughState(property.uri)
    }

    /// x42's convolvers as Debian 12 ships them (x42-plugins 20221119) drop
    /// an `atom:Path` in `patch:Set` before loading it (fixed upstream in
    /// June 2023, zconvo.lv2 4137093), but load the same file from their
    /// state: their file goes through `restore()`, which must not overlap
    /// `run()`, so a live session sets it while the plugin is silent.
    private func takesThroughState(_ property: String) -> Bool {
        plugin.uri.hasPrefix("http://gareus.org/oss/lv2/zeroconvolv#")
            && plugin.properties.first { $0.uri == property }?.valueType == .path
    }

    private func deliver(_ property: String, _ value: PropertyValue, to instance: LV2Instance) -> Bool {
        if takesThroughState(property) {
            return StatePropertyRestore(property: world.urids.map(property), value: value, urids: world.urids)?
                .restore(into: instance) ?? false
        }
        return instance.messages?.send(forge.set(property: property, to: value)) ?? false
    }

    /// What the plugin reported since the last look (the first instance
    /// speaks for all: they get the same messages).
    private func takeNotifications() {
        let decoder = PatchMessageDecoder(urids: world.urids)
        for (index, instance) in instances.enumerated() {
            guard let port = instance.messages else { continue }
            let messages = port.takeNotifications()
            guard index == 0 else { continue }
            for message in messages {
                for (property, value) in decoder.values(in: message) { propertyRecord.recordReported(property, value) }
            }
        }
    }

    private var messagePortCount: Int { instances.filter { $0.messages != nil }.count }

    private var forge: PatchMessageForge {
        PatchMessageForge(urids: world.urids, map: world.uridFeatures.map)
    }
}
