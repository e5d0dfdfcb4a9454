import HTTPTypes
import MhzVersion
import NIOCore
import NIOHTTPTypes

/// Answers a live listener's playlist polls and segment fetches (``LiveEdgeRoute``) in the
/// connection's channel pipeline, on its event loop, without Hummingbird's request path:
/// no task hop to the router, no `Request` and `Response`, no per-request logger. Every
/// other request passes on to Hummingbird unchanged. With two hundred listeners these two
/// requests are all but every request the station gets.
///
/// The answer is what the router writes for the same request (``LiveAnswers``, and
/// Hummingbird's `Date` and `Server` headers): `Content-Type`, `Cache-Control`,
/// `Content-Length`, `Date`, `Server`, then the body, a buffer ``LiveEdge`` made once.
///
/// Taken are `GET`s without a body (no `Content-Length`, no `Transfer-Encoding`) that do
/// not ask to close the connection, and only when no request passed on is still being
/// answered: HTTP/1.1 answers go out in the order the requests came (RFC 9112 §9.3.2), so
/// behind an unanswered request everything passes on. Nor while the connection is not
/// writable (a client pipelining requests without reading the answers): Hummingbird's
/// writer waits for it, and reads no further request meanwhile, where this handler would
/// queue answers without end.
///
/// It is the last of the station's handlers, which Hummingbird's `HTTP1Channel` puts before
/// its own `HTTPConnectionStateHandler`: the requests it answers never reach that handler,
/// so the idle timeout is the station's (``IdleTimeoutHandler``, before this one, which
/// sees them and restarts its timer for them as for the router's), and Hummingbird's is off.
final class LiveEdgeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    /// Requests: the ones taken stop here, the rest pass on.
    typealias InboundIn = HTTPRequestPart
    /// Requests not taken.
    typealias InboundOut = HTTPRequestPart
    /// Hummingbird's answers, passing through (counted).
    typealias OutboundIn = HTTPResponsePart
    /// Answers.
    typealias OutboundOut = HTTPResponsePart

    /// `application/vnd.apple.mpegurl`, as ``LiveAnswers`` serves playlists.
    static let playlistType = LiveAnswers.playlistType
    /// The station's `Server` header, as every other answer carries it (`mhz/VERSION`).
    static let serverName = MhzVersion.product

    private let source: any LiveEdgeSource
    /// The peer's IP address, as the router's `StationContext.peerAddress` gives it, looked
    /// up once per connection and handed to the source (a listener whose votes count is the
    /// id its polls carry, not its address).
    private var listener: String?
    /// Requests passed on whose answer has not been written to its end.
    private var passedOn = 0
    /// The answer to a request taken, written when its `.end` arrives.
    private var taken: LiveEdgeAnswer?

    /// A handler (one per connection) answering from `source`.
    init(source: any LiveEdgeSource) {
        self.source = source
    }

    /// Takes a request it answers, passes on the rest.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if passedOn == 0, let answer = answer(head, context: context) {
                taken = answer
                return
            }
            passedOn += 1
            context.fireChannelRead(data)
        case .body:
            // A request taken has no body (none declared); the rest pass on.
            guard taken == nil else { return }
            context.fireChannelRead(data)
        case .end:
            guard let answer = taken else {
                context.fireChannelRead(data)
                return
            }
            taken = nil
            write(answer, context: context)
        }
    }

    /// Counts the answers of the requests passed on as they end.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }

    private func answer(_ head: HTTPRequest, context: ChannelHandlerContext) -> LiveEdgeAnswer? {
        guard head.method == .get, context.channel.isWritable, let target = head.path, head.headerFields[.contentLength] == nil,
              head.headerFields[.transferEncoding] == nil
        else { return nil }
        if let connection = head.headerFields[.connection], connection.lowercased() != "keep-alive" { return nil }
        if listener == nil { listener = context.channel.remoteAddress?.ipAddress ?? "in-process" }
        return source.answer(target: target, listener: listener ?? "in-process")
    }

    private func write(_ answer: LiveEdgeAnswer, context: ChannelHandlerContext) {
        var fields = HTTPFields()
        fields.reserveCapacity(5)
        switch answer.kind {
        case .playlist:
            fields[.contentType] = Self.playlistType
            fields[.cacheControl] = "no-cache"
        case .segment:
            fields[.contentType] = "video/mp2t"
            fields[.cacheControl] = "max-age=86400"
        }
        fields[.contentLength] = String(answer.body.readableBytes)
        fields[.date] = HTTPDate.now()
        fields[.server] = Self.serverName
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .ok, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
