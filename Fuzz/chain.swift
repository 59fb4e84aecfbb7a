// libFuzzer target: the `--chain` syntax, text to a patch. Plugins are
// stand-ins with audio ports only, as the chain builder asks nothing else:
// `pIxO` (say `p1x2`) has I inputs and O outputs (up to 16), anything
// else two of each.
import HostCore

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

struct PortsOnlyUnits: UnitProvider {
    func makeUnit(_ reference: String) throws(UnitError) -> any ProcessingUnit {
        if reference == "missing" { throw UnitError("no installed LV2 plugin is called `missing`") }
        let counts = reference.dropFirst().split(separator: "x").compactMap { Int($0) }
        guard reference.hasPrefix("p"), counts.count == 2, counts.allSatisfy({ (0...16).contains($0) }) else {
            return PortsOnlyUnit(name: reference, inputs: 2, outputs: 2)
        }
        return PortsOnlyUnit(name: reference, inputs: counts[0], outputs: counts[1])
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = ChainSpec.pluginReferences(in: text)
    _ = try? ChainSpec.patch(from: text, inputChannels: 2, outputChannels: nil, units: PortsOnlyUnits())
    _ = try? ChainSpec.patch(from: text, inputChannels: 1, outputChannels: 2, units: PortsOnlyUnits())
    return 0
}
