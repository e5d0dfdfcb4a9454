import Foundation
import Radio
import Testing
@testable import Companions
@testable import mhz

/// Headless JSON for reconnections: scripts see a broken stream being reloaded, both as
/// events and in the answer to `status`, with the same words as the terminal's status line.
struct EventJSONTests {
    let track = Track(sid: "7", title: "Song 7", artist: "Artist 7", album: "Album 7", length: 30, url: "http://s/7.mp3")

    @Test func reconnectingAndReconnectedAreEvents() {
        #expect(EventJSON.line(.reconnecting(track, attempt: 2, of: 4))
            == #"{"album":"Album 7","artist":"Artist 7","attempt":2,"event":"reconnecting","of":4,"sid":"7","title":"Song 7"}"#)
        #expect(EventJSON.line(.reconnected(track))
            == #"{"album":"Album 7","artist":"Artist 7","event":"reconnected","sid":"7","title":"Song 7"}"#)
    }

    /// `going_live` names the broadcast the radio ended for; a vote that came once the song
    /// was over on the air says `ended`, others leave it out.
    @Test func goingLiveAndAnEndedVote() {
        #expect(EventJSON.line(.goingLive(ChannelInfo(id: "3", name: "Folk", live: true)))
            == #"{"event":"going_live","id":"3","name":"Folk"}"#)
        // Back to the radio: on the channel it played, or on the one chosen.
        #expect(EventJSON.line(.goingRadio(nil)) == #"{"event":"going_radio"}"#)
        #expect(EventJSON.line(.goingRadio("-3")) == #"{"event":"going_radio","id":"-3"}"#)
        let ended = LiveTally(sid: "7", type: .skip, onAir: false, votes: 0, listeners: 0, ending: false, ended: true)
        #expect(EventJSON.line(.voted(track, type: .skip, ended))
            == #"{"album":"Album 7","artist":"Artist 7","ended":true,"ending":false,"event":"voted","listeners":0,"#
            + #""on_air":false,"sid":"7","title":"Song 7","type":"s","votes":0}"#)
        let counted = LiveTally(sid: "7", type: .skip, onAir: true, votes: 1, listeners: 2, ending: false)
        #expect(!EventJSON.line(.voted(track, type: .skip, counted)).contains("ended"))
    }

    @Test func statusCarriesTheReconnectionAndTheStatusLine() {
        var snapshot = RadioSnapshot(channel: ChannelInfo(id: "0", name: "Personal"), track: track, position: 12.34,
                                     duration: 30, queueLength: 2)
        #expect(EventJSON.line(.status(snapshot)) == #"{"channel":"0","channel_name":"Personal","duration":30,"#
            + #""event":"status","paused":false,"position":12.3,"queue":2,"sid":"7","title":"Song 7","volume":100}"#)
        snapshot.reconnecting = Reconnection(attempt: 2, maxAttempts: 4)
        #expect(EventJSON.line(.status(snapshot)) == #"{"channel":"0","channel_name":"Personal","duration":30,"#
            + #""event":"status","paused":false,"position":12.3,"queue":2,"reconnecting":{"attempt":2,"of":4},"#
            + #""sid":"7","status_text":"Reconnecting (attempt 2 of 4)…","title":"Song 7","volume":100}"#)
    }
}

/// The headless line writer gives exactly the bytes Foundation's `JSONSerialization`
/// (sorted keys, slashes unescaped) gives, for awkward text and numbers alike.
struct EventJSONWriterTests {
    @Test func linesAreByteForByteWhatJSONSerializationWrites() throws {
        let texts = ["plain", "quote \" and backslash \\", "slash / stays", "new\nline\ttab\rreturn",
                     "\u{01}\u{08}\u{0C}\u{1F} control", "私人兆赫 Ça 🎵", ""]
        let numbers: [Double] = [0, 30, -3, 12.3, 0.1, 1e-5, 123_456_789, 41.04, 2.5e20]
        for text in texts {
            for number in numbers {
                let fields: [String: EventValue] = ["event": .string(text), "z_num": .number(number), "a_flag": .bool(true),
                                                    "nested": .object(["of": .number(number), "at": .string(text)])]
                let foundation: [String: Any] = ["event": text, "z_num": number, "a_flag": true,
                                                 "nested": ["of": number, "at": text]]
                var ours = ""
                EventValue.object(fields).write(to: &ours)
                let theirs = try JSONSerialization.data(withJSONObject: foundation, options: [.sortedKeys, .withoutEscapingSlashes])
                #expect(ours == String(decoding: theirs, as: UTF8.self), "\(text) \(number)")
            }
        }
    }
}

/// Log lines are stamped in UTC to the second, as Foundation's ISO 8601 style writes them.
struct LogTimestampTests {
    @Test func theStampIsFoundationsISO8601() {
        #expect(FileLogHandler.timestamp(1_764_000_000) == "2025-11-24T16:00:00Z")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let seconds = Int.random(in: 0...4_102_444_800, using: &generator)
            #expect(FileLogHandler.timestamp(seconds)
                    == Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601), "\(seconds)")
        }
    }
}
