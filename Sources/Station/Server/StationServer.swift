import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import MhzVersion
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import NIOSSL
import ServiceLifecycle

/// The station's HTTP server as a service: Hummingbird's HTTP/1 connections (each wrapped
/// in TLS when the station serves HTTPS) answered by the station's responder, accepted on
/// the station's own ``ListeningSocket`` through NIO's `ServerBootstrap` rather than on a
/// socket Hummingbird's `Application` binds, so that the socket outlives the server: a
/// restart serves the same socket again, and nobody who connects meanwhile is refused.
///
/// It answers as Hummingbird's `Application` does: each request gets a ``StationContext``
/// with a logger carrying its request id, an error other than a parse error becomes an
/// empty 500, and every answer carries `Date` and `Server: mhz/VERSION` (MhzVersion). A graceful
/// shutdown stops accepting (the server's duplicate of the socket is closed; the
/// socket itself stays open), lets the connections finish the answer under way and
/// closes the idle ones (NIOExtras' `ServerQuiescingHelper`; ``QuiesceGraceHandler``
/// first lets a request already sent be read).
struct StationServer<Responder: HTTPResponder>: Service where Responder.Context == StationContext {
    /// The socket served.
    let socket: ListeningSocket
    /// What answers each request.
    let responder: Responder
    /// Hummingbird's HTTP/1 settings: the handlers added to each connection's pipeline.
    let http: HTTP1Channel.Configuration
    /// What HTTPS is served with; `nil` for plain HTTP.
    let tls: TLSConfiguration?
    /// Where the server logs.
    let logger: Logger
    /// Called once accepting, with the port the socket is bound to.
    let onListening: @Sendable (Int) -> Void

    /// The `Server` header of every answer.
    static var serverName: String { MhzVersion.product }

    /// A responder's answer could not be written because the request turned out malformed:
    /// the connection ends (a second answer must not be written).
    private struct MalformedWhileWriting: Error {}

    /// Serves until a graceful shutdown has let every connection end.
    func run() async throws {
        let descriptor = try socket.duplicate()
        let answer = handler()
        let http1 = HTTP1Channel(responder: answer, configuration: http)
        if let tls {
            try await serve(try TLSChannel(http1, tlsConfiguration: tls), descriptor: descriptor)
        } else {
            try await serve(http1, descriptor: descriptor)
        }
    }

    /// What each connection calls with each request.
    private func handler() -> HTTPChannelHandler.Responder {
        let responder = self.responder
        let logger = self.logger
        return { (request, writer: consuming ResponseWriter, channel) in
            var requestLogger = logger
            requestLogger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
            let context = StationContext(source: .init(channel: channel, logger: requestLogger))
            var response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as HTTPParserError {
                throw error
            } catch {
                requestLogger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
                response = Response(status: .internalServerError, body: .init())
            }
            response.headers[.date] = HTTPDate.now()
            response.headers[.server] = Self.serverName
            do {
                try await writer.write(response: response.head, body: response.body)
            } catch is HTTPParserError {
                throw MalformedWhileWriting()
            }
        }
    }

    private func serve<Child: ServerChildChannel>(_ child: Child, descriptor: Int32) async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let quiescing = ServerQuiescingHelper(group: group)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
        let logger = self.logger
        let server = try await bootstrap.bind(descriptor, serverBackPressureStrategy: nil) { channel in
            child.setup(channel: channel, logger: logger)
        }
        // NIO listens again with its own backlog when it takes a bound socket: the
        // station's is longer, for the restart the socket is kept through.
        _ = listen(socket.descriptor, ListeningSocket.backlog)
        onListening(socket.port ?? 0)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { connections in
                do {
                    try await server.executeThenClose { inbound in
                        for try await connection in inbound {
                            connections.addTask { await child.handle(value: connection, logger: logger) }
                        }
                    }
                } catch {
                    logger.error("Waiting on child channel: \(error)")
                }
            }
        } onGracefulShutdown: {
            // Accepting stops first, the socket left to queue what comes next; the
            // connections already accepted reach the loop above before the server channel
            // closes and ends it. One accepted after that end would be dropped half set up:
            // the connection reset, and NIO traps on its writer ("Deinited NIOAsyncWriter
            // without calling finish()").
            let channel = server.channel
            channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in
                channel.eventLoop.scheduleTask(in: Self.acceptedSettle) { quiescing.initiateShutdown(promise: nil) }
            }
        }
    }

    /// How long the connections accepted before accepting stopped have to be set up and
    /// handed to the server's loop: a few turns of the event loops, with room for a busy
    /// machine.
    static var acceptedSettle: TimeAmount { .milliseconds(250) }
}
