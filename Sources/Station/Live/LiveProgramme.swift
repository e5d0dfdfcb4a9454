import RadioAPI

/// What a channel aired, as `aired.json` and the feedback answer tell it
/// (docs/PROTOCOL.md §11): which song is on the air, and the entries listeners read, made
/// from the broadcast's log of songs started (``AiredRecord``) and the segments kept. The
/// one place the rule of the song on the air is written.
enum LiveProgramme {
    /// The index in `songs` (oldest first) of the song on the air: while the broadcast is
    /// on the air, the one that started last, provided no discontinuity came after the
    /// segment it started in (a run begun later airs its own songs). It stays on the air
    /// until the next song starts, even past its expected end.
    static func onAir(_ songs: [AiredRecord], segments: [LiveSegment], broadcasting: Bool) -> Int? {
        guard broadcasting, let last = songs.last else { return nil }
        // From the newest segment back to the one holding the song's start.
        for index in segments.indices.reversed() {
            guard index > segments.startIndex, segments[index - 1].end > last.start else { break }
            if segments[index].discontinuity { return nil }
        }
        return songs.count - 1
    }

    /// `aired.json`'s entries, newest first: each song with its start (no earlier than
    /// the oldest segment kept), its end and the master playlist of its segments at
    /// `base`. The song on the air (``onAir(_:segments:broadcasting:)``) ends at the later of
    /// its expected end and the newest segment's end, so that it holds the live edge, and
    /// its playlist goes on live; every other song ends where the next one started or
    /// where its run of segments broke off.
    static func entries(_ songs: [AiredRecord], segments: [LiveSegment], broadcasting: Bool, channel: String,
                        base: String) -> [AiredSong] {
        guard let first = segments.first, let last = segments.last else { return [] }
        let playing = onAir(songs, segments: segments, broadcasting: broadcasting)
        var entries: [AiredSong] = []
        for (index, song) in songs.enumerated() {
            let start = max(song.start, first.start)
            let onAir = index == playing
            let end: Int64
            if onAir {
                end = max(song.expectedEnd, last.end)
            } else {
                let runEnd = Self.runEnd(after: song.start, in: segments)
                let next = index + 1 < songs.count ? songs[index + 1].start : nil
                end = min(next ?? runEnd, runEnd)
            }
            guard end > start else { continue }
            let query = onAir ? "begintime=\(start)" : "begintime=\(start)&endtime=\(end)"
            entries.append(AiredSong(sid: song.sid, title: song.title, artist: song.artist, start: song.start, end: end,
                                     url: "\(base)/live/\(channel).m3u8?\(query)", onAir: onAir))
        }
        return entries.reversed()
    }

    /// The end of the last segment of the run that holds `moment`: the segment before the
    /// next discontinuity, or the last.
    private static func runEnd(after moment: Int64, in segments: [LiveSegment]) -> Int64 {
        var end = segments.last?.end ?? moment
        let from = segments.firstIndex { $0.end > moment } ?? segments.endIndex
        for index in segments.indices where index > from && segments[index].discontinuity {
            end = segments[index - 1].end
            break
        }
        return end
    }
}
