import Backoff
import Store

/// Why a download failed or waits: the downloads layer's one error type. Each case is one
/// reason a user can act on; the command line and the terminal UI put it into words.
///
/// Codable so that a failed task keeps its reason across restarts (stored as JSON in the
/// task's row).
public enum DownloadError: Error, Sendable, Equatable, Codable {
    /// The server answered with an error status (404 gone, 403 refused, 5xx broken).
    case httpStatus(Int)
    /// The server answered 200 with something that is not media: an HTML page (a login
    /// wall, a captive portal, an error page). `contentType` is what it said it sent.
    case notMedia(contentType: String)
    /// The body ended before the length the server announced. The bytes that came are kept
    /// and the next attempt continues after them.
    case shortBody(got: Int64, expected: Int64)
    /// More bytes arrived than the server announced: the file is discarded.
    case overlong(got: Int64, expected: Int64)
    /// The finished file's SHA-256 is not the one the station gave: it is discarded.
    case checksumMismatch(expected: String, actual: String)
    /// The disk (or the quota, or the process's file-size limit) is full at `path`.
    case diskFull(path: String)
    /// The download directory cannot be written (read-only, no permission).
    case notWritable(path: String)
    /// Another file-system failure at `path`: `errno`'s name and words.
    case fileSystem(path: String, detail: String)
    /// No answer: the connection failed or broke. `detail` is libcurl's words.
    case network(detail: String)
    /// The server sent nothing for the stall timeout.
    case stalled(seconds: Double)
    /// A resume got a range other than the one asked for; the partial file was dropped and
    /// the next attempt starts from the beginning.
    case rangeMismatch(answered: String)
    /// The task's URL is not one mhz can fetch.
    case invalidURL(String)
    /// Another mhz process is downloading this task right now (it holds the partial file's lock).
    case heldElsewhere
    /// mhz's database could not record the task or how far it got.
    case storage(StoreError)
    /// No task has this id.
    case noSuchTask(Int64)
    /// What came for an HLS playlist is not one: an HTML page, no `#EXTM3U`, binary.
    /// `firstLine` is the start of what came.
    case notAPlaylist(firstLine: String)
    /// An empty answer where a playlist was expected, or a playlist with no variant or no
    /// segment to download.
    case emptyPlaylist
    /// The playlist breaks RFC 8216 where mhz cannot guess: `line` (1-based) reads `text`;
    /// `reason` names the rule (the HLS parser's reason, e.g. `missingURI`, `badIV`).
    case malformedPlaylist(line: Int, text: String, reason: String)
    /// A master playlist came where a media playlist belongs (a master's variant or
    /// rendition, the playlist of a resume or a live reload): RFC 8216 has a master name
    /// media playlists only.
    case notAMediaPlaylist
    /// The stream is encrypted in a way mhz does not decrypt (SAMPLE-AES, a DRM key format).
    case unsupportedEncryption(method: String, keyFormat: String?)
    /// An AES-128 key answered with an error status.
    case keyUnavailable(uri: String, status: Int)
    /// An AES-128 key could not be fetched at all: `reason` is the network's failure (a
    /// stall, a refused connection). An answer with an error status is ``keyUnavailable(uri:status:)``.
    indirect case key(uri: String, reason: DownloadError)
    /// The HLS playlist at `url` (the one asked for, a variant's or a rendition's) failed
    /// for `reason`: its HTTP status, the network, or what came instead of a playlist.
    indirect case playlist(url: String, reason: DownloadError)
    /// An AES-128 key that is not 16 bytes (an error page, a wrong URI).
    case badKey(uri: String, length: Int)
    /// A segment did not decrypt (its padding is wrong: the wrong key or IV).
    case decryptionFailed(sequence: Int)
    /// A segment that should be MPEG-TS is not (no sync byte every 188 bytes).
    case corruptSegment(sequence: Int)
    /// Segment `sequence` failed for `reason`, after its retries: the task keeps every
    /// segment before it and continues there.
    indirect case segment(sequence: Int, reason: DownloadError)
    /// A live playlist moved on past `missed` segments before they were fetched: recording
    /// on would leave a gap, so the recording stops with what it has.
    case liveWindowPassed(missed: Int)

    /// Whether trying again later may succeed without anyone doing anything: a network that
    /// comes back, a server that recovers (a status that `Backoff`'s one rule says may pass,
    /// ``StatusVerdict/mayPassLater``: "not now" or a server error), a body cut short. The
    /// task then waits and retries
    /// with backoff; every other failure stops it until the user retries. A segment's
    /// failure is never passing: it comes after the segment's own tries (``SegmentFetcher``),
    /// so the task fails naming it, its segments before it kept for a resume.
    public var isTransient: Bool {
        switch self {
        case .network, .stalled, .shortBody, .rangeMismatch, .heldElsewhere: true
        case .httpStatus(let status), .keyUnavailable(_, let status): StatusVerdict(status: status).mayPassLater
        case .segment: false
        case .playlist(_, let reason), .key(_, let reason): reason.isTransient
        default: false
        }
    }
}
