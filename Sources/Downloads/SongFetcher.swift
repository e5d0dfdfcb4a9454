import Foundation
import HTTP
import Logging
import Store
import Synchronization

/// Fetches a song over HTTP into `PATH.part`, continuing after the bytes already there,
/// checks it (length against what the server announced, SHA-256 against the station's
/// when given), tags it and renames it into place. Also copies `file://` songs (the
/// embedded station's).
///
/// Files on the way: `NAME.part` while bytes arrive (locked with `flock(2)` so two mhz
/// processes never write the same one: the lock dies with its process, kill -9 included);
/// `.NAME` (hidden, same extension) while it is tagged, so TagLib sees the real type; then
/// `NAME`. A finished name appears only for a whole, verified file.
public struct SongFetcher: DownloadFetcher {
    /// The client media requests go through (no cookies: media hosts are not the station).
    let http: HTTPClient
    /// Seconds without a byte before a transfer counts as stalled.
    let stallTimeout: Double
    private let logger: Logger

    /// Creates a fetcher.
    public init(http: HTTPClient, stallTimeout: Double = 30, logger: Logger = Logger(label: "mhz.downloads")) {
        self.http = http
        self.stallTimeout = stallTimeout
        self.logger = logger
    }

    /// Answers that are not a song: a web page, or an HLS playlist (whose URL did not end in
    /// `.m3u8`), which would otherwise be kept as if it were the audio.
    static let refusedContentTypes = ["text/html", "application/vnd.apple.mpegurl", "application/x-mpegurl",
                                      "audio/mpegurl", "audio/x-mpegurl"]

    /// The partial file of a final path.
    static func partPath(_ path: String) -> String { path + ".part" }

