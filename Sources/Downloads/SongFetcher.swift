import Foundation
import HTTP
import Logging
import POSIXFile
import Store

/// Fetches a song over HTTP into `PATH.part`, continuing after the bytes already there,
/// checks it (length against what the server announced, SHA-256 against the station's
/// when given), tags it and renames it into place. Also copies `file://` songs (the
/// embedded station's).
///
/// Files on the way (see ``DownloadFiles``): `NAME.part` while bytes arrive, locked; `.NAME`
/// (hidden, same extension) while it is tagged, so the tagger sees the real type; then
/// `NAME`. A finished name appears only for a whole, verified file.
public struct SongFetcher: DownloadFetcher {
    /// The client media requests go through (no cookies: media hosts are not the station).
    let http: HTTPClient
    /// Seconds without a byte before a transfer counts as stalled.
    let stallTimeout: Double
    /// Writes a station's song's tags; without one, files keep the tags they came with.
    let tagger: (any SongTagging)?
    private let logger: Logger

    /// Creates a fetcher.
    public init(http: HTTPClient, stallTimeout: Double = 30, tagger: (any SongTagging)? = nil,
                logger: Logger = Logger(label: "mhz.downloads")) {
        self.http = http
        self.stallTimeout = stallTimeout
        self.tagger = tagger
        self.logger = logger
    }

    /// Answers that are not a song: a web page, or an HLS playlist (whose URL did not end in
    /// `.m3u8`), which would otherwise be kept as if it were the audio.
    static let refusedContentTypes = ["text/html", "application/vnd.apple.mpegurl", "application/x-mpegurl",
                                      "audio/mpegurl", "audio/x-mpegurl"]

    /// Fetches `record`'s song (a plan is for HLS streams: there is none for a file).
    public func fetch(_ record: DownloadRecord, plan: HLSPlan?, progress: @escaping @Sendable (Int64, Int64?) -> Void) async
        -> TransferOutcome
    {
        let files = DownloadFiles(record.path)
        let outcome = await attempt(record, files: files, progress: progress)
        // A failure before the first byte leaves no empty partial file behind.
        if case .failed(let error, _) = outcome, error != .heldElsewhere, Disk.size(of: files.part) == 0 {
            unlink(files.part)
        }
        return outcome
    }

    private func attempt(_ record: DownloadRecord, files: DownloadFiles,
                         progress: @escaping @Sendable (Int64, Int64?) -> Void) async -> TransferOutcome {
        // A crash while tagging: the verified bytes are there under the hidden name.
        if files.isLeftWhileTagging { return await finish(record, files: files) }
        return await files.withLockedPart { fd in
            let offset = Disk.size(of: fd)
            guard let url = URL(string: record.url) else { return .failed(.invalidURL(record.url), bytes: offset) }
            if url.isFileURL { return await copy(url, fd: fd, record: record, files: files, progress: progress) }
            progress(offset, record.total)
            let download = FileDownload(request: HTTPRequest(url: url), descriptor: fd, resumeOffset: offset,
                                        refusedContentTypes: Self.refusedContentTypes, stallTimeout: stallTimeout)
            let outcome = await BodyFetch(http: http).fetch(download, path: files.part, restarted: {
                logger.notice("download \(record.id ?? 0): asked for bytes \(offset)- of \(record.url), got the whole file (HTTP 200): started again from byte 0")
            }, progress: progress)
            switch outcome {
            case .complete(let length): return await verifyAndFinish(record, files: files, length: length)
            case .failed(let error, let kept): return .failed(error, bytes: kept)
            case .cancelled: return .stopped
            }
        }
    }

    /// Checks the station's SHA-256, then tags and renames.
    private func verifyAndFinish(_ record: DownloadRecord, files: DownloadFiles, length: Int64) async -> TransferOutcome {
        // No fsync: like curl -o, wget and yt-dlp, a finished file is left to the kernel to
        // write back. A killed mhz loses nothing (the kernel has every byte written); only a
        // power cut in the seconds after a song finished could leave it short on disk, and
        // flushing each song would cost a large download a fifth of its time.
        if let expected = record.sha256?.lowercased(), !expected.isEmpty {
            guard let actual = FileDigest.sha256(path: files.part) else {
                return .failed(.fileSystem(path: files.part, detail: "cannot read it back"), bytes: length)
            }
            guard actual == expected else {
                unlink(files.part)
                return .failed(.checksumMismatch(expected: expected, actual: actual), bytes: 0)
            }
        }
        guard rename(files.part, files.tagging) == 0 else {
            return .failed(Disk.error(errno: errno, path: files.part), bytes: length)
        }
        return await finish(record, files: files)
    }

    /// Tags the verified file under its hidden name (a station's song: what the station
    /// said about it; a plain URL's file keeps its own bytes and tags, as `curl -o` would)
    /// and gives it its own.
    private func finish(_ record: DownloadRecord, files: DownloadFiles) async -> TransferOutcome {
        if record.sid != nil, let tagger { await tag(record, at: files.tagging, with: tagger) }
        guard rename(files.tagging, record.path) == 0 else {
            return .failed(Disk.error(errno: errno, path: record.path), bytes: 0)
        }
        return .completed(bytes: Disk.size(of: record.path) ?? 0)
    }

    /// Writes the station's title, artist, album, year and cover into the file.
    private func tag(_ record: DownloadRecord, at path: String, with tagger: any SongTagging) async {
        var cover: SongTags.Cover?
        if let url = record.coverURL.flatMap(URL.init(string:)) {
            if !url.isFileURL, let answer = try? await http.document(url), !answer.body.isEmpty {
                let type = answer.header("content-type")?.lowercased() ?? ""
                cover = SongTags.Cover(data: answer.body, mimeType: type.contains("png") ? "image/png" : "image/jpeg")
            } else if url.isFileURL, let data = try? Data(contentsOf: url) {
                cover = SongTags.Cover(data: data, mimeType: url.pathExtension.lowercased() == "png" ? "image/png" : "image/jpeg")
            }
        }
        // The station's year ("2009", "2009-05-01"): its first four digits.
        let tags = SongTags(title: record.title, artist: record.artist, album: record.album,
                            year: UInt32(record.year.prefix(4)).map(Int.init), cover: cover)
        if !tagger.write(tags, to: path) {
            logger.notice("download \(record.id ?? 0): \(record.path) kept untagged (TagLib cannot write this container)")
        }
    }

    /// Copies a local file (a song of the embedded station) into the partial file.
    private func copy(_ url: URL, fd: Int32, record: DownloadRecord, files: DownloadFiles,
                      progress: @escaping @Sendable (Int64, Int64?) -> Void) async -> TransferOutcome {
        let source = open(url.path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { return .failed(.httpStatus(404), bytes: 0) }
        defer { close(source) }
        let total = Disk.size(of: source)
        _ = ftruncate(fd, 0)
        _ = lseek(fd, 0, SEEK_SET)
        let block = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 16)
        defer { buffer.deallocate() }
        var copied: Int64 = 0
        while true {
            if Task.isCancelled { return .stopped }
            let n = read(source, buffer, block)
            if n < 0 { if errno == EINTR { continue }; return .failed(Disk.error(errno: errno, path: url.path), bytes: copied) }
            if n == 0 { break }
            let code = DescriptorWriter.writeAll(UnsafeRawBufferPointer(start: buffer, count: n), to: fd)
            if code != 0 {
                return .failed(Disk.error(errno: code, path: files.part), bytes: copied)
            }
            copied += Int64(n)
            progress(copied, total)
        }
        return await verifyAndFinish(record, files: files, length: copied)
    }
}
