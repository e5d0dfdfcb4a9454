import Foundation
import MhzVersion

/// How the client talks to servers. One value per client; defaults suit a radio API.
public struct HTTPConfiguration: Sendable, Equatable {
    /// `User-Agent` sent with every request.
    public var userAgent: String
    /// Seconds to establish a connection (TCP + TLS).
    public var connectTimeout: Double
    /// Seconds for a whole request, connection included.
    public var totalTimeout: Double
    /// Largest body accepted; larger answers fail with `responseTooLarge` instead of
    /// filling memory.
    public var maxResponseBytes: Int
    /// Redirects followed at most (0 disables following).
    public var maxRedirects: Int
    /// Verify TLS certificates and host names. Only explicit configuration turns it off.
    public var verifyTLS: Bool
    /// Proxy URL (`http://host:port`, `socks5h://…`); `nil` lets libcurl read the usual
    /// `http_proxy`/`https_proxy`/`all_proxy`/`no_proxy` environment variables (libcurl
    /// ignores upper-case `HTTP_PROXY`, see libcurl-env(3)); the empty string turns any
    /// proxy off, the environment's included ("Setting the proxy string to "" (an empty
    /// string) will explicitly disable the use of a proxy, even if there is an environment
    /// variable set for it" — CURLOPT_PROXY(3)).
    public var proxy: String?
    /// Which failures are tried again, how often, how far apart.
    public var retry: RetryPolicy

    /// Creates a configuration.
    public init(userAgent: String = "\(MhzVersion.product) (+https://github.com/mhz-radio/mhz)", connectTimeout: Double = 5,
                totalTimeout: Double = 15, maxResponseBytes: Int = 8 << 20, maxRedirects: Int = 5,
                verifyTLS: Bool = true, proxy: String? = nil, retry: RetryPolicy = RetryPolicy()) {
        self.userAgent = userAgent
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxResponseBytes = maxResponseBytes
        self.maxRedirects = maxRedirects
        self.verifyTLS = verifyTLS
        self.proxy = proxy
        self.retry = retry
    }
}
