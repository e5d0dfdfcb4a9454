import Downloads
import Foundation
import Store
import Testing
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
            == "the playlist \(playlist) could not be fetched: the server failed (HTTP 503): mhz retries later")
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
        #expect(DownloadText.describe(.segment(sequence: 12, reason: .stalled(seconds: 30)))
            == "segment 12: the server sent nothing for 30 s: mhz retries later")
        #expect(DownloadText.describe(.keyUnavailable(uri: key, status: 404))
            == "the stream's key \(key) answered HTTP 404: the stream cannot be decrypted without it; get a new link to the stream")
        #expect(DownloadText.describe(.key(uri: key, reason: .network(detail: "Connection refused")))
            == "the stream's key \(key) could not be fetched: network failure (Connection refused): mhz retries when it can")
        for error: DownloadError in [.playlist(url: playlist, reason: .httpStatus(404)), .segment(sequence: 1, reason: .httpStatus(404)),
                                     .segment(sequence: 1, reason: .httpStatus(410)), .keyUnavailable(uri: key, status: 403)] {
            #expect(!DownloadText.describe(error).contains("station"), "\(error)")
        }
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
