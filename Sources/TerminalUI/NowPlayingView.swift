import Foundation
import Radio

/// The main screen as a pure function of a `RadioSnapshot`: channel and play state on
/// top, the song (title with its heart, artist, album · year · kbps, and why the station
/// chose it when the station says), the progress bar
/// with elapsed / total, volume and queue, then the status line (a note from the UI such
/// as who just logged in, else the current problem in words, or "Loading…") and a hint
/// line generated from the key table at the bottom.
///
/// Every line is exactly `width` columns and there are exactly `height` lines, so the
/// screen can be compared as text in tests. When the terminal is short, spacers go
/// first, then the least useful lines; title, progress and a reported problem stay.
///
/// With a `CoverArea` the song's lines move right of it and the area is left blank:
/// the cover is not text, so the screen draws it over the frame.
public enum NowPlayingView {
    /// Glyph for a liked song.
    public static let likedMark = "♥"
    /// Glyph for a song not liked.
    public static let notLikedMark = "♡"

    /// The screen as plain lines.
    public static func render(_ snapshot: RadioSnapshot, width: Int, height: Int,
                              keymap: Keymap = .standard, note: String? = nil) -> [String] {
        frame(snapshot, width: width, height: height, keymap: keymap, note: note).lines
    }

    /// The screen with a style per line, for `TerminalScreen`. `note` is a message of the
    /// UI's own (a login that succeeded) shown on the status line instead of the radio's.
    public static func frame(_ snapshot: RadioSnapshot, width: Int, height: Int,
                             keymap: Keymap = .standard, note: String? = nil) -> Frame {
        frame(snapshot, width: width, height: height, keymap: keymap, note: note, cover: nil)
    }

    /// The screen with room for a cover in `cover` (nil: the screen as without covers).
    static func frame(_ snapshot: RadioSnapshot, width: Int, height: Int,
                      keymap: Keymap = .standard, note: String? = nil, cover: CoverArea?) -> Frame {
        let margin = Frame.margin(width: width)
        let inner = max(0, width - 2 * margin)
        let indent = String(repeating: " ", count: margin)
        // The song's lines, beside the cover when there is one.
        let songIndent = cover.map { String(repeating: " ", count: $0.textColumn) } ?? indent
        let songColumns = cover.map { max(0, width - $0.textColumn - margin) } ?? inner
        let track = snapshot.track

        let state = snapshot.live.map { "\(stateWord(snapshot)) · \(liveText($0))" } ?? stateWord(snapshot)
        let header = DisplayWidth.spread(" " + (snapshot.channel?.name ?? "mhz"), state + " ", to: width)
        var top = [
            FrameLine(text: header, style: .header, priority: 3),
            .spacer,
            FrameLine(text: songIndent + titleLine(track, columns: songColumns), style: .title, priority: 10),
            FrameLine(text: songIndent + (track?.artist ?? ""), priority: 8),
            FrameLine(text: songIndent + albumLine(track), style: .dim, priority: 4),
            .spacer,
            FrameLine(text: songIndent + progressLine(snapshot, columns: songColumns), style: .bar, priority: 9),
            // A live channel has no queue: the broadcast chooses.
            FrameLine(text: songIndent + "vol \(snapshot.volume)%"
                          + (snapshot.live.map { live in live.vote.map { "  ·  " + voteText($0) } ?? "" }
                             ?? "  ·  \(snapshot.queueLength) queued"),
                      style: .dim, priority: 2),
        ]
        if let lyric = snapshot.lyricLine, track != nil {
            // The line being sung, fitted to the width as titles are (wide characters count two).
            top += [.spacer, FrameLine(text: songIndent + DisplayWidth.truncate(lyric, to: songColumns), style: .title,
                                       priority: 7)]
        }
        if track == nil {
            // Nothing to describe: keep the layout steady, but let these blanks go first.
            top[3].priority = 1
            top[4].priority = 1
        } else if let reason = track?.reason, !reason.isEmpty {
            // Why the station chose the song, under the album, when the station says.
            top.insert(FrameLine(text: songIndent + reason, style: .dim, priority: 3), at: 5)
        }

        // A problem gets a second line rather than losing its advice to the right edge.
        let loginKey = keymap.keys(for: "login").first?.label
        let status = DisplayWidth.wrap(note ?? statusText(snapshot, loginKey: loginKey), to: inner, maxLines: 2)
        let calm = snapshot.problem == nil && snapshot.reconnecting == nil
        let statusStyle: Frame.Style = calm || note != nil ? .plain : .alert
        var bottom = status.isEmpty
            ? [FrameLine(text: "", priority: 1)]
            : status.enumerated().map { FrameLine(text: indent + $1, style: statusStyle, priority: $0 == 0 ? 9 : 6) }
        bottom.append(FrameLine(text: indent + keymap.hintLine(for: [.global, .song], columns: inner),
                                style: .dim, priority: 5))
        return Frame.layout(top: top, bottom: bottom, width: width, height: height)
    }

