import Foundation
import Radio
import Testing
@testable import mhz

/// `mhz history`'s line of text for a song: when, how long it was listened to (of how long
/// it is, when the history kept that), how it left, the heart, title, artist and album.
struct HistoryTextTests {
    private let start = Date(timeIntervalSince1970: 1_795_776_723)

    private func entry(length: Double, listened: Double) -> ListenEntry {
        ListenEntry(track: Track(sid: "41", title: "夜に駆ける", artist: "YOASOBI", album: "THE BOOK", length: length,
                                 liked: true, url: ""),
                    channel: "-3", startedAt: start, listened: listened, outcome: .ended)
    }

    @Test func theLineSaysHowMuchOfTheSongWasHeard() {
        #expect(HistoryText.line(entry(length: 220.4, listened: 130.4))
                == HistoryText.local(start) + "    2:10 of 3:40  ended   ♥ 夜に駆ける — YOASOBI (THE BOOK)")
    }

    /// A song kept without its length (or with none) reads as the history always told it.
    @Test func aSongOfUnknownLengthSaysHowLongItWasHeard() {
        #expect(HistoryText.line(entry(length: 0, listened: 130.4))
                == HistoryText.local(start) + "    2:10  ended   ♥ 夜に駆ける — YOASOBI (THE BOOK)")
        #expect(HistoryText.line(entry(length: .infinity, listened: .nan))
                == HistoryText.local(start) + "    0:00  ended   ♥ 夜に駆ける — YOASOBI (THE BOOK)")
    }
}
