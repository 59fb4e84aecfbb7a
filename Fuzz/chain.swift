// libFuzzer target: the `--chain` syntax, text to a patch. Plugins are
// stand-ins with audio ports only, as the chain builder asks nothing else:
// `pIxO` (say `p1x2`) has I inputs and O outputs (up to 16), anything
// else two of each.
// fuzz-sources: Tests/HostCoreTests/PortsOnlyUnit.swift
import HostCore

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
