import Backoff
import Foundation
import HLSPlaylist
import HTTP

/// Fetches one piece of an HLS stream (a media segment or an init segment) into a file of
/// its own beside the task's partial file, through the same ``BodyFetch`` as a whole song:
/// an interrupted piece continues by `Range`, a byte-range piece trusts only a `206` whose
/// `Content-Range` starts where it asked (or cuts its range out of a whole answer), its
/// length is checked, and a transient failure is retried with backoff before the task is
/// told — a segment is never skipped.
struct SegmentFetcher: Sendable {
    /// The client segments go through (its pooled handles keep connections open).
    let http: HTTPClient
    /// Seconds without a byte before a transfer counts as stalled.
    let stallTimeout: Double
    /// Tries per piece before its failure reaches the task (the first and its retries).
    let attempts: Int
    /// Waits between tries.
    let backoff: Backoff

    /// One piece: where it comes from, which bytes of it, and where it goes.
    struct Piece: Sendable {
        /// The resource.
        var uri: URL
        /// The bytes of it, or nil for all of it.
        var byteRange: ByteRange?
        /// The file it is fetched into.
        var path: String
    }

    /// Fetches `piece` completely into its file and returns the file's length.
    func fetch(_ piece: Piece) async -> Result<Int64, DownloadError> {
        var attempt = 0
        while true {
            let result = await fetchOnce(piece)
            guard case .failure(let error) = result, error.isTransient, attempt + 1 < attempts else { return result }
            do {
                try await Task.sleep(for: .milliseconds(Int(backoff.wait(attempt: attempt) * 1000)))
            } catch {
                return .failure(.network(detail: "cancelled"))
            }
            attempt += 1
        }
    }

    private func fetchOnce(_ piece: Piece) async -> Result<Int64, DownloadError> {
        let fd = open(piece.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return .failure(Disk.error(errno: errno, path: piece.path)) }
        defer { close(fd) }
        var offset = Disk.size(of: fd)
        if let wanted = piece.byteRange?.length {
            // A piece already whole is not asked for again; one longer than its range starts again.
            if offset == wanted { return .success(offset) }
            if offset > wanted {
                _ = ftruncate(fd, 0)
                offset = 0
            }
        }
        let download = FileDownload(request: HTTPRequest(url: piece.uri), descriptor: fd, resumeOffset: offset,
                                    stallTimeout: stallTimeout,
                                    byteRange: piece.byteRange.map { $0.offset...($0.offset + $0.length - 1) })
        switch await BodyFetch(http: http).fetch(download, path: piece.path) {
        case .complete(let length): return .success(length)
        case .failed(let error, _): return .failure(error)
        case .cancelled: return .failure(.network(detail: "cancelled"))
        }
    }
}
