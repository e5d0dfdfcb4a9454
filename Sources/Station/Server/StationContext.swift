import Hummingbird
import NIOCore

/// The request context of the station's router: Hummingbird's basic context plus the
/// peer's address, which ``TokenGuard`` counts wrong tokens by.
struct StationContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's own per-request storage.
    var coreContext: CoreRequestContextStorage
    /// The peer, as the accepted channel knows it.
    let remoteAddress: SocketAddress?

    /// Creates the context of a request arriving on `source.channel`.
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address as text; nil for a Unix socket or an unknown peer.
    var peerAddress: String? {
        remoteAddress?.ipAddress
    }
}
