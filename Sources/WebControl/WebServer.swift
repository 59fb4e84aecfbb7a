import Foundation
import HostCore
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import LiveControl
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The HTTP and WebSocket server behind `--web`: Hummingbird on one NIO
/// event-loop thread, with Swift's own task threads for the handlers.
/// Every request passes `WebAccess` first; the page's files come from
/// `WebPage`; commands go to the host through `WebFrontEnd.perform`.
final class WebServer: Sendable {
    /// Where the handlers find the front end (set once it exists; nil again after `stop`).
    final class Link: Sendable {
        let frontEnd = Mutex<WebFrontEnd?>(nil)
        var current: WebFrontEnd? { frontEnd.withLock { $0 } }
    }

    /// The port bound (the system's choice for port 0).
    let port: Int
    private let link: Link
    private let group: MultiThreadedEventLoopGroup
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let services: ServiceGroup
    private let ended = DispatchSemaphore(value: 0)

    /// Starts serving on `endpoint`, returning once the port is bound (or throwing why not).
    static func bind(_ endpoint: WebEndpoint) throws(FrontEndError) -> WebServer {
        try WebServer(endpoint)
    }

    private init(_ endpoint: WebEndpoint) throws(FrontEndError) {
        let link = Link()
        self.link = link
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let router = Router(context: WebRequestContext.self)
        router.add(middleware: WebAccessMiddleware(link: link))
        WebRoutes(link: link).add(to: router)
        let quiet = Logger(label: "fxhost.web") { _ in SwiftLogNoOpLogHandler() }
        let headers = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: WebLimits.maximumHeaderBytes, maxHeaderListSize: WebLimits.maximumHeaderBytes, maxHeaderFieldCount: 100)
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: .seconds(Int64(WebLimits.idleSeconds)), httpDecoderConfiguration: headers),
            ws: .init(maxFrameSize: WebLimits.maximumFrameBytes))
        let bound = Mutex<Result<Int, FrontEndError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(configuration: configuration) { head, channel, _ in
                WebRoutes(link: link).upgrade(head, channel: channel)
            },
            configuration: .init(address: .hostname(endpoint.host, port: endpoint.port), serverName: nil,
                                 availableConnectionsDelegate: MaximumAvailableConnections(WebLimits.maximumConnections, logger: quiet)),
            onServerRunning: { channel in
                bound.withLock { $0 = .success(channel.localAddress?.port ?? endpoint.port) }
                ready.signal()
            },
            eventLoopGroupProvider: .shared(group),
            logger: quiet)
        let ended = ended
        // A group of our own, with no signals (fxhost takes those), so `stop`
        // can shut the server down gracefully: answers under way are written.
        let services = ServiceGroup(configuration: .init(services: [app], logger: quiet))
        self.services = services
        task.withLock {
            $0 = Task.detached {
                do {
                    try await services.run()
                } catch {
                    let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
                    bound.withLock { $0 = $0 ?? .failure(FrontEndError("--web: cannot listen on \(endpoint) (\(reason))")) }
                    ready.signal()
                }
                ended.signal()
            }
        }
        ready.wait()
        switch bound.withLock({ $0 }) {
        case .success(let port)?:
            self.port = port
        case .failure(let error)?:
            try? group.syncShutdownGracefully()
            throw error
        case nil:
            try? group.syncShutdownGracefully()
            throw FrontEndError("--web: the server on \(endpoint) stopped before it listened")
        }
    }

    func serve(_ frontEnd: WebFrontEnd) {
        link.frontEnd.withLock { $0 = frontEnd }
    }

    /// Ends the server and its thread: gracefully (the answers under way,
    /// such as `quit`'s, are written; the event streams were ended by the
    /// front end), then, after 5 s, by cancelling whatever is left.
    func stop() {
        guard let task = task.withLock({ $0.take() }) else { return }
        let services = services
        Task.detached { await services.triggerGracefulShutdown() }
        if ended.wait(timeout: .now() + 5) == .timedOut {
            task.cancel()
            _ = ended.wait(timeout: .now() + 1)
        }
        link.frontEnd.withLock { $0 = nil }
        try? group.syncShutdownGracefully()
    }
}

/// A request's context: the peer it came from, named as events show it.
struct WebRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let peer: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = WebRequestContext.describe(source.channel.remoteAddress)
    }

    /// Bodies are read with `WebLimits.maximumBodyBytes` by the route itself.
    var maxUploadSize: Int { WebLimits.maximumBodyBytes }

    static func describe(_ address: SocketAddress?) -> String {
        guard let address, let ip = address.ipAddress else { return "unknown" }
        return "\(ip):\(address.port ?? 0)"
    }
}
