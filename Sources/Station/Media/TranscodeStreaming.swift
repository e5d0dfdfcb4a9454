import HTTPTypes
import Hummingbird

/// The media route's answer for a transcode still being made (``TranscodeJob``): the same
/// answer the file middleware gives for the finished file, from the first request on.
///
/// The job's length is exact before the bytes exist (``TranscodeJob/length``), so every
/// answer carries `Content-Length` and `Accept-Ranges: bytes`, and a `Range` is read at
/// once, by the parser files are answered with (``ByteRange``): nothing waits for the
/// length. A range is a 206 with its `Content-Range` (a player's seek, or a resumed
/// position, lands where it asked), an invalid one is ignored (200, the whole song), one
/// past the end a 416. A range that starts ahead of the encoder waits for it, at most
/// ``StationConfiguration/transcodeRangeWait``, and is a 503 with `Retry-After` when the
/// encoder is not there by then; the bytes after the first arrive as the encoder writes
/// them, as for a whole song.
enum TranscodeStreaming {
    /// What the bytes are.
    static let contentType = "audio/mpeg"

    /// The answer to `request` (GET or HEAD) from `job`.
    static func response(to request: Request, from job: TranscodeJob, rangeWait: Duration) async -> Response {
        let length = job.length
        var headers: HTTPFields = [.contentType: contentType, .acceptRanges: "bytes"]
        let status: HTTPResponse.Status
        let span: ClosedRange<Int>?
        switch ByteRange(header: request.headers[.range], length: length) {
        case .unsatisfiable:
            return RangeRepairMiddleware<StationContext>.unsatisfiable(size: length)
        case .whole:
            status = .ok
            span = length > 0 ? 0...(length - 1) : nil
        case .part(let range):
            status = .partialContent
            span = range
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"
        }
        let count = span?.count ?? 0
        guard request.method == .get, let span else {
            headers[.contentLength] = "\(count)"
            return Response(status: status, headers: headers)
        }
        if span.lowerBound > 0 {
            switch await job.waitFor(byte: span.lowerBound, within: rangeWait) {
            case .arrived:
                break
            case .never:
                return JSONResponse.error("transcode_failed", status: .internalServerError)
            case .late:
                var busy = JSONResponse.error("transcoding", status: .serviceUnavailable)
                busy.headers[.retryAfter] = "1"
                return busy
            }
        }
        return Response(status: status, headers: headers, body: ResponseBody(contentLength: count) { writer in
            var offset = span.lowerBound
            while offset <= span.upperBound {
                guard let bytes = await job.read(from: offset, upTo: min(64 * 1024, span.upperBound - offset + 1)) else {
                    // The job failed or stalled before the end: closing the connection short
                    // of its Content-Length tells the client the body is incomplete.
                    throw TranscodeCutShort(offset: offset, length: length)
                }
                try await writer.write(ByteBuffer(bytes: bytes))
                offset += bytes.count
            }
            try await writer.finish(nil)
        })
    }
}

/// A transcode that ended before the bytes a response promised: thrown from the body
/// writer, so the connection is closed rather than reused after a short body.
struct TranscodeCutShort: Error {
    /// Where the body stopped.
    let offset: Int
    /// The length announced.
    let length: Int
}
