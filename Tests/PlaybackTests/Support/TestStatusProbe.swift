import Foundation
import HTTP
import Playback
import TestSupport

/// The tests' `MediaURLProbe`: a real `GET` with `Range: bytes=0-0` to the test server
/// over the project's libcurl client (as mhz's own probe does), recording every URL it was
/// asked about so a test can check the player asked exactly once, about the right URL.
///
/// Not URLSession: it watches its sockets with libdispatch sources, which a full run's
/// churn can crash (see `PipeReader`).
final class TestStatusProbe: MediaURLProbe {
    private let asked = Locked<[String]>([])
    /// Generous: the whole suite runs beside it on two cores, and a probe that times out
    /// turns a 404 into "loading failed" (mhz's own probe keeps 5 s).
    private static let http = HTTPClient(configuration: HTTPConfiguration(
        connectTimeout: 30, totalTimeout: 30, maxResponseBytes: 1 << 20, maxRedirects: 0, retry: .never))

    /// The URLs asked about, in order.
    var urls: [String] { asked.withLock { $0 } }

    func status(of url: String) async -> Int? {
        asked.withLock { $0.append(url) }
        guard let target = URL(string: url) else { return nil }
        return try? await Self.http.perform(HTTPRequest(url: target, headers: [.init("Range", "bytes=0-0")])).status
    }
}
