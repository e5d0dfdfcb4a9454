import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request NIO's HTTP/1 parser cannot read (a garbled request line, a header
/// without a colon) in the station's JSON error shape, `{"err":"bad_request","r":1}` with
/// 400, and closes the connection: Hummingbird's own answer is an empty 400, which a
/// Douban client that reads every body as JSON reports as a broken station rather than a
/// bad request.
///
/// It sits in the channel pipeline after Hummingbird's HTTP/1 codec, where NIO's
/// `ByteToMessageHandler` reports the parser's `HTTPParserError` through `errorCaught`;
/// the error goes no further, so no second answer is written. Other errors pass on.
final class MalformedRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    /// Requests pass through untouched.
    typealias InboundIn = HTTPRequestPart
    /// The JSON answer goes out as HTTP response parts.
    typealias OutboundOut = HTTPResponsePart

    /// The body of the answer: the station's JSON error for a 400, as its routes write it.
    static let body = JSONResponse.error(JSONErrorMiddleware<StationContext>.word(for: .badRequest), status: 400).body

    /// Creates the handler (one per connection).
    init() {}

    /// Answers a parser error; passes anything else on.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let body = ByteBuffer(bytes: Self.body)
        let head = HTTPResponse(status: .badRequest, headerFields: [
            .contentType: "application/json; charset=utf-8", .contentLength: String(body.readableBytes), .connection: "close",
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            bound.value.close(promise: nil)
        }
    }
}
