// libFuzzer target: the setlist reader, YAML text to a `Setlist` (the patches it names are not read).
import HostCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = SetlistParser.isSetlist(text: text)
    _ = try? SetlistParser.parse(text: text, path: "fuzz.yaml")
    return 0
}
