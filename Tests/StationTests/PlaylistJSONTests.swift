import Foundation
import RadioAPI
@testable import Station
import Testing

/// The station's hand-written playlist JSON is byte for byte what Foundation's encoder
/// writes for the same answer with the station's options.
@Suite("Playlist JSON")
struct PlaylistJSONTests {
    private static let songs = [
        Song(sid: "280187", ssid: "0375", aid: "1421922", title: "Free \"Loop\"\\", artist: "Daniel Powter / B.o.B",
             album: "/subject/1421922/", albumTitle: "月光小路 \u{1F3B5}", picture: "http://img3.douban.com/mpic/s1661548.jpg",
             url: "http://127.0.0.1:7650/media/280187-128k.mp3", length: 228, like: true, publicTime: "2006",
             company: "Warner\n\t\u{01}", ratingAverage: 4.31568, kbps: 128, subtype: "",
             reason: "you liked two songs by \"B.o.B\" / 月光", gain: -6.3),
        Song(sid: "2", title: "Two", artist: "", url: "file:///tmp/a%20b.mp3", length: 0, ratingAverage: 4.0, gain: 0),
        Song(sid: "3", title: "Three", artist: "x", url: "u", length: 7, ratingAverage: 3.5, kbps: nil,
             sha256: String(repeating: "ab", count: 32), gain: 12),
        Song(sid: "4", title: "Four", artist: "y", url: "v", length: 8, gain: 0.1),
    ]

    private func foundation(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    @Test("every envelope the station sends, with escapes, non-ASCII, whole and fractional ratings and gains")
    func sameBytes() throws {
        let playlists = [
            SongList(songs: Self.songs, versionMax: 100, loggedOut: true),
            SongList(songs: Self.songs, versionMax: 100),
            SongList(songs: [], versionMax: nil, warning: "user_is_ananymous", showQuickStart: 1),
            SongList(songs: Self.songs, versionMax: 100, loggedOut: true, warning: "user_is_ananymous", showQuickStart: 0),
        ]
        for playlist in playlists {
            let ours = PlaylistJSON.encode(playlist)
            #expect(String(decoding: ours, as: UTF8.self) == String(decoding: try foundation(playlist), as: UTF8.self))
        }
        struct Liked: Encodable {
            let r = 0
            let songs: [Song]
        }
        #expect(String(decoding: PlaylistJSON.encode(likedSongs: Self.songs), as: UTF8.self)
                == String(decoding: try foundation(Liked(songs: Self.songs)), as: UTF8.self))
    }
}
