// libFuzzer target: the command protocol's JSON decoder, text to a command.
import LiveControl

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let command = try? ControlProtocol.command(fromJSON: text) {
        _ = ControlProtocol.json(for: command)
    }
    return 0
}