    /// What the status line says: "Reconnecting (attempt 2 of 4)…" while the player
    /// reloads a broken stream, the problem in words (with when the radio tries again),
    /// else "Loading…" while waiting for the station, then how many reports wait to be
    /// sent; else nothing. `loginKey` is the key that opens the login dialog, named by
    /// advice to log in (see `ErrorText`).
    public static func statusText(_ snapshot: RadioSnapshot, loginKey: String? = nil) -> String {
        var parts: [String] = []
        let source = sourceText(snapshot.source)
        if !source.isEmpty { parts.append(source) }
        if let reconnecting = snapshot.reconnecting { parts.append(reconnectingText(reconnecting)) }
        if let problem = snapshot.problem {
            parts.append(ErrorText.describe(problem, loginKey: loginKey))
            if let next = snapshot.nextRetry { parts.append("Next try at \(clockText(next)).") }
        } else if snapshot.loading {
            parts.append("Loading…")
        }
        switch snapshot.pendingReports {
        case 0: break
        case 1: parts.append("1 report waits to be sent.")
        case let n: parts.append("\(n) reports wait to be sent.")
        }
        let downloading = downloadsText(snapshot.downloads)
        if !downloading.isEmpty { parts.append(downloading) }
        if let ends = snapshot.sleepEnds { parts.append(sleepText(until: ends)) }
        return parts.joined(separator: " ")
    }

    /// What the status line says about where songs come from: nothing while the station
    /// plays or the offline channel was chosen (its name says so), and why downloads play
    /// while the station is unreachable.
    public static func sourceText(_ source: SongSource) -> String {
        switch source {
        case .station: ""
        case .downloads: "Offline: playing downloaded songs."
        case .fallback(let channel):
            "Offline: the station is unreachable, so downloaded songs play; back to \(channel.name) when it answers."
        }
    }

    /// "Downloading 2 songs (45 %)." while downloads are on their way; nothing otherwise.
    public static func downloadsText(_ overview: DownloadsOverview) -> String {
        let active = overview.active
        guard !active.isEmpty else { return "" }
        let bytes = active.reduce(Int64(0)) { $0 + $1.bytes }
        let totals = active.compactMap(\.total)
        let noun = active.count == 1 ? "1 song" : "\(active.count) songs"
        let waiting = active.allSatisfy { $0.state == .waiting }
        if waiting { return "Downloads wait for the network (\(noun))." }
        guard totals.count == active.count, let sum = Optional(totals.reduce(0, +)), sum > 0 else {
            return "Downloading \(noun)."
        }
        return "Downloading \(noun) (\(min(100, Int(Double(bytes) * 100 / Double(sum)))) %)."
    }

    /// "Reconnecting (attempt 2 of 4)…": what the player is doing about a broken stream.
    public static func reconnectingText(_ reconnecting: Reconnection) -> String {
        "Reconnecting (attempt \(reconnecting.attempt) of \(reconnecting.maxAttempts))…"
    }

