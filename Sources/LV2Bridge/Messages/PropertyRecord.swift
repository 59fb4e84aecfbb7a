/// A unit's message parameters as last set and as last reported, by
/// property URI. What was set is sent again to every instance made later
/// (another format, a bounce, more channels), in the order it was set.
struct PropertyRecord {
    /// Values the host set, in the order of their first setting.
    private(set) var sent: [(property: String, value: PropertyValue)] = []
    /// The latest value of each property: set by the host or reported by the plugin.
    private(set) var current: [String: PropertyValue] = [:]
    /// What the plugin itself last reported of each property (notify output).
    private(set) var reported: [String: PropertyValue] = [:]

    /// Before the last `recordSent` of each property: what `withdraw` puts back.
    private var before: [String: (sent: PropertyValue?, current: PropertyValue?)] = [:]

    mutating func recordSent(_ property: String, _ value: PropertyValue) {
        before[property] = (sent.first { $0.property == property }?.value, current[property])
        if let index = sent.firstIndex(where: { $0.property == property }) {
            sent[index].value = value
        } else {
            sent.append((property, value))
        }
        current[property] = value
    }

    /// Undoes the last `recordSent` of `property`: the plugin did not take it.
    mutating func withdraw(_ property: String) {
        guard let earlier = before.removeValue(forKey: property) else { return }
        if let value = earlier.sent, let index = sent.firstIndex(where: { $0.property == property }) {
            sent[index].value = value
        } else if earlier.sent == nil {
            sent.removeAll { $0.property == property }
        }
        current[property] = earlier.current
    }

    mutating func recordReported(_ property: String, _ value: PropertyValue) {
        current[property] = value
        reported[property] = value
    }

    /// A preset with plugin state replaces what was set: later instances
    /// take the preset's state, not the values set before it.
    mutating func forgetSent() {
        sent.removeAll()
    }
}
