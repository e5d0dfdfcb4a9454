import Foundation
import Radio
import RadioAPI
import Synchronization

/// Follows the song playing and its lyrics: asks the station for each new song's lyrics
/// (``RadioService/lyrics(sid:ssid:)``), then, as snapshots bring the position, tells
/// `lineChanged` each line that becomes current, in order (``LyricTracker``). A late
/// answer for a song no longer playing is dropped.
public final class LyricFollower: Sendable {
    private let service: any RadioService
    private let nudges: (any LyricOffsetStore)?
    private let lineChanged: @Sendable (LyricTracker.Change) -> Void
    private let sheetChanged: @Sendable (String, LyricSheet?) -> Void
    private let tracker = Mutex(LyricTracker())

    /// A follower asking `service`. `lineChanged` hears each line reached;
    /// `sheetChanged` the song's lyrics when the station's answer arrives (nil: the song
    /// has none), before the line current by then, for a full view.
    /// Nudges are read from and kept in `nudges`, per song.
    public init(service: any RadioService, nudges: (any LyricOffsetStore)? = nil,
         lineChanged: @escaping @Sendable (LyricTracker.Change) -> Void,
         sheetChanged: @escaping @Sendable (String, LyricSheet?) -> Void = { _, _ in }) {
        self.service = service
        self.nudges = nudges
        self.lineChanged = lineChanged
        self.sheetChanged = sheetChanged
    }

    /// A new snapshot: a new song's lyrics are asked for; a position moves the line.
    public func show(_ snapshot: RadioSnapshot) {
        guard let track = snapshot.track else { return }
        // The callbacks run under the lock: lines are told in the order they were reached,
        // whichever thread (a snapshot, an answer) reached them.
        let isNew = tracker.withLock { tracker -> Bool in
            let isNew = tracker.sid != track.sid
            // A nudge that cannot be read is none: lyrics are extra.
            if isNew { tracker.begin(sid: track.sid, nudge: (try? nudges?.lyricNudge(sid: track.sid)) ?? 0) }
            tracker.advance(to: snapshot.position).forEach(lineChanged)
            return isNew
        }
        guard isNew else { return }
        let service = self.service
        Task { [weak self] in
            let sheet = await service.lyrics(sid: track.sid, ssid: track.ssid)
            self?.arrived(sheet, for: track.sid)
        }
    }

    /// Shows the current song's lines `seconds` earlier (negative: later) than so far, and
    /// keeps the nudge for that song. Returns the nudge now, nil when no song is followed.
    @discardableResult
    public func nudge(by seconds: Double) -> Double? {
        tracker.withLock { tracker -> (sid: String, nudge: Double)? in
            guard let sid = tracker.sid else { return nil }
            let nudge = ((tracker.nudge + seconds) * 1000).rounded() / 1000
            tracker.setNudge(nudge).forEach(lineChanged)
            return (sid, nudge)
        }.map { kept in
            try? nudges?.setLyricNudge(kept.nudge, sid: kept.sid)
            return kept.nudge
        }
    }

    private func arrived(_ sheet: LyricSheet?, for sid: String) {
        tracker.withLock { tracker in
            guard tracker.sid == sid else { return }
            sheetChanged(sid, sheet)
            tracker.receive(sheet, for: sid).forEach(lineChanged)
        }
    }
}