    /// A wall-clock time as `HH:mm:ss` in the local time zone.
    public static func clockText(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        let twoDigits = { (value: Int?) in (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return "\(twoDigits(c.hour)):\(twoDigits(c.minute)):\(twoDigits(c.second))"
    }

    /// Where a live channel's audio stands: `LIVE` at the edge, else how far behind it,
    /// `−02:10` (`−1:02:10` from an hour).
    public static func liveText(_ live: LiveStatus) -> String {
        if live.atEdge { return "LIVE" }
        let total = Int(min(live.behind, 1e9).rounded(.down))
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "−\(hours):\(twoDigits(minutes)):\(twoDigits(seconds))"
                         : "−\(twoDigits(minutes)):\(twoDigits(seconds))"
    }

    /// How the listener's vote to end a live song stands: `skip: 1 of 3 voted`, or
    /// `ending: 2 of 3 voted` once most listeners did; a vote that came once the song was
    /// over on the air says that its end comes anyway.
    public static func voteText(_ tally: LiveTally) -> String {
        if tally.ended { return "over on the air: it ends here in seconds" }
        guard tally.onAir else { return "this song has left the air: no vote" }
        return "\(tally.ending ? "ending" : "skip"): \(tally.votes) of \(tally.listeners) voted"
    }

    /// Formats seconds as `m:ss`, or `h:mm:ss` from one hour; `--:--` when unknown.
    public static func timeText(_ seconds: Double?) -> String {
        // The upper bound keeps a garbage position from trapping in the Int conversion.
        guard let seconds, seconds.isFinite, seconds >= 0, seconds < 1e9 else { return "--:--" }
        let total = Int(seconds.rounded(.down))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))"
                         : "\(minutes):\(twoDigits(secs))"
    }

    // MARK: - Lines

    private static func stateWord(_ snapshot: RadioSnapshot) -> String {
        if snapshot.track == nil { return snapshot.loading ? "loading" : "stopped" }
        return snapshot.paused ? "paused" : "playing"
    }

    /// The title with its heart; the title is cut, never the heart.
    private static func titleLine(_ track: Track?, columns: Int) -> String {
        guard let track else { return "Nothing playing" }
        let mark = track.liked ? likedMark : notLikedMark
        guard columns > 2 else { return DisplayWidth.truncate(track.title, to: columns) }
        let title = DisplayWidth.truncate(track.title, to: columns - 2)
        return title.trimmingSuffix(" ") + " " + mark
    }

    /// `album (year) · 192 kbps`, leaving out whatever is unknown.
    private static func albumLine(_ track: Track?) -> String {
        guard let track else { return "" }
        var parts: [String] = []
        switch (track.album.isEmpty, track.year.isEmpty) {
        case (false, false): parts.append("\(track.album) (\(track.year))")
        case (false, true): parts.append(track.album)
        case (true, false): parts.append(track.year)
        case (true, true): break
        }
        if let kbps = track.kbps, kbps > 0 { parts.append("\(kbps) kbps") }
        return parts.joined(separator: " · ")
    }

    /// `━━━━━━────────  1:05 / 3:48`, the bar taking what the times leave; just the times
    /// when fewer than 4 columns would be left for the bar.
    private static func progressLine(_ snapshot: RadioSnapshot, columns: Int) -> String {
        let duration = snapshot.effectiveDuration
        let elapsed = snapshot.track == nil ? "--:--" : timeText(snapshot.position)
        let times = "\(elapsed) / \(timeText(duration))"
        let barWidth = columns - DisplayWidth.width(of: times) - 2
        guard barWidth >= 4 else { return times }
        var filled = 0
        if let duration, snapshot.track != nil, snapshot.position.isFinite {
            let fraction = min(1, max(0, snapshot.position / duration))
            filled = Int((fraction * Double(barWidth)).rounded(.down))
        }
        return String(repeating: "━", count: filled) + String(repeating: "─", count: barWidth - filled)
            + "  " + times
    }
}

extension String {
    /// The string without trailing copies of `character` (used to pull a heart up to a
    /// truncated title whose padding would otherwise separate them).
    func trimmingSuffix(_ character: Character) -> String {
        var copy = self
        while copy.last == character { copy.removeLast() }
        return copy
    }
}
