import Yams

/// `tempo:` (beats per minute) and `meter:` (`4/4`, `6/8`) at the top of a
/// patch: what plugins that take the host's time are told.
extension PatchDocumentReader {
    func readTempo(_ tempo: YAMLEntry?, meter: YAMLEntry?) throws(GraphError) -> Tempo {
        var result = Tempo()
        if let tempo {
            let range = Tempo.beatsPerMinuteRange
            let rule = "`tempo` must be beats per minute, a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)) such as `120`"
            guard let text = yaml.plainText(tempo.value), let value = PatchValueSyntax.number(text) else {
                throw GraphError("\(rule), got \(yaml.describe(tempo.value))", at: yaml.location(tempo.value))
            }
            guard range.contains(value) else {
                throw GraphError("\(rule), got \(text)", at: yaml.location(tempo.value))
            }
            result.beatsPerMinute = value
        }
        if let meter {
            let rule = "`meter` must be beats per bar and a note value such as `4/4`, `3/4` or `6/8`"
            guard let text = yaml.text(meter.value) else {
                throw GraphError("\(rule), got \(yaml.describe(meter.value))", at: yaml.location(meter.value))
            }
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
                .map { String($0).trimmingSpaces }
            guard parts.count == 2, let beats = Int(parts[0]), let unit = Int(parts[1]) else {
                throw GraphError("\(rule), got \(yaml.describe(meter.value))", at: yaml.location(meter.value))
            }
            guard Tempo.beatsPerBarRange.contains(beats) else {
                throw GraphError("`meter` must have 1 to \(Tempo.beatsPerBarRange.upperBound) beats per bar, got \(beats)",
                                 at: yaml.location(meter.value))
            }
            guard Tempo.beatUnits.contains(unit) else {
                throw GraphError("`meter`'s note value must be 1, 2, 4, 8, 16, 32 or 64, got \(unit)",
                                 at: yaml.location(meter.value, offset: text.distance(from: text.startIndex,
                                                                                       to: text.firstIndex(of: "/")!) + 1))
            }
            result.beatsPerBar = beats
            result.beatUnit = unit
        }
        return result
    }
}
