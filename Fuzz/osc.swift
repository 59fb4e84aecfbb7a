// libFuzzer target: the OSC decoder, a datagram to messages, then each
// message to the request it makes (a command of the protocol, or the OSC
// front end's own).
import LiveControl

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let packet = Array(UnsafeBufferPointer(start: data, count: size))
    guard let messages = try? OSCMessage.messages(in: packet) else { return 0 }
    for message in messages {
        _ = try? OSCRequest(message)
    }
    return 0
}
