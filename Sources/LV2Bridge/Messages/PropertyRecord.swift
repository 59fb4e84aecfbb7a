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

    mutating func recordSent(_ property: String, _ value: PropertyValue) {
        if let index = sent.firstIndex(where: { $0.property == property }) {
            sent[index].value = value
        } else {
            sent.append((property, value))
        }
        current[property] = value
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
