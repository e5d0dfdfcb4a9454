import Foundation
import Testing
@testable import RadioAPI

/// The live channels' JSON bodies (docs/PROTOCOL.md §11) as the station writes them and a
/// listener reads them: the field names on the wire, `r`, and what an older station leaves out.
struct LiveWireTests {
    /// The station's encoder's options (sorted keys, slashes as they are).
    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func theFeedbackAnswerCarriesRZeroAndAnOlderStationsAnswerHasNoEnded() throws {
        let answer = LiveFeedbackAnswer(sid: "7", type: .skip, onAir: true, votes: 2, listeners: 3, ending: true)
        #expect(try Self.encoded(answer)
                    == #"{"ended":false,"ending":true,"listeners":3,"on_air":true,"r":0,"sid":"7","type":"s","votes":2}"#)
        let older = Data(#"{"r":0,"sid":"7","type":"b","on_air":false,"votes":0,"listeners":0,"ending":false}"#.utf8)
        #expect(try APIDecoder.answer(LiveFeedbackAnswer.self, from: older)
                    == LiveFeedbackAnswer(sid: "7", type: .ban, onAir: false, votes: 0, listeners: 0, ending: false))
    }

    @Test func anAiredEntryKeepsItsWireNames() throws {
        let song = AiredSong(sid: "7", title: "T", artist: "A", start: 1, end: 2, url: "http://h/live/4.m3u8?begintime=1",
                             onAir: true)
        let text = try Self.encoded(AiredList(songs: [song]))
        #expect(text == #"{"songs":[{"artist":"A","end":2,"on_air":true,"sid":"7","start":1,"title":"T","#
                    + #""url":"http://h/live/4.m3u8?begintime=1"}]}"#)
        #expect(try APIDecoder.answer(AiredList.self, from: Data(text.utf8)).songs == [song])
    }

    @Test func aRefusalWritesOnlyWhatItHas() throws {
        #expect(try Self.encoded(LiveRefusal(err: "rate_limited", retryAfter: 4)) == #"{"err":"rate_limited","r":1,"retry_after":4}"#)
        let range = LiveRefusal(err: "out_of_range", message: "m", available: .init(begintime: 1, endtime: 2))
        #expect(try Self.encoded(range)
                    == #"{"available":{"begintime":1,"endtime":2},"err":"out_of_range","message":"m","r":1}"#)
        #expect(try APIDecoder.answer(LiveRefusal.self, from: Data(#"{"err":"unknown_listener","r":1}"#.utf8))
                    == LiveRefusal(err: "unknown_listener"))
    }
}
