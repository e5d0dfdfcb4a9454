import RadioAPI

/// Acting on a song of the history that is no longer playing (the history view, `past`):
/// its report goes through the outbox like any other, about its sid and the channel it
/// played on (Douban's `r`, `u`, `b` take any sid), while the song playing, the queue and
/// the list under way stay as they are.
extension RadioMachine {
    /// `action` on song `sid` of the history. The song playing now is acted on as the
    /// command of the same name would; a song not among the history's newest songs of
    /// this station is refused.
    mutating func pastSong(_ action: PastSongAction, sid: String) -> [RadioEffect] {
        if let now = nowPlaying, now.track.sid == sid {
            switch action {
            case .like: return handle(.like)
            case .unlike: return handle(.unlike)
            case .trash: return handle(.trash)
            case .download: return handle(.download)
            }
        }
        guard let entry = recentListens.first(where: { $0.track.sid == sid && !$0.otherStation }) else {
            return fail(.notInHistory(sid))
        }
        var track = entry.track
        switch action {
        case .like, .unlike:
            track.liked = action == .like
            return [deliverPast(action == .like ? .rate : .unrate, about: entry), .markListen(sid: sid, liked: track.liked),
                    .emit(track.liked ? .liked(track) : .unliked(track))]
        case .trash:
            trashed.insert(sid)
            var effects = [deliverPast(.ban, about: entry), .rememberTrashed(sid: sid)]
            // A trashed song is not played again: out of the queue, and out of the player
            // if it was the one queued.
            if queue.contains(where: { $0.sid == sid }) {
                queue.removeAll { $0.sid == sid }
                effects += withdrawQueuedIfStale()
            }
            return effects
        case .download:
            return [.download(track, channel: entry.channel)]
        }
    }

    /// Feedback about a past song, on the channel it played on; its answer is not the list
    /// under way (see ``answered(_:_:saved:)``).
    private mutating func deliverPast(_ type: ReportType, about entry: ListenEntry) -> RadioEffect {
        let (id, report) = makeReport(type, sid: entry.track.sid)
        pastReports.insert(id)
        let past = Report(type: report.type, channel: entry.channel, sid: entry.track.sid, history: report.history,
                          playedTime: report.playedTime)
        return .deliver(requestID: id, past)
    }
}
