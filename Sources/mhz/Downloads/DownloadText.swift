import Downloads
import Foundation
import HLSPlaylist
import Store
import TerminalUI

/// Words for downloads, for the command line, headless events and the terminal UI: one
/// line per reason, saying what happened and what to do.
enum DownloadText {
    /// Whose link a download follows, which decides what to try after a failure: a
    /// station's song is downloaded again from the station (it gives a fresh link); a URL
    /// the user gave, a file or an HLS stream, is theirs to check or renew.
    enum Origin: Equatable {
        /// A song a station gave (it has a song id).
        case station
        /// A URL given on the command line: a file or an HLS stream.
        case link
    }

    /// The origin of a task's link.
    static func origin(_ record: DownloadRecord) -> Origin { record.sid == nil ? .link : .station }

    /// Why `task` failed or waits, in words for its origin; nil when it did neither.
    static func reason(_ task: DownloadTask) -> String? {
        task.state.error.map { describe($0, origin: origin(task.record)) }
    }

    /// The reason a task failed or waits: what failed (the file, a playlist, a segment by
    /// its sequence number, a key) and what to try, which for a station's song is to
    /// download it again from the station and for a URL is never the station.
    static func describe(_ error: DownloadError, origin: Origin = .link) -> String {
        let again = origin == .station ? "download the song again from the station" : nil
        switch error {
        case .httpStatus(let status) where status == 404 || status == 410:
            return "the server has no such file (HTTP \(status)): the link is gone; \(again ?? "check the URL")"
        case .httpStatus(let status) where status == 401 || status == 403:
            return "the server refused the file (HTTP \(status)): the link may have expired"
                + (again.map { "; \($0)" } ?? " or need a login; get a new link")
        case .httpStatus(let status) where error.isTransient: return "\(passing(status)): mhz retries later"
        case .httpStatus(let status): return "the server answered HTTP \(status): \(again ?? "check the URL")"
        case .notMedia(let type) where type.lowercased().contains("mpegurl"):
            return "the server sent an HLS playlist (\(type)), not a file: `mhz download --hls URL` downloads the stream"
        case .notMedia(let type):
            return "the server sent a web page (\(type)) instead of audio: the link needs a login or has expired; "
                + (again ?? "get a new link")
        case .shortBody(let got, let expected):
            return "the connection ended after \(got) of \(expected) bytes: mhz continues from there"
        case .overlong(let got, let expected):
            return "the server sent \(got) bytes but announced \(expected): the file was discarded; retry"
        case .checksumMismatch:
            return "the file does not match the station's SHA-256: it was discarded; retry"
        case .diskFull(let path): return "no space left for \(path): free some space, then retry"
        case .notWritable(let path):
            return "cannot write to \(path) (read-only or no permission): set [downloads] dir in config.toml, then retry"
        case .fileSystem(let path, let detail): return "cannot write \(path) (\(detail)): check the disk, then retry"
        case .network(let detail): return "network failure (\(detail)): mhz retries when it can"
        case .stalled(let seconds): return "the server sent nothing for \(wholeSeconds(seconds)) s: mhz retries later"
        case .rangeMismatch(let range):
            return "the server could not continue the file (Content-Range \(range)): it starts again from the beginning"
        case .invalidURL(let url): return "\(url) is not a URL mhz can download (http, https or file)"
        case .heldElsewhere: return "another mhz is downloading it"
        case .storage(let failure): return "cannot record the download (\(StoreText.words(failure))): check the data directory"
        case .noSuchTask(let id): return "there is no download \(id): `mhz downloads` lists them"
        case .notAPlaylist(let first):
            return "this is not an HLS playlist (it starts \"\(first.prefix(60))\"): check the URL"
        case .emptyPlaylist: return "the playlist lists nothing to download: check the URL"
        case .malformedPlaylist(_, let text, legacyNestedMaster):
            return "\(text.prefix(200)) \(nestedMaster)"
        case .malformedPlaylist(let line, let text, let reason):
            return "the playlist is broken at line \(line) (\(playlistRule(reason))): \"\(text.prefix(80))\""
        case .notAMediaPlaylist:
            return "the playlist \(nestedMaster)"
        case .unsupportedEncryption(let method, let format):
            let drm = format.map { " with key format \($0)" } ?? ""
            return "the stream is encrypted with \(method)\(drm), which mhz cannot decrypt (DRM): it cannot be downloaded"
        case .keyUnavailable(let uri, let status):
            let next = error.isTransient ? "mhz retries later"
                : "the stream cannot be decrypted without it; " + (again ?? "get a new link to the stream")
            return "the stream's key \(uri) answered HTTP \(status): \(next)"
        case .key(let uri, let reason):
            return "the stream's key \(uri) could not be fetched: \(describe(reason, origin: origin))"
        case .badKey(let uri, let length):
            return "the stream's key \(uri) is \(length) bytes, not 16: the key server sent something else"
        case .decryptionFailed(let sequence):
            return "segment \(sequence) does not decrypt with its key: the key or IV is wrong; nothing was kept of it"
        case .corruptSegment(let sequence):
            return "segment \(sequence) is not MPEG-TS: the server sent something else; nothing was kept of it"
        case .playlist(let url, let reason):
            return playlist(url, reason, again: again, origin: origin)
        case .segment(let sequence, let reason):
            return segment(sequence, reason, again: again, origin: origin)
        case .liveWindowPassed(let missed):
            return "the live stream moved on \(missed) segment(s) before mhz fetched them: the recording stops there"
        }
    }

