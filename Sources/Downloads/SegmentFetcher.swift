import Backoff
import Foundation
import HLSPlaylist
import HTTP

/// Fetches one piece of an HLS stream (a media segment or an init segment) into a file of
/// its own beside the task's partial file, with the same care as a whole song: an
/// interrupted piece continues by `Range`, a byte-range piece trusts only a `206` whose
/// `Content-Range` starts where it asked (or cuts its range out of a whole answer), its
/// length is checked, and a transient failure is retried with backoff before the task is
/// told — a segment is never skipped.
struct SegmentFetcher: Sendable {
    /// The client segments go through (its pooled handles keep connections open).
    let http: HTTPClient
    /// Seconds without a byte before a transfer counts as stalled.
    let stallTimeout: Double
    /// Tries per piece before its failure reaches the task.
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
        guard fd >= 0 else { return .failure(SongFetcher.fileError(errno: errno, path: piece.path)) }
        defer { close(fd) }
        var info = stat()
        _ = fstat(fd, &info)
        var offset = Int64(info.st_size)
        let wanted = piece.byteRange?.length
        if let wanted {
            if offset == wanted { return .success(offset) }
            if offset > wanted {
                _ = ftruncate(fd, 0)
                offset = 0
            }
        }
        let range = piece.byteRange.map { $0.offset...($0.offset + $0.length - 1) }
        let result: FileDownloadResult
        do {
            result = try await http.download(FileDownload(request: HTTPRequest(url: piece.uri), descriptor: fd,
                                                          resumeOffset: offset, stallTimeout: stallTimeout, byteRange: range))
        } catch {
            return .failure(failure(error, fd: fd, path: piece.path))
        }
        if result.status == 416, offset > 0, wanted == nil {
            // "bytes */LENGTH": what is on disk may already be the whole segment.
            let whole = result.header("content-range").flatMap { $0.split(separator: "/").last }.flatMap { Int64($0) }
            if whole == offset { return .success(offset) }
            _ = ftruncate(fd, 0)
            return .failure(.rangeMismatch(answered: result.header("content-range") ?? "none"))
        }
        guard result.wroteFile else {
            if (200..<300).contains(result.status) {
                return .failure(.notMedia(contentType: result.header("content-type") ?? "unknown"))
            }
            return .failure(.httpStatus(result.status))
        }
        let length = result.fileLength(resumedFrom: offset)
        let expected = wanted ?? result.expectedLength
        if let expected {
            if length < expected { return .failure(.shortBody(got: length, expected: expected)) }
            if length > expected {
                _ = ftruncate(fd, 0)
                return .failure(.overlong(got: length, expected: expected))
            }
        }
        return .success(length)
    }

    private func failure(_ error: HTTPError, fd: Int32, path: String) -> DownloadError {
        switch error {
        case .fileWrite(let code): return SongFetcher.fileError(errno: code, path: path)
        case .rangeMismatch(let range):
            // What the piece holds cannot be continued from this server: start it again.
            _ = ftruncate(fd, 0)
            return .rangeMismatch(answered: range)
        default: return .transport(error, stallTimeout: stallTimeout)
        }
    }
}
