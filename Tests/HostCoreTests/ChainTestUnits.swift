@testable import HostCore

/// Units for chain tests by name: `scale` (1 in, 1 out, ×2) and `scale2`
/// (2 in, 2 out, ×2) really run; `pIxO` (say `p1x2`, `p4x2`) has I inputs and O
/// outputs; `missing` is not installed; anything else has 2 inputs and 2 outputs.
struct ChainTestUnits: UnitProvider {
    func makeUnit(_ reference: String) throws(UnitError) -> any ProcessingUnit {
        switch reference {
        case "scale": return ScalingUnit(name: "Scale", ports: 1, gain: 2)
        case "scale2": return ScalingUnit(name: "Scale stereo", ports: 2, gain: 2)
        case "missing": throw UnitError("no installed LV2 plugin is called `missing`", suggestion: "did you mean `mixing`?")
        default:
            let counts = reference.dropFirst().split(separator: "x").compactMap { Int($0) }
            guard reference.hasPrefix("p"), counts.count == 2 else { return PortsOnlyUnit(name: reference, inputs: 2, outputs: 2) }
            return PortsOnlyUnit(name: reference, inputs: counts[0], outputs: counts[1])
        }
    }
}
