import Downloads
import Foundation
import HTTP
import Store
import Testing
import TestSupport
@testable import mhz

/// The words for a failed download name what failed — the file, a playlist, a segment by
/// its sequence number, a key — and what to try; only a station's song is sent back to
/// the station.
struct DownloadTextTests {
    static let playlist = "https://cdn.example/radio/index.m3u8"
    static let key = "https://keys.example/k1.key"

    @Test func aStationSongsGoneLinkIsDownloadedAgainFromTheStation() {
        #expect(DownloadText.describe(.httpStatus(404), origin: .station)
            == "the server has no such file (HTTP 404): the link is gone; download the song again from the station")
        #expect(DownloadText.describe(.httpStatus(410), origin: .station)
            == "the server has no such file (HTTP 410): the link is gone; download the song again from the station")
        #expect(DownloadText.describe(.httpStatus(403), origin: .station)
            == "the server refused the file (HTTP 403): the link may have expired; download the song again from the station")
    }

    @Test func aPlainURLsFailureNeverSpeaksOfTheStation() {
        #expect(DownloadText.describe(.httpStatus(404), origin: .link)
            == "the server has no such file (HTTP 404): the link is gone; check the URL")
        #expect(DownloadText.describe(.httpStatus(403), origin: .link)
            == "the server refused the file (HTTP 403): the link may have expired or need a login; get a new link")
        #expect(DownloadText.describe(.notMedia(contentType: "text/html"), origin: .link)
            == "the server sent a web page (text/html) instead of audio: the link needs a login or has expired; get a new link")
        for error: DownloadError in [.httpStatus(404), .httpStatus(401), .httpStatus(400), .notMedia(contentType: "text/html")] {
            #expect(!DownloadText.describe(error, origin: .link).contains("station"), "\(error)")
        }
    }

    @Test func anHLSFailureNamesThePlaylistTheSegmentOrTheKey() {
        let playlist = Self.playlist, key = Self.key
        #expect(DownloadText.describe(.playlist(url: playlist, reason: .httpStatus(404)))
            == "the playlist \(playlist) is gone (HTTP 404): check the URL, or get a new link to the stream")
        #expect(DownloadText.describe(.playlist(url: playlist, reason: .httpStatus(403)))
            == "the playlist \(playlist) was refused (HTTP 403): the link may have expired or need a login; get a new link to the stream")
        #expect(DownloadText.describe(.playlist(url: playlist, reason: .httpStatus(503)))
            == "the playlist \(playlist) could not be fetched: the server is busy (HTTP 503): mhz retries later")
        #expect(DownloadText.describe(.playlist(url: playlist, reason: .notAPlaylist(firstLine: "<!DOCTYPE html>")))
            == "\(playlist) is not an HLS playlist (it starts \"<!DOCTYPE html>\"): check the URL, or get a new link to the stream")
        #expect(DownloadText.describe(.playlist(url: playlist, reason: .malformedPlaylist(line: 3, text: "#EXT-X-KEY:IV=0x1", reason: "badIV")))
            == "the playlist \(playlist) is broken at line 3 (an IV that is not 32 hex digits): \"#EXT-X-KEY:IV=0x1\"")
        #expect(DownloadText.describe(.playlist(url: playlist, reason: .emptyPlaylist))
            == "the playlist \(playlist) lists nothing to download: check the URL, or get a new link to the stream")
        #expect(DownloadText.describe(.segment(sequence: 7797, reason: .httpStatus(404)))
            == "segment 7797 is not on the server (HTTP 404) though the playlist lists it: the segments before it are kept; "
            + "resume the download to try it again")
        #expect(DownloadText.describe(.segment(sequence: 12, reason: .httpStatus(403)))
            == "segment 12 was refused (HTTP 403) even after the playlist was fetched again: the stream's links have expired; "
            + "get a new link to the stream")
        // A segment's failure comes after its tries: mhz does not retry it later by itself.
        #expect(DownloadText.describe(.segment(sequence: 12, reason: .stalled(seconds: 30)))
            == "segment 12 sent nothing for 30 s each time it was asked: the segments before it are kept; "
            + "resume the download to try it again")
        #expect(DownloadText.describe(.segment(sequence: 12, reason: .httpStatus(503)))
            == "segment 12 failed each time it was asked (HTTP 503): the segments before it are kept; "
            + "resume the download to try it again")
        #expect(DownloadText.describe(.segment(sequence: 12, reason: .network(detail: "Connection refused")))
            == "segment 12 failed each time it was asked (network failure: Connection refused): the segments before it are kept; "
            + "resume the download to try it again")
        #expect(DownloadText.describe(.keyUnavailable(uri: key, status: 404))
            == "the stream's key \(key) answered HTTP 404: the stream cannot be decrypted without it; get a new link to the stream")
        #expect(DownloadText.describe(.key(uri: key, reason: .network(detail: "Connection refused")))
            == "the stream's key \(key) could not be fetched: network failure (Connection refused): mhz retries when it can")
        for error: DownloadError in [.playlist(url: playlist, reason: .httpStatus(404)), .segment(sequence: 1, reason: .httpStatus(404)),
                                     .segment(sequence: 1, reason: .httpStatus(410)), .keyUnavailable(uri: key, status: 403)] {
            #expect(!DownloadText.describe(error).contains("station"), "\(error)")
        }
    }

    /// The words say "mhz retries later" exactly when the task does wait and retry
    /// (`DownloadError.isTransient`, by `Backoff`'s one rule): a file's, a key's and a
    /// playlist's status alike, 408 (a "not now") among them.
    @Test func theWordsPromiseARetryExactlyWhenOneComes() {
        for status in Array(400...431) + [451, 499, 500, 501, 502, 503, 504, 505, 507, 599] {
            for error: DownloadError in [.httpStatus(status), .keyUnavailable(uri: Self.key, status: status),
                                         .playlist(url: Self.playlist, reason: .httpStatus(status))] {
                for origin: DownloadText.Origin in [.station, .link] {
                    #expect(DownloadText.describe(error, origin: origin).hasSuffix(": mhz retries later") == error.isTransient,
                            "\(error) from \(origin): \(DownloadText.describe(error, origin: origin))")
                }
            }
        }
        #expect(DownloadText.describe(.httpStatus(408))
            == "the server timed out waiting for the request (HTTP 408): mhz retries later")
        #expect(DownloadText.describe(.keyUnavailable(uri: Self.key, status: 408))
            == "the stream's key \(Self.key) answered HTTP 408: mhz retries later")
    }

    /// Served for real and read by the planner: a master playlist whose variant is another
    /// master, and a media playlist whose sequence number is too large to count segments
    /// from. Their lines name the playlist and the tag at fault in words, not the parser's
    /// names for them, and no line 0.
    @Test func aBrokenStreamIsToldInWordsAtItsLine() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-download-text")
        defer { folder.remove() }
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000\nvariant.m3u8\n"
        try Data(master.utf8).write(to: folder.path("master.m3u8"))
        try Data(master.utf8).write(to: folder.path("variant.m3u8"))
        let sequence = "#EXT-X-MEDIA-SEQUENCE:9223372036854775807"
        try Data("#EXTM3U\n\(sequence)\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n".utf8).write(to: folder.path("huge.m3u8"))
        let server = try FaultyMediaServer(root: folder.url)
        defer { server.stop() }
        let planner = HLSPlanner(http: HTTPClient(configuration: .init(retry: .never)))
        func words(_ name: String) async -> String {
            guard let url = URL(string: server.url(name)) else { return "no URL" }
            do {
                _ = try await planner.plan(url, quality: .best, audioLanguage: nil)
                return "planned"
            } catch {
                return DownloadText.describe(error)
            }
        }
        #expect(await words("master.m3u8") == "the playlist \(server.url("variant.m3u8")) is a master playlist where a media "
            + "playlist belongs (a master names media playlists, not other masters): the stream is broken; "
            + "check the URL or get another link to it")
        #expect(await words("huge.m3u8") == "the playlist \(server.url("huge.m3u8")) is broken at line 2 "
            + "(a value that must be a whole number is not one, or is too large): \"\(sequence)\"")
        // What a task kept before the case of its own still reads as words.
        #expect(DownloadText.describe(.playlist(url: Self.playlist, reason: .malformedPlaylist(
            line: 0, text: Self.playlist, reason: "variantIsMaster")))
            == "the playlist \(Self.playlist) is a master playlist where a media playlist belongs (a master names media "
            + "playlists, not other masters): the stream is broken; check the URL or get another link to it")
    }

    @Test func aStationSongsStreamIsDownloadedAgainFromTheStation() {
        #expect(DownloadText.describe(.playlist(url: Self.playlist, reason: .httpStatus(404)), origin: .station)
            == "the playlist \(Self.playlist) is gone (HTTP 404): download the song again from the station")
        #expect(DownloadText.describe(.segment(sequence: 4, reason: .httpStatus(404)), origin: .station)
            == "segment 4 is not on the server (HTTP 404) though the playlist lists it: the segments before it are kept; "
            + "resume the download to try it again, or download the song again from the station")
    }

    @Test func aTasksReasonIsWordedForWhereItsLinkCameFrom() {
        let song = DownloadRecord(url: "http://station.example/media/1.mp3", title: "Song", artist: "Artist", sid: "1",
                                  path: "/tmp/Song.mp3")
        let stream = DownloadRecord(kind: .hls, url: Self.playlist, title: "index", artist: "", path: "/tmp/index.ts")
        #expect(DownloadText.reason(DownloadTask(record: song, state: .failed(.httpStatus(404))))
            == "the server has no such file (HTTP 404): the link is gone; download the song again from the station")
        #expect(DownloadText.reason(DownloadTask(record: stream, state: .failed(.httpStatus(404))))
            == "the server has no such file (HTTP 404): the link is gone; check the URL")
        #expect(DownloadText.reason(DownloadTask(record: stream, state: .completed)) == nil)
    }
}
