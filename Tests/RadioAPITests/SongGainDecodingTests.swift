import Foundation
import Testing
@testable import RadioAPI

/// A song's `gain` (dB still to apply to its audio, an mhz station's extension): read when
/// it is a believable number, ignored otherwise without losing the song, written only
/// when there is one.
struct SongGainDecodingTests {
    /// A song object with `gain` spelled `value` (JSON text), or without it.
    private static func song(gain value: String?) throws -> Song {
        let gain = value.map { ", \"gain\": \($0)" } ?? ""
        let json = "{\"sid\": \"7\", \"url\": \"http://s/m/7.flac\", \"title\": \"T\", \"artist\": \"A\"\(gain)}"
        return try JSONDecoder().decode(Song.self, from: Data(json.utf8))
    }

    @Test("a number or numeric string within ±60 dB is the gain")
    func read() throws {
        #expect(try Self.song(gain: "-6.3").gain == -6.3)
        #expect(try Self.song(gain: "0").gain == 0)
        #expect(try Self.song(gain: "\"4.5\"").gain == 4.5)
        #expect(try Self.song(gain: "60").gain == 60)
        #expect(try Self.song(gain: nil).gain == nil)
        #expect(try Self.song(gain: "null").gain == nil)
    }

    @Test("a gain out of bounds or of the wrong type is not believed, and the song still decodes")
    func notBelieved() throws {
        for bad in ["60.1", "-1e308", "1e400", "\"loud\"", "{}", "[1]", "true", "\"\""] {
            let song = try Self.song(gain: bad)
            #expect(song.gain == nil && song.sid == "7" && song.url == "http://s/m/7.flac", "\(bad)")
        }
    }

    @Test("encoding writes gain only when there is one")
    func written() throws {
        var song = Song(sid: "7", title: "T", artist: "A", url: "u", length: 1)
        #expect(!String(decoding: try JSONEncoder().encode(song), as: UTF8.self).contains("gain"))
        song.gain = -2.5
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(song)) as? [String: Any]
        #expect((object?["gain"] as? NSNumber)?.doubleValue == -2.5)
        #expect(try JSONDecoder().decode(Song.self, from: try JSONEncoder().encode(song)).gain == -2.5)
    }
}
