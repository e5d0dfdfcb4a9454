import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request NIO's HTTP/1 parser cannot read (a garbled request line, a header
/// without a colon) in the station's JSON error shape, `{"err":"bad_request","r":1}` with
/// 400, and closes the connection: Hummingbird's own answer is an empty 400, which a
/// Douban client that reads every body as JSON reports as a broken station rather than a
/// bad request. A target over the limit, which ``RequestTargetGuard`` finds before the
/// parser does, is `{"err":"uri_too_long","r":1}` with 414 instead, as
/// ``RequestLimitMiddleware`` answers a shorter one; the connection is then half-closed and
/// read for ``OversizedBodyHandler/lingerPeriod`` before it is closed, as after a 413: the
/// rest of a long target is still arriving.
///
/// HTTP/1.1 answers go out in the order the requests came (RFC 9112 §9.3.2): a refusal of
/// a request behind others read whole and not answered yet (pipelined) waits for their
/// answers. A parser error in the middle of a request whose head was handed on (its body)
/// is that request's, answered at once.
///
/// It sits in the channel pipeline after Hummingbird's HTTP/1 codec, where NIO's
/// `ByteToMessageHandler` reports the parser's `HTTPParserError` through `errorCaught`;
/// the error goes no further, so no second answer is written. Other errors pass on. Added
/// to a pipeline, it puts a ``RequestTargetGuard`` of its own just before the parser.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    /// Requests pass through untouched (counted).
    typealias InboundIn = HTTPRequestPart
    /// Requests pass through untouched.
    typealias InboundOut = HTTPRequestPart
    /// Answers pass through (counted).
    typealias OutboundIn = HTTPResponsePart
    /// Answers, the refusal among them.
    typealias OutboundOut = HTTPResponsePart

    /// The body of the answer: the station's JSON error for a 400, as its routes write it.
    static let body = refusal(.badRequest)
    /// The body of the answer to a target over the limit.
    static let tooLongBody = refusal(.uriTooLong)

    private let targetGuard = RequestTargetGuard()
    private var closing: Scheduled<Void>?
    /// Request heads read, and answers written to their end.
    private var received = 0
    private var answered = 0
    /// Whether a request's head has been read and its end not yet.
    private var inRequest = false
    /// A refusal waiting for the answers before it: whether it is a 414.
    private var waiting: Bool?

    /// Creates the handler (one per connection).
    init() {}

    /// Puts the target guard before the HTTP/1 parser (behind TLS, when the connection
    /// has it); a pipeline without NIO's parser gets none.
    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        guard let parser = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) else { return }
        try? pipeline.addHandler(targetGuard, position: .before(parser))
    }

    /// Counts the requests, passing them on.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            received += 1
            inRequest = true
        case .body: break
        case .end: inRequest = false
        }
        context.fireChannelRead(data)
    }

    /// Counts the answers as they end; the last one before a waiting refusal lets it go.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        answered += 1
        context.write(data, promise: promise)
        if let tooLong = waiting, answered >= received {
            waiting = nil
            refuse(tooLong: tooLong, context: context)
        }
    }

    /// Answers a parser error, after the answers before it; passes anything else on.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let tooLong = targetGuard.tripped
        if inRequest || answered >= received {
            refuse(tooLong: tooLong, context: context)
        } else {
            waiting = tooLong
        }
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

    private func refuse(tooLong: Bool, context: ChannelHandlerContext) {
        let body = ByteBuffer(bytes: tooLong ? Self.tooLongBody : Self.body)
        let head = HTTPResponse(status: tooLong ? .uriTooLong : .badRequest, headerFields: [
            .contentType: JSONResponse.contentType, .contentLength: String(body.readableBytes), .connection: "close",
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            let (handler, context) = bound.value
            if tooLong { handler.linger(context: context) } else { context.close(promise: nil) }
        }
    }

    /// Half-closes the connection after a 414 and closes it ``OversizedBodyHandler/lingerPeriod``
    /// later: the rest of the long target is still arriving (the guard drops it), and a
    /// socket closed with unread bytes sends a reset, in which a client still sending may
    /// lose the answer before reading it (RFC 9112 §9.6).
    private func linger(context: ChannelHandlerContext) {
        guard closing == nil, context.channel.isActive else { return }
        context.close(mode: .output, promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        closing = context.eventLoop.scheduleTask(in: OversizedBodyHandler.lingerPeriod) {
            bound.value.close(promise: nil)
        }
    }

    private static func refusal(_ status: HTTPResponse.Status) -> [UInt8] {
        Array(JSONResponse.error(JSONErrorMiddleware<StationContext>.word(for: status), status: status.code).body)
    }
}
