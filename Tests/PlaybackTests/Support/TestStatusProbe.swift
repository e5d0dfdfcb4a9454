import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Playback
import TestSupport

/// The tests' `MediaURLProbe`: a real `GET` with `Range: bytes=0-0` to the test server
/// (Foundation's URLSession; mhz itself supplies one over libcurl), recording every URL it
/// was asked about so a test can check the player asked exactly once, about the right URL.
final class TestStatusProbe: MediaURLProbe {
    private let asked = Locked<[String]>([])

    /// The URLs asked about, in order.
    var urls: [String] { asked.withLock { $0 } }

    func status(of url: String) async -> Int? {
        asked.withLock { $0.append(url) }
        guard let target = URL(string: url) else { return nil }
        // Generous: the whole suite runs beside it on two cores, and a probe that times out
        // turns a 404 into "loading failed" (mhz's own probe keeps 5 s).
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 30)
        request.setValue("bytes=0-0", forHTTPHeaderField: "Range")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.timeoutIntervalForResource = 30
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        return await withCheckedContinuation { continuation in
            session.dataTask(with: request) { _, response, _ in
                continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode)
            }.resume()
        }
    }
}
