import Foundation
import HostCore
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import JackIO
import LiveControl
import NIOCore

/// The page and the API (docs/control.md): `GET /` and its files,
/// `GET /api/v1/status`, `GET /api/v1/state`, `GET /api/v1/nodes/NODE`, `GET /api/v1/files`,
/// `POST /api/v1/commands` and the `GET /api/v1/events` WebSocket.
struct WebRoutes: Sendable {
    let link: WebServer.Link

    func add(to router: Router<WebRequestContext>) {
        for file in WebPage.files {
            router.get(RouterPath(file.path)) { _, _ in
                Self.response(.ok, file.text, type: file.type)
            }
        }
        router.get("/api/v1/status") { _, context in
            await ask(.status, peer: context.peer)
        }
        router.get("/api/v1/state") { _, context in
            await ask(.state(node: nil), peer: context.peer)
        }
        router.get("/api/v1/nodes/:node") { _, context in
            await ask(.state(node: context.parameters.get("node") ?? ""), peer: context.peer)
        }
        router.get("/api/v1/files") { _, _ in
            guard let listing = link.current?.files else { return Self.refusal(.serviceUnavailable, Self.notRunning) }
            return Self.response(.ok, JSONValue.object(["folder": .string(listing.folder),
                                                        "files": .array(listing.files.map(JSONValue.string))]).text)
        }
        router.post("/api/v1/commands") { request, context in
            await command(request, peer: context.peer)
        }
        router.get("/api/v1/events") { _, _ in
            // Reached when the request is not a WebSocket upgrade this server takes.
            guard let frontEnd = link.current else { return Self.refusal(.serviceUnavailable, Self.notRunning) }
            if frontEnd.openStreams >= WebLimits.maximumStreams {
                return Self.refusal(.serviceUnavailable, "\(WebLimits.maximumStreams) event streams are open, as many as fxhost keeps")
            }
            return Self.refusal(.badRequest, "/api/v1/events is a WebSocket: open it with an Upgrade: websocket request")
        }
    }

    /// A question whose answer is the status or the state, as `status --json` prints it.
    private func ask(_ command: ControlCommand, peer: String) async -> Response {
        guard let frontEnd = link.current else { return Self.refusal(.serviceUnavailable, Self.notRunning) }
        switch await frontEnd.perform(command, from: .web(peer: peer)) {
        case .answered(.success(.status(let status))):
            return Self.response(.ok, (try? Terminal.json(status)) ?? "{}")
        case .answered(.success(.state(let state))):
            return Self.response(.ok, (try? Terminal.json(state)) ?? "{}")
        case .answered(let result):
            if case .failure(let error) = result, case .session(.unknownNode) = error.reason {
                return Self.response(.notFound, ControlProtocol.reply(result).text)
            }
            return Self.response(Self.status(of: result), ControlProtocol.reply(result).text)
        case .busy:
            return Self.refusal(.serviceUnavailable, Self.busy)
        case .notRunning:
            return Self.refusal(.serviceUnavailable, Self.notRunning)
        }
    }

