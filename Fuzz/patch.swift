// libFuzzer target: the patch reader, YAML text to a validated `Patch`.
import HostCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? PatchParser.parse(text: text, path: "fuzz.yaml")
    return 0
}
