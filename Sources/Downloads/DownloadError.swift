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
    /// mhz's database could not record the task.
    case storage(String)
    /// No task has this id.
    case noSuchTask(Int64)

    /// Whether trying again later may succeed without anyone doing anything: a network that
    /// comes back, a server that recovers, a body cut short. The task then waits and retries
    /// with backoff; every other failure stops it until the user retries.
    public var isTransient: Bool {
        switch self {
        case .network, .stalled, .shortBody, .rangeMismatch, .heldElsewhere: true
        case .httpStatus(let status): status == 408 || status == 429 || status >= 500
        default: false
        }
    }
}
