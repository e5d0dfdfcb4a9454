import Foundation
import HTTP
import Synchronization

/// One HTTP body fetched into an open file after the bytes already in it: the one reading of
/// a ``FileDownloadResult`` and of the HTTP layer's failures, under both fetchers (a song's
/// partial file, an HLS segment's piece).
///
/// What the HTTP layer wrote is judged here: a `416` answering a resume with
/// `bytes */LENGTH` of exactly the bytes on disk means the file is already whole; an answer
/// that wrote nothing is its HTTP status or, for a `2xx`, not media; the file's length is
/// checked against what the server announced (or the byte range asked for). A file that
/// cannot be continued (another range answered, more bytes than announced) is emptied, so
/// the next attempt starts it again.
struct BodyFetch: Sendable {
    /// The client the body comes through.
    let http: HTTPClient

    /// How a fetch ended.
    enum Outcome: Sendable, Equatable {
        /// The file holds the whole body: `length` bytes.
        case complete(length: Int64)
        /// It failed for `reason`; the file keeps `kept` bytes for the next attempt (0 when
        /// it was emptied).
        case failed(DownloadError, kept: Int64)
        /// The calling task was cancelled.
        case cancelled
    }

    /// Runs `download` and reads how it went. `path` names the file in a failure;
    /// `restarted` is called when the server ignored the range asked for and the file was
    /// written again from byte 0; `progress` is told the bytes in the file and its whole
    /// length when announced.
    func fetch(_ download: FileDownload, path: String, restarted: () -> Void = {},
               progress: @escaping @Sendable (Int64, Int64?) -> Void = { _, _ in }) async -> Outcome {
        let offset = download.resumeOffset
        let wanted = download.byteRange.map { $0.upperBound - $0.lowerBound + 1 }
        // The length announced, known from the first progress tick on: a body cut short
        // fails as a transport error, and its reason names what was expected.
        let announced = Mutex<Int64?>(nil)
        let result: FileDownloadResult
        do {
            result = try await http.download(download) { received, total in
                // The server's length may be any 64-bit number: past what fits, it is none.
                let (sum, overflow) = offset.addingReportingOverflow(total)
                let whole: Int64? = total > 0 && !overflow ? sum : nil
                if let whole { announced.withLock { $0 = whole } }
                progress(offset + received, whole)
            }
        } catch {
            return failure(error, download: download, path: path, expected: wanted ?? announced.withLock { $0 })
        }
        if result.restartedFromZero { restarted() }
        if result.status == 416, offset > 0, wanted == nil {
            // "bytes */LENGTH": the file on disk may already be whole.
            let whole = result.header("content-range").flatMap { $0.split(separator: "/").last }.flatMap { Int64($0) }
            if whole == offset { return .complete(length: offset) }
            _ = ftruncate(download.descriptor, 0)
            return .failed(.rangeMismatch(answered: result.header("content-range") ?? "none"), kept: 0)
        }
        guard result.wroteFile else {
            if (200..<300).contains(result.status) {
                return .failed(.notMedia(contentType: result.header("content-type") ?? "unknown"), kept: offset)
            }
            return .failed(.httpStatus(result.status), kept: offset)
        }
        let length = result.fileLength(resumedFrom: offset)
        if let expected = wanted ?? result.expectedLength {
            if length < expected { return .failed(.shortBody(got: length, expected: expected), kept: length) }
            if length > expected {
                _ = ftruncate(download.descriptor, 0)
                return .failed(.overlong(got: length, expected: expected), kept: 0)
            }
        }
        return .complete(length: length)
    }

    /// A failed transfer as the task's reason, with the bytes the file keeps.
    private func failure(_ error: HTTPError, download: FileDownload, path: String, expected: Int64?) -> Outcome {
        let onDisk = Disk.size(of: download.descriptor)
        switch error {
        case .cancelled:
            return .cancelled
        case .fileWrite(let code):
            return .failed(Disk.error(errno: code, path: path), kept: onDisk)
        case .rangeMismatch(let range):
            // What is on disk cannot be continued from this server: start again.
            _ = ftruncate(download.descriptor, 0)
            return .failed(.rangeMismatch(answered: range), kept: 0)
        case .transport(let code, _) where code == .partialFile && expected != nil:
            return .failed(.shortBody(got: onDisk, expected: expected ?? 0), kept: onDisk)
        default:
            return .failed(.transport(error, stallTimeout: download.stallTimeout), kept: onDisk)
        }
    }
}