    /// The hidden name a verified file is tagged under.
    static func taggingPath(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent).path
    }

    public func bytesOnDisk(_ record: DownloadRecord) -> Int64 {
        var info = stat()
        if stat(Self.partPath(record.path), &info) == 0 { return Int64(info.st_size) }
        if stat(record.path, &info) == 0 { return Int64(info.st_size) }
        return 0
    }

    public func fetch(_ record: DownloadRecord, progress: @escaping @Sendable (Int64, Int64?) -> Void) async
        -> TransferOutcome
    {
        let outcome = await attempt(record, progress: progress)
        // A failure before the first byte leaves no empty partial file behind.
        var info = stat()
        let part = Self.partPath(record.path)
        if case .failed(let error, _) = outcome, error != .heldElsewhere, stat(part, &info) == 0, info.st_size == 0 {
            unlink(part)
        }
        return outcome
    }

    private func attempt(_ record: DownloadRecord, progress: @escaping @Sendable (Int64, Int64?) -> Void) async
        -> TransferOutcome
    {
        let path = record.path, part = Self.partPath(path), tagging = Self.taggingPath(path)
        var info = stat()
        // A crash after the rename but before the row said so: the file is done.
        if stat(path, &info) == 0, access(part, F_OK) != 0 { return .completed(bytes: Int64(info.st_size)) }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let made = Self.makeDirectories(directory)
        guard made == 0 else { return .failed(Self.fileError(errno: made, path: directory), bytes: 0) }
        // A crash while tagging: the verified bytes are there under the hidden name.
        if access(tagging, F_OK) == 0, access(part, F_OK) != 0 { return await finish(record, tagging: tagging) }
        let fd = open(part, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return .failed(Self.fileError(errno: errno, path: part), bytes: 0) }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return .failed(.heldElsewhere, bytes: 0) }
        _ = fstat(fd, &info)
        let offset = Int64(info.st_size)
        guard let url = URL(string: record.url) else { return .failed(.invalidURL(record.url), bytes: offset) }
        if url.isFileURL { return await copy(url, fd: fd, record: record, progress: progress) }
        progress(offset, record.total)

        let request = HTTPRequest(url: url)
        let result: FileDownloadResult
        // The length announced, known from the first progress tick on: a body cut short
        // fails as a transport error, and its reason names what was expected.
        let announced = Mutex<Int64?>(nil)
        do {
            result = try await http.download(
                FileDownload(request: request, descriptor: fd, resumeOffset: offset,
                             refusedContentTypes: Self.refusedContentTypes, stallTimeout: stallTimeout),
                progress: { received, total in
                    let whole: Int64? = total > 0 ? offset + total : nil
                    if let whole { announced.withLock { $0 = whole } }
                    progress(offset + received, whole)
                })
        } catch {
            return failure(error, fd: fd, part: part, expected: announced.withLock { $0 })
        }
        if result.restartedFromZero {
            logger.notice("download \(record.id ?? 0): asked for bytes \(offset)- of \(record.url), got the whole file (HTTP 200): started again from byte 0")
        }
        if result.status == 416, offset > 0 {
            // "bytes */LENGTH": the file on disk may already be whole.
            let whole = result.header("content-range").flatMap { $0.split(separator: "/").last }.flatMap { Int64($0) }
            if whole != offset {
                _ = ftruncate(fd, 0)
                return .failed(.rangeMismatch(answered: result.header("content-range") ?? "none"), bytes: 0)
            }
        } else if !result.wroteFile {
            if (200..<300).contains(result.status) {
                return .failed(.notMedia(contentType: result.header("content-type") ?? "unknown"), bytes: offset)
            }
            return .failed(.httpStatus(result.status), bytes: offset)
        }
        let length = result.status == 416 ? offset : result.fileLength(resumedFrom: offset)
        if let expected = result.expectedLength {
            if length < expected { return .failed(.shortBody(got: length, expected: expected), bytes: length) }
            if length > expected {
                _ = ftruncate(fd, 0)
                return .failed(.overlong(got: length, expected: expected), bytes: 0)
            }
        }
        return await verifyAndFinish(record, fd: fd, part: part, tagging: tagging, length: length)
    }

    /// Checks the station's SHA-256, then tags and renames.
    private func verifyAndFinish(_ record: DownloadRecord, fd: Int32, part: String, tagging: String, length: Int64) async
        -> TransferOutcome
    {
        // No fsync: like curl -o, wget and yt-dlp, a finished file is left to the kernel to
        // write back. A killed mhz loses nothing (the kernel has every byte written); only a
        // power cut in the seconds after a song finished could leave it short on disk, and
        // flushing each song would cost a large download a fifth of its time.
        if let expected = record.sha256?.lowercased(), !expected.isEmpty {
            guard let actual = FileDigest.sha256(path: part) else {
                return .failed(.fileSystem(path: part, detail: "cannot read it back"), bytes: length)
            }
            guard actual == expected else {
                unlink(part)
                return .failed(.checksumMismatch(expected: expected, actual: actual), bytes: 0)
            }
        }
        guard rename(part, tagging) == 0 else { return .failed(Self.fileError(errno: errno, path: part), bytes: length) }
        return await finish(record, tagging: tagging)
    }

    /// Tags the verified file under its hidden name (a station's song: what the station
    /// said about it; a plain URL's file keeps its own bytes and tags, as `curl -o` would)
    /// and gives it its own.
    private func finish(_ record: DownloadRecord, tagging: String) async -> TransferOutcome {
        if record.sid != nil { await tag(record, at: tagging) }
        guard rename(tagging, record.path) == 0 else {
            return .failed(Self.fileError(errno: errno, path: record.path), bytes: 0)
        }
        var info = stat()
        _ = stat(record.path, &info)
        return .completed(bytes: Int64(info.st_size))
    }

    /// Writes the station's title, artist, album, year and cover into the file.
    private func tag(_ record: DownloadRecord, at tagging: String) async {
        var cover: (Data, String)?
        if let link = record.coverURL, let url = URL(string: link), !url.isFileURL,
           let answer = try? await http.perform(HTTPRequest(url: url)), answer.status == 200, !answer.body.isEmpty
        {
            let type = answer.header("content-type")?.lowercased() ?? ""
            cover = (answer.body, type.contains("png") ? "image/png" : "image/jpeg")
        } else if let link = record.coverURL, let url = URL(string: link), url.isFileURL,
                  let data = try? Data(contentsOf: url)
        {
            cover = (data, url.pathExtension.lowercased() == "png" ? "image/png" : "image/jpeg")
        }
        let tags = SongTagger.Tags(title: record.title, artist: record.artist, album: record.album, year: record.year,
                                   cover: cover.map { (data: $0.0, mime: $0.1) })
        if !SongTagger.write(tags, to: tagging) {
            logger.notice("download \(record.id ?? 0): \(record.path) kept untagged (TagLib cannot write this container)")
        }
    }

    /// Copies a local file (a song of the embedded station) into the partial file.
    private func copy(_ url: URL, fd: Int32, record: DownloadRecord,
                      progress: @escaping @Sendable (Int64, Int64?) -> Void) async -> TransferOutcome {
        let source = open(url.path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { return .failed(.httpStatus(404), bytes: 0) }
        defer { close(source) }
        var info = stat()
        _ = fstat(source, &info)
        let total = Int64(info.st_size)
        _ = ftruncate(fd, 0)
        _ = lseek(fd, 0, SEEK_SET)
        let block = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 16)
        defer { buffer.deallocate() }
        var copied: Int64 = 0
        while true {
            if Task.isCancelled { return .stopped }
            let n = read(source, buffer, block)
            if n < 0 { if errno == EINTR { continue }; return .failed(Self.fileError(errno: errno, path: url.path), bytes: copied) }
            if n == 0 { break }
            var done = 0
            while done < n {
                let w = write(fd, buffer + done, n - done)
                if w < 0 {
                    if errno == EINTR { continue }
                    return .failed(Self.fileError(errno: errno, path: Self.partPath(record.path)), bytes: copied)
                }
                done += w
            }
            copied += Int64(n)
            progress(copied, total)
        }
        return await verifyAndFinish(record, fd: fd, part: Self.partPath(record.path),
                                     tagging: Self.taggingPath(record.path), length: copied)
    }

    /// The task's reason for an HTTP failure.
    private func failure(_ error: HTTPError, fd: Int32, part: String, expected: Int64?) -> TransferOutcome {
        var info = stat()
        _ = fstat(fd, &info)
        let onDisk = Int64(info.st_size)
        switch error {
        case .cancelled:
            return .stopped
        case .fileWrite(let code):
            return .failed(Self.fileError(errno: code, path: part), bytes: onDisk)
        case .rangeMismatch(let range):
            // What is on disk cannot be continued from this server: start again.
            _ = ftruncate(fd, 0)
            return .failed(.rangeMismatch(answered: range), bytes: 0)
        case .transport(let code, let detail):
            if code == .timedOut { return .failed(.stalled(seconds: stallTimeout), bytes: onDisk) }
            if code == .partialFile, let expected { return .failed(.shortBody(got: onDisk, expected: expected), bytes: onDisk) }
            return .failed(.network(detail: detail), bytes: onDisk)
        case .tls(_, let detail):
            return .failed(.network(detail: detail), bytes: onDisk)
        case .invalidURL(let url):
            return .failed(.invalidURL(url), bytes: onDisk)
        case .responseTooLarge, .setup, .storage:
            return .failed(.network(detail: "\(error)"), bytes: onDisk)
        }
    }

    /// `mkdir -p`: 0, or the `errno` of the step that failed (so a read-only disk says so).
    static func makeDirectories(_ path: String) -> Int32 {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o755) != 0, errno != EEXIST { return errno }
        }
        return 0
    }

    /// A file-system failure as the task's reason.
    static func fileError(errno code: Int32, path: String) -> DownloadError {
        switch code {
        case ENOSPC, EDQUOT, EFBIG: .diskFull(path: path)
        case EROFS, EACCES, EPERM: .notWritable(path: path)
        default: .fileSystem(path: path, detail: String(cString: strerror(code)))
        }
    }
}