    /// A playlist that failed, named, with what to try.
    private static func playlist(_ url: String, _ reason: DownloadError, again: String?, origin: Origin) -> String {
        let renew = again ?? "check the URL, or get a new link to the stream"
        switch reason {
        case .httpStatus(let status) where status == 404 || status == 410:
            return "the playlist \(url) is gone (HTTP \(status)): \(renew)"
        case .httpStatus(let status) where status == 401 || status == 403:
            return "the playlist \(url) was refused (HTTP \(status)): the link may have expired or need a login; "
                + (again ?? "get a new link to the stream")
        case .notAPlaylist(let first):
            return "\(url) is not an HLS playlist (it starts \"\(first.prefix(60))\"): \(renew)"
        case .emptyPlaylist: return "the playlist \(url) lists nothing to download: \(renew)"
        case .malformedPlaylist(_, _, legacyNestedMaster), .notAMediaPlaylist:
            return "the playlist \(url) \(nestedMaster)"
        case .malformedPlaylist(let line, let text, let rule):
            return "the playlist \(url) is broken at line \(line) (\(playlistRule(rule))): \"\(text.prefix(80))\""
        default: return "the playlist \(url) could not be fetched: \(describe(reason, origin: origin))"
        }
    }

    /// A segment that failed after its retries, by its sequence number, with what to try:
    /// the segments before it are kept, and a resume starts at it.
    private static func segment(_ sequence: Int, _ reason: DownloadError, again: String?, origin: Origin) -> String {
        switch reason {
        case .httpStatus(let status) where status == 404:
            return "segment \(sequence) is not on the server (HTTP 404) though the playlist lists it: "
                + "the segments before it are kept; resume the download to try it again"
                + (again.map { ", or \($0)" } ?? "")
        case .httpStatus(let status) where [401, 403, 410].contains(status):
            return "segment \(sequence) was refused (HTTP \(status)) even after the playlist was fetched again: "
                + "the stream's links have expired; " + (again ?? "get a new link to the stream")
        case .stalled(let seconds):
            return "segment \(sequence) sent nothing for \(wholeSeconds(seconds)) s each time it was asked: "
                + "the segments before it are kept; resume the download to try it again"
        case .network(let detail):
            return "segment \(sequence) failed each time it was asked (network failure: \(detail)): "
                + "the segments before it are kept; resume the download to try it again"
        case .httpStatus(let status) where reason.isTransient:
            return "segment \(sequence) failed each time it was asked (HTTP \(status)): "
                + "the segments before it are kept; resume the download to try it again"
        case .shortBody(let got, let expected):
            return "segment \(sequence) ended early each time it was asked (\(got) of \(expected) bytes last): "
                + "the segments before it are kept; resume the download to try it again"
        default: return "segment \(sequence): \(describe(reason, origin: origin))"
        }
    }

    /// What a status that may pass (the task waits and retries, ``DownloadError/isTransient``)
    /// says of the server: the radio's words for it (``ErrorText/answered(status:)``).
    private static func passing(_ status: Int) -> String {
        "the server \(ErrorText.answered(status: status))"
    }

    /// What a master playlist where a media playlist belongs is, after "the playlist".
    private static let nestedMaster = "is a master playlist where a media playlist belongs (a master names media "
        + "playlists, not other masters): the stream is broken; check the URL or get another link to it"

    /// The reason tasks that failed on a master playlist where a media playlist belongs kept
    /// before ``DownloadError/notAMediaPlaylist`` (line 0, the playlist's URL as its text).
    private static let legacyNestedMaster = "variantIsMaster"

    /// The RFC 8216 rule a playlist line breaks, in words: the parser's reason
    /// (``PlaylistError/Reason``, kept by its name).
    private static func playlistRule(_ reason: String) -> String {
        guard let rule = PlaylistError.Reason(rawValue: reason) else { return "a rule mhz does not know" }
        return PlaylistText.rule(rule)
    }

    /// Whole seconds of a stall, as a task's stored reason holds them: the configuration
    /// keeps them within 1–600, but a row read back may hold any number, which `Int(_:)`
    /// would trap on.
    private static func wholeSeconds(_ seconds: Double) -> String {
        Int(exactly: seconds.rounded(.towardZero)).map(String.init) ?? String(format: "%.0f", seconds)
    }

    /// `1.2 MB`, `340 kB`, `12 B`.
    static func size(_ bytes: Int64) -> String {
        let value = Double(bytes)
        if value >= 1_000_000_000 { return String(format: "%.2f GB", value / 1_000_000_000) }
        if value >= 1_000_000 { return String(format: "%.1f MB", value / 1_000_000) }
        if value >= 1000 { return String(format: "%.0f kB", value / 1000) }
        return "\(bytes) B"
    }

    /// What a task is, for a list: `Artist - Title`, else its file name.
    static func name(_ task: DownloadTask) -> String {
        let record = task.record
        if record.artist.isEmpty { return record.title.isEmpty ? URL(fileURLWithPath: record.path).lastPathComponent : record.title }
        return "\(record.artist) - \(record.title)"
    }
}
