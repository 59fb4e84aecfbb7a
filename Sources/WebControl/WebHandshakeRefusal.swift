import Hummingbird
import LiveControl
import NIOCore
import NIOHTTP1

/// A refused WebSocket handshake answered as a plain request would be: its
/// status (401, 403, 503) and the sentence, in the API's refusal JSON.
/// Hummingbird answers every handshake its upgrade closure declines with a
/// bare 400, so the answer is written here, below the HTTP encoder, and the
/// connection closed before the library's 400 can follow it.
enum WebHandshakeRefusal {
    /// Called on the channel's event loop, from the upgrade decision.
    static func send(status: Int, sentence: String, on channel: any Channel) {
        guard let encoder = try? channel.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            return  // No HTTP encoder: the library's 400 is the answer.
        }
        let body = ControlProtocol.refusal(sentence).text
        let head = [
            "HTTP/1.1 \(status) \(HTTPResponse.Status(code: status).reasonPhrase)",
            "Content-Type: application/json; charset=utf-8",
            "Content-Length: \(body.utf8.count)",
            "Cache-Control: no-store",
            "X-Content-Type-Options: nosniff",
            "Referrer-Policy: no-referrer",
            "Connection: close",
        ].joined(separator: "\r\n")
        encoder.writeAndFlush(NIOAny(ByteBuffer(string: head + "\r\n\r\n" + body)), promise: nil)
        channel.close(promise: nil)
    }
}
