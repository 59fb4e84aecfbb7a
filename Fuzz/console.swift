// libFuzzer target: the console's command parser, one typed line to a command.
import LiveControl

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? ConsoleCommand.parse(line)
    return 0
}
