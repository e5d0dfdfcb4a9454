import Foundation

/// A download of one URL into a file the caller opened, continuing after the bytes
/// already there (see ``HTTPClient/download(_:progress:)``).
public struct FileDownload: Sendable {
    /// The request; `Range` is added here when ``resumeOffset`` is past 0.
    public var request: HTTPRequest
    /// The file, open for writing; the caller closes it.
    public var descriptor: Int32
    /// Bytes of the file already downloaded: the request asks for the rest.
    public var resumeOffset: Int64
    /// `Content-Type` prefixes whose bodies are not media (an HTML login or error page
    /// served with 200): they are not written and the answer says so.
    public var refusedContentTypes: [String]
    /// Seconds without a received byte after which the transfer fails: a server that hangs.
    public var stallTimeout: Double
    /// The bytes of the resource the file holds (an HLS segment inside one large file), or
    /// nil for all of it. The request asks for this range after the bytes already in the
    /// file; a server that ignores ranges and sends the whole resource has the range cut
    /// out of its body, so the file never holds more than the range.
    public var byteRange: ClosedRange<Int64>?

    /// Creates a download.
    public init(request: HTTPRequest, descriptor: Int32, resumeOffset: Int64,
                refusedContentTypes: [String] = ["text/html"], stallTimeout: Double = 30,
                byteRange: ClosedRange<Int64>? = nil) {
        self.request = request
        self.descriptor = descriptor
        self.resumeOffset = resumeOffset
        self.refusedContentTypes = refusedContentTypes
        self.stallTimeout = stallTimeout
        self.byteRange = byteRange
    }

    /// The `Range` header's value, when one is asked for: the rest of the file, or the rest
    /// of its byte range.
    var rangeHeader: String? {
        if let byteRange { return "bytes=\(byteRange.lowerBound + resumeOffset)-\(byteRange.upperBound)" }
        return resumeOffset > 0 ? "bytes=\(resumeOffset)-" : nil
    }
}

/// How a ``FileDownload`` ended, when an answer came.
public struct FileDownloadResult: Sendable, Equatable {
    /// The final status (after redirects).
    public var status: Int
    /// The final answer's headers, names lowercased.
    public var headers: [HTTPHeaderLine]
    /// The URL after redirects.
    public var effectiveURL: URL?
    /// Whether the body went into the file (a 200, or a 206 continuing it).
    public var wroteFile: Bool
    /// Bytes written by this transfer.
    public var written: Int64
    /// A range was asked for and the server sent the whole file: it was written from byte 0.
    public var restartedFromZero: Bool
    /// A byte range was asked for and the server sent the whole resource: the range was cut
    /// out of it.
    public var sliced: Bool
    /// The first bytes of a body that was not written (an error page), for messages.
    public var unwrittenBody: Data

    /// The length of the file after this transfer, when the body went into it.
    public func fileLength(resumedFrom offset: Int64) -> Int64 {
        (restartedFromZero || status == 200) && !sliced ? written : offset + written
    }

    /// The length the whole file should have, from `Content-Range` (a 206) or
    /// `Content-Length` (a 200); nil when the server did not say (chunked).
    public var expectedLength: Int64? {
        if status == 206, let range = header("content-range").flatMap(ContentRange.init) { return range.total }
        if status == 200, let length = header("content-length").flatMap({ Int64($0) }) { return length }
        return nil
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.last { $0.name == lower }?.value
    }
}

/// One header line of an answer.
public struct HTTPHeaderLine: Sendable, Equatable {
    /// The name, lowercased.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a line.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
