import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Ends a connection whose request was refused as too large (413), rather than reading the
/// rest of its body: a client announcing 10 MB, or streaming a chunked body that never
/// ends, is not read to its end.
///
/// Hummingbird 2 reads a request's unread body to its end after the answer, to find the
/// next request on the connection (`HTTPChannelHandler.handleHTTP`: "read until we don't
/// have a body part"), however long it is. RFC 9110 §15.5.14 lets a server close the
/// connection instead. This handler marks the 413 answer `Connection: close`, and once it
/// is written half-closes the connection (the client reads the answer, then the end of
/// the stream), reads and drops what is still arriving for ``lingerPeriod``, then closes.
/// The lingering matters: closing a socket with unread bytes sends a reset, and a client
/// still sending its body may lose the answer in it before reading it (RFC 9112 §9.6).
///
/// It sits in the channel pipeline after Hummingbird's HTTP/1 codec, so it sees response
/// parts as `HTTPResponsePart` on their way out.
final class OversizedBodyHandler: ChannelDuplexHandler, RemovableChannelHandler {
    /// Requests pass through.
    typealias InboundIn = HTTPRequestPart
    /// Requests pass through.
    typealias InboundOut = HTTPRequestPart
    /// Answers pass through, a 413 marked to close.
    typealias OutboundIn = HTTPResponsePart
    /// Answers pass through, a 413 marked to close.
    typealias OutboundOut = HTTPResponsePart

    /// How long the connection is read (and what arrives dropped) after a 413 before it is
    /// closed: enough for a client on a slow line to see the answer and stop sending.
    static let lingerPeriod: TimeAmount = .seconds(2)

    private let linger: TimeAmount
    /// Whether the answer being written refuses the request as too large.
    private var refusing = false
    /// Whether the answer has been written and the connection is lingering.
    private var lingering = false
    private var closing: Scheduled<Void>?

    /// Creates the handler (one per connection); tests shorten `linger`.
    init(linger: TimeAmount = OversizedBodyHandler.lingerPeriod) {
        self.linger = linger
    }

    /// Marks a 413 `Connection: close`; once its end is written, half-closes and lingers.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status == .contentTooLarge:
            refusing = true
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where refusing:
            refusing = false
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            written.futureResult.whenComplete { _ in
                let (handler, context) = bound.value
                handler.startLingering(context: context)
            }
        default:
            context.write(data, promise: promise)
        }
    }

    /// While lingering, what arrives is dropped: the refused body goes nowhere.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !lingering else { return }
        context.fireChannelRead(data)
    }

    /// No timer outlives the connection.
    func channelInactive(context: ChannelHandlerContext) {
        closing?.cancel()
        closing = nil
        context.fireChannelInactive()
    }

    /// No timer outlives the handler.
    func handlerRemoved(context: ChannelHandlerContext) {
        closing?.cancel()
        closing = nil
    }

    private func startLingering(context: ChannelHandlerContext) {
        guard !lingering, context.channel.isActive else { return }
        lingering = true
        context.close(mode: .output, promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        closing = context.eventLoop.scheduleTask(in: linger) {
            bound.value.close(promise: nil)
        }
    }
}
