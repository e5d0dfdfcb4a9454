import NIOCore
import NIOHTTPTypes

/// Gives a connection a moment to show its request before a graceful shutdown closes it as
/// idle. When the server stops accepting (a stop, or the restart that keeps the listening
/// socket), each connection is told to quiesce and Hummingbird closes those with no request
/// under way at once. A client that connected, or sent its next request on a kept-alive
/// connection, just before that moment has its request in the socket unread: closing the
/// connection then resets it, and the client sees its request refused.
///
/// This handler holds the quiesce event back for ``grace``: a request head read meanwhile
/// goes on first and the event right after it, so the connection closes once that request
/// is answered; a connection that sends nothing is told at the end of the grace.
final class QuiesceGraceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    /// Requests pass through.
    typealias InboundIn = HTTPRequestPart
    /// Requests pass through.
    typealias InboundOut = HTTPRequestPart
    /// Answers pass through.
    typealias OutboundIn = HTTPResponsePart
    /// Answers pass through.
    typealias OutboundOut = HTTPResponsePart

    /// How long a request already sent has to be read: far more than the event loop needs
    /// to read what waits in the socket, even on a busy machine.
    static let grace: TimeAmount = .milliseconds(250)

    private var held = false
    private var scheduled: Scheduled<Void>?

    /// A handler for one connection.
    init() {}

    /// No timer outlives the handler.
    func handlerRemoved(context: ChannelHandlerContext) {
        scheduled?.cancel()
        scheduled = nil
    }

    /// A quiesce event is held for the grace; any other event passes.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard !held else { return }
        held = true
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        scheduled = context.eventLoop.scheduleTask(in: Self.grace) {
            let (handler, context) = bound.value
            handler.release(context: context)
        }
    }

    /// A request part passes; a head read while the event is held lets it go after it.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let isHead: Bool
        if case .head = unwrapInboundIn(data) { isHead = true } else { isHead = false }
        context.fireChannelRead(data)
        if isHead, held { release(context: context) }
    }

    /// Answers pass through.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
    }

    private func release(context: ChannelHandlerContext) {
        guard let pending = scheduled else { return }
        pending.cancel()
        scheduled = nil
        context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    }
}
