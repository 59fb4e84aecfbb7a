import HostCore

/// A unit that has audio ports and nothing else: all the chain builder asks about.
final class PortsOnlyUnit: ProcessingUnit {
    let displayName: String
    let inputPorts: [AudioPortInfo]
    let outputPorts: [AudioPortInfo]

    init(name: String, inputs: Int, outputs: Int) {
        displayName = name
        inputPorts = (0..<inputs).map { AudioPortInfo(symbol: "in\($0 + 1)", name: "In \($0 + 1)") }
        outputPorts = (0..<outputs).map { AudioPortInfo(symbol: "out\($0 + 1)", name: "Out \($0 + 1)") }
    }

    var parameters: [ParameterInfo] { [] }
    func setParameter(_ symbol: String, to value: ParameterValue) throws(UnitError) {}
    func parameterValue(_ symbol: String) -> Float? { nil }
    func applyPreset(_ name: String) throws(UnitError) {}
    func prepareInstances(count: Int, format: RenderFormat) throws(UnitError) -> PreparedUnit {
        throw UnitError("\(displayName) has ports only")
    }
}