    /// One command in its JSON form (or a console `line`): the protocol's reply,
    /// 422 with the console's sentence when the session refuses it.
    private func command(_ request: Request, peer: String) async -> Response {
        guard let frontEnd = link.current else { return Self.refusal(.serviceUnavailable, Self.notRunning) }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > WebLimits.maximumBodyBytes {
            frontEnd.countRefusal()
            return Self.refusal(.contentTooLarge, Self.tooLarge)
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: WebLimits.maximumBodyBytes)
        } catch {
            frontEnd.countRefusal()
            return Self.refusal(.contentTooLarge, Self.tooLarge)
        }
        let command: ControlCommand
        do {
            command = try ControlProtocol.command(fromJSON: String(buffer: body))
        } catch {
            frontEnd.countRefusal()
            return Self.refusal(.badRequest, error.description)
        }
        switch await frontEnd.perform(command, from: .web(peer: peer)) {
        case .answered(let result):
            return Self.response(Self.status(of: result), ControlProtocol.reply(result).text)
        case .busy:
            return Self.refusal(.serviceUnavailable, Self.busy)
        case .notRunning:
            return Self.refusal(.serviceUnavailable, Self.notRunning)
        }
    }

    /// Whether a request becomes the events WebSocket: only `/api/v1/events`,
    /// only with access granted and a stream free.
    func upgrade(_ head: HTTPRequest, channel: any Channel) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let uri = URI(head.path ?? "/")
        guard uri.path == "/api/v1/events", let frontEnd = link.current else { return .dontUpgrade }
        if case .refused(let status, let sentence) = WebAccessMiddleware.verdict(frontEnd.access, head: head, uri: uri) {
            frontEnd.countRefusal()
            WebHandshakeRefusal.send(status: status, sentence: sentence, on: channel)
            return .dontUpgrade
        }
        guard frontEnd.openStreams < WebLimits.maximumStreams else {
            WebHandshakeRefusal.send(status: 503, sentence: Self.tooManyStreams, on: channel)
            return .dontUpgrade
        }
        let broken = WebSocketBreakCounter { frontEnd.countRefusal() }
        broken.watch(channel)
        return .upgrade([:]) { inbound, outbound, _ in
            guard let (number, messages) = frontEnd.openStream() else {
                try await outbound.close(.policyViolation, reason: Self.tooManyStreams)
                return
            }
            defer { frontEnd.closeStream(number) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await text in messages { try await outbound.write(.text(text)) }
                    // Ended: the run stopped, or the client fell too far behind (it reconnects).
                    try? await outbound.close(.goingAway, reason: "fxhost ended this stream")
                }
                group.addTask {
                    do {
                        for try await message in inbound.messages(maxSize: WebLimits.maximumFrameBytes) {
                            Self.received(message, on: number, by: frontEnd)
                        }
                    } catch {
                        // A message Hummingbird refuses (over the limit in pieces, a
                        // continuation with nothing to continue): it closes the
                        // connection, counted once (with the frames NIO refuses).
                        // Not this side ending the stream and cancelling the reading.
                        if !Task.isCancelled { broken.count(error) }
                        throw error
                    }
                }
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }

    /// What a client may say on the events stream: `{"meters": HZ}` (0 stops them).
    private static func received(_ message: WebSocketMessage, on number: Int, by frontEnd: WebFrontEnd) {
        if case .text(let text) = message, case .object(let fields)? = JSONValue.parse(text), fields.count == 1 {
            switch fields["meters"] {
            case .number(let hertz)? where hertz.isFinite && hertz >= 0:
                frontEnd.setMeters(hertz, on: number)
                return
            case .null?:
                frontEnd.setMeters(nil, on: number)
                return
            default:
                break
            }
        }
        frontEnd.countRefusal()
        let error = "the events stream takes {\"meters\": HZ} (0 to \(Int(WebLimits.maximumMeterHertz)); 0 stops them); commands go to POST /api/v1/commands"
        frontEnd.send(JSONValue.object(["v": .number(1), "event": .string("error"), "error": .string(error)]).text, on: number)
    }

    static let busy = "fxhost has \(ControlInbox.capacity) commands waiting to be carried out; this one is refused, send it again"
    static let notRunning = "the run is not playing (it has not started or has ended)"
    static let tooManyStreams = "\(WebLimits.maximumStreams) event streams are open, the most this server keeps; close one first"
    static let tooLarge = "a request's body is at most \(WebLimits.maximumBodyBytes) bytes"

    /// 200 for an answer, 422 for the session's refusal.
    private static func status(of result: Result<ControlResult, ControlError>) -> HTTPResponse.Status {
        if case .failure = result { return .unprocessableContent }
        return .ok
    }

    static func refusal(_ status: HTTPResponse.Status, _ sentence: String) -> Response {
        response(status, ControlProtocol.refusal(sentence).text)
    }

    static func response(_ status: HTTPResponse.Status, _ text: String, type: String = "application/json; charset=utf-8") -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// `WebAccess` before every route, and headers that keep the page from
/// being framed, sniffed or leaking its token in a referrer.
struct WebAccessMiddleware: RouterMiddleware {
    typealias Context = WebRequestContext
    let link: WebServer.Link

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let frontEnd = link.current else { return WebRoutes.refusal(.serviceUnavailable, WebRoutes.notRunning) }
        var response: Response
        switch Self.verdict(frontEnd.access, head: request.head, uri: request.uri) {
        case .allowed:
            response = try await next(request, context)
        case .refused(let status, let sentence):
            frontEnd.countRefusal()
            response = WebRoutes.refusal(HTTPResponse.Status(code: status), sentence)
        }
        response.headers[.init("X-Content-Type-Options")!] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        response.headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'"
        return response
    }

    static func verdict(_ access: WebAccess, head: HTTPRequest, uri: URI) -> WebAccess.Verdict {
        access.check(host: head.authority, origin: head.headerFields[.origin],
                     authorization: head.headerFields[.authorization],
                     tokenHeader: head.headerFields[.init("X-Fxhost-Token")!],
                     queryToken: uri.queryParameters["token"].map(String.init))
    }
}
