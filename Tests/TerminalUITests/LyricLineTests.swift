import Radio
import Testing
@testable import TerminalUI

/// The lyric line being sung, on the now-playing screen.
struct LyricLineTests {
    static func snapshot(lyric: String?) -> RadioSnapshot {
        var snapshot = RadioSnapshot(track: Track(sid: "1", title: "Song", artist: "Artist", url: "file:///s.mp3"),
                                     position: 3, duration: 60)
        snapshot.lyricLine = lyric
        return snapshot
    }

    @Test func theLineShowsUnderTheSongFittedToTheWidthWithWideCharactersCountedTwice() {
        let lines = NowPlayingView.render(Self.snapshot(lyric: "夜曲夜曲夜曲夜曲夜曲夜曲 and more words"), width: 20, height: 16)
        let lyric = try? #require(lines.first { $0.contains("夜曲") })
        #expect(lyric.map { DisplayWidth.width(of: $0) <= 20 } == true, "\(lines)")
        #expect(lyric?.hasPrefix(" 夜曲夜曲") == true, "\(lines)")
        #expect(!NowPlayingView.render(Self.snapshot(lyric: nil), width: 20, height: 16).contains { $0.contains("夜曲") })
    }
}
