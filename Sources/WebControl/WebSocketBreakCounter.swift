import NIOCore
import NIOWebSocket
import Synchronization

/// Counts an events connection closed for a broken frame, once. NIO's frame
/// decoder refuses a frame over the limit or one no peer may send, and its
/// error handler closes the connection, but the error never reaches the
/// handler's message loop (Hummingbird ends it as if the client had closed):
/// so an observer sits right behind that error handler, put there as soon as
/// the upgrade has built the WebSocket pipeline (before any frame is read:
/// the upgrade and its first read happen on the connection's event loop).
final class WebSocketBreakCounter: Sendable {
    private let counted = Atomic(false)
    private let refuse: @Sendable () -> Void

    init(_ refuse: @escaping @Sendable () -> Void) {
        self.refuse = refuse
    }

    /// A broken connection's error: counted unless the connection merely dropped (a phone leaving the network).
    func count(_ error: any Error) {
        if error is IOError || error is ChannelError || error is CancellationError { return }
        if !counted.exchange(true, ordering: .relaxed) { refuse() }
    }

    /// From the handshake (on the event loop): once the upgrade has added the
    /// WebSocket handlers, the observer goes behind them.
    func watch(_ channel: any Channel, tries: Int = 10_000) {
        channel.eventLoop.execute { [self] in
            let pipeline = channel.pipeline.syncOperations
            if let handler = try? pipeline.handler(type: WebSocketProtocolErrorHandler.self) {
                try? pipeline.addHandler(Observer(counter: self), position: .after(handler))
            } else if channel.isActive && tries > 0 {
                watch(channel, tries: tries - 1)  // the 101 is still being written
            }
        }
    }

    private final class Observer: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        typealias InboundOut = WebSocketFrame
        let counter: WebSocketBreakCounter

        init(counter: WebSocketBreakCounter) {
            self.counter = counter
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            counter.count(error)
            context.fireErrorCaught(error)
        }
    }
}
