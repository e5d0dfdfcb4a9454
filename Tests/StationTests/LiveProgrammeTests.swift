import Foundation
import RadioAPI
import Testing
@testable import Station

/// The song on a live channel's air, and the song a moment belongs to, as the station
/// writes `aired.json` and a listener reads it (docs/PROTOCOL.md §11): one rule, so the
/// listener's reading of the list agrees with what the station says is on the air.
struct LiveProgrammeTests {
    /// Five segments of 2 s from 1 000 000 ms, the fourth after a break when `breakAt` says.
    static func segments(discontinuityAt breakAt: Int? = nil) -> [LiveSegment] {
        (0..<5).map { index in
            LiveSegment(sequence: 10 + index, start: 1_000_000 + Int64(index) * 2_000, duration: 2, title: "",
                        discontinuity: index == breakAt, era: index >= (breakAt ?? .max) ? 1 : 0, cue: nil)
        }
    }

    /// A aired from 1 000 500 until B started; B expected to end at 1 008 000 (4 s), its
    /// audio still on the air at the newest segment's end, 1 010 000.
    static let songs = [
        AiredRecord(sid: "1", title: "A", artist: "a", start: 1_000_500, length: 30_000),
        AiredRecord(sid: "2", title: "B", artist: "b", start: 1_004_000, length: 4_000),
    ]

    /// The list as a listener reads it: encoded as the station answers, decoded as mhz does.
    static func read(_ songs: [AiredRecord], _ segments: [LiveSegment], broadcasting: Bool) throws -> (Data, [AiredSong]) {
        let entries = LiveProgramme.entries(songs, segments: segments, broadcasting: broadcasting, channel: "4",
                                            base: "http://h")
        let body = JSONResponse.reply(AiredList(songs: entries)).body
        return (body, try APIDecoder.answer(AiredList.self, from: body).songs)
    }

    @Test("a song whose audio runs past its declared length stays on the air up to the live edge: the listener hears it, and the station says it is on the air")
    func pastItsExpectedEnd() throws {
        let segments = Self.segments()
        let (body, aired) = try Self.read(Self.songs, segments, broadcasting: true)
        #expect(String(decoding: body, as: UTF8.self) == #"{"songs":["#
                    + #"{"artist":"b","end":1010000,"on_air":true,"sid":"2","start":1004000,"title":"B","#
                    + #""url":"http://h/live/4.m3u8?begintime=1004000"},"#
                    + #"{"artist":"a","end":1004000,"on_air":false,"sid":"1","start":1000500,"title":"A","#
                    + #""url":"http://h/live/4.m3u8?begintime=1000500&endtime=1004000"}]}"#)
        // A moment of the newest segment, past B's expected end.
        let heard = AiredSong.heard(at: 1_009_000, in: aired)
        #expect(heard?.sid == "2" && heard?.onAir == true)
        // The station's song on the air (the feedback answer's `on_air`) is the same one.
        let onAir = try #require(LiveProgramme.onAir(Self.songs, segments: segments, broadcasting: true))
        #expect(Self.songs[onAir].sid == heard?.sid)
        // Every moment aired belongs to one song: A's until B starts, B's after.
        #expect(AiredSong.heard(at: 1_003_999, in: aired)?.sid == "1")
        #expect(AiredSong.heard(at: 1_004_000, in: aired)?.sid == "2")
        #expect(AiredSong.heard(at: 1_010_000, in: aired) == nil)
    }

    @Test("a song on the air whose length is unknown is listed, holding the live edge")
    func unknownLength() throws {
        let songs = [AiredRecord(sid: "3", title: "C", artist: "c", start: 1_002_000, length: 0)]
        let (_, aired) = try Self.read(songs, Self.segments(), broadcasting: true)
        #expect(aired == [AiredSong(sid: "3", title: "C", artist: "c", start: 1_002_000, end: 1_010_000,
                                    url: "http://h/live/4.m3u8?begintime=1002000", onAir: true)])
    }

    @Test("off the air, or after a break since it started, no song is on the air: the newest ends with its run")
    func offTheAirAndAfterABreak() throws {
        let (_, off) = try Self.read(Self.songs, Self.segments(), broadcasting: false)
        #expect(off.map(\.onAir) == [false, false] && off.first?.end == 1_010_000)
        #expect(LiveProgramme.onAir(Self.songs, segments: Self.segments(), broadcasting: false) == nil)
        // B started in the third segment; the fourth came after a break.
        let broken = Self.segments(discontinuityAt: 3)
        let (_, after) = try Self.read(Self.songs, broken, broadcasting: true)
        #expect(after.map(\.onAir) == [false, false] && after.first?.end == 1_006_000)
        #expect(LiveProgramme.onAir(Self.songs, segments: broken, broadcasting: true) == nil)
        // A break before its start leaves it on the air.
        #expect(LiveProgramme.onAir(Self.songs, segments: Self.segments(discontinuityAt: 2), broadcasting: true) == 1)
    }
}
