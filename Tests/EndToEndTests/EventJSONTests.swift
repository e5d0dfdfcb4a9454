import Foundation
import Radio
import Testing
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
