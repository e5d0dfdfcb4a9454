import RadioAPI

/// The station's side: answers, failures, retry timers and a new login.
extension RadioMachine {
    /// The station answered report `id` (nil: a report carried over from an earlier run):
    /// a list becomes the queue (or extends it for `p`), an acknowledgement only proves the
    /// station is back. `saved` holds the positions the store remembers for the answer's
    /// songs, for long items that resume where they were left.
    mutating func answered(_ id: Int?, _ tracks: [Track], saved: [String: PlaybackPosition]) -> [RadioEffect] {
        if let probe, probe == id { return probeAnswered(tracks) }
        // A report about a past song: its list is not what the listener asked to hear.
        if let id, pastReports.remove(id) != nil { return answered(nil, [], saved: [:]) }
        if case .service = problem { problem = nil }
        nextRetry = nil
        for track in tracks {
            let start = resumePoint(of: track, saved: saved[track.sid])
            if start > 0 { resumePoints[track.sid] = start }
        }
        guard let pending = listRequest, pending.id == id else { return answeredBeside(tracks) }

        var silence: Silence?
        if case .silent(var waiting) = state {
            if let suspect = waiting.suspect, queue.first?.sid == suspect.sid {
                // The station answered: a song that failed while it was down gets another go;
                // one that failed while it was up is broken.
                if !suspect.stationWasDown { queue.removeFirst() }
                waiting.suspect = nil
            }
            silence = waiting
        }
        let incoming = fresh(tracks)
        if pending.type == .playing {
            queue += incoming.filter { track in !queue.contains { $0.sid == track.sid } }
        } else {
            queue = incoming
        }
        forgetResumePointsOutsideQueue()
        // Only songs end a backoff: an empty answer (a new channel, the red-heart channel
        // without likes) is asked again later and later.
        if !queue.isEmpty { retryAttempt = 0 }

        // A fresh channel replaces what plays (but not a song resumed from the last
        // session); otherwise a list plays only if nothing does.
        let replaces = pending.type == .new && nowPlaying?.resumed != true
        guard silence != nil || replaces else {
            setFetch(nil)
            return withdrawQueuedIfStale()
        }
        guard !queue.isEmpty else {
            if let silence { state = .silent(silence) }
            return withdrawQueuedIfStale() + emptyChannel(retrying: pending.type == .new ? .new : .playing)
        }
        return play(queue.removeFirst(), fetch: nil)
    }

    /// An answer that is not the list under way: the station is back. `r`/`u` may come back
    /// with a list (web stations): it is taken unless a list fetch is in flight, whose
    /// answer is newer by intent. A radio waiting for its retry timer asks now, or plays
    /// what it has.
    private mutating func answeredBeside(_ tracks: [Track]) -> [RadioEffect] {
        var effects: [RadioEffect] = []
        switch source {
        case .station: break
        case .downloads: return []  // the offline channel's lists come from the downloads only
        case .fallback: return tracks.isEmpty ? askWhetherStationIsBack() : probeAnswered(tracks)
        }
        if listRequest == nil, !tracks.isEmpty {
            queue = fresh(tracks)
            forgetResumePointsOutsideQueue()
            effects += withdrawQueuedIfStale()
        }
        guard case .silent(let silence) = state else { return effects }
        if !queue.isEmpty { return effects + play(queue.removeFirst(), fetch: silence.fetch) }
        if case .retrying(let timer) = silence.fetch { return effects + retryNow(timer.type) }
        return effects
    }

    /// Drops the song playing now from a list (a station may answer with it), and every song
    /// the listener trashed.
    func fresh(_ tracks: [Track]) -> [Track] {
        tracks.filter { $0.sid != current?.sid && !trashed.contains($0.sid) }
    }

    /// Keeps the resume points of queued songs only.
    private mutating func forgetResumePointsOutsideQueue() {
        let queued = Set(queue.map(\.sid))
        resumePoints = resumePoints.filter { queued.contains($0.key) }
    }

    /// Nothing to play on this channel yet: say so and ask again after the next wait.
    mutating func emptyChannel(retrying type: ReportType) -> [RadioEffect] {
        let info = channel ?? ChannelInfo(id: Channel.personalID, name: Channel.personalID)
        return fail(.emptyChannel(info)) + [scheduleRetry(asking: type)]
    }

    /// Report `id` failed: show it; a list the radio needs is asked for again later.
    mutating func failed(_ id: Int?, _ failure: ServiceFailure) -> [RadioEffect] {
        if let probe, probe == id {
            // Still unreachable: downloads play on; the next song asks again.
            self.probe = nil
            return []
        }
        var effects = fail(.service(failure))
        guard let pending = listRequest, pending.id == id else { return effects }
        if failure.isStationDown, case .station = source, downloads.playable > 0, queue.isEmpty {
            return effects + fallBackToDownloads(asking: pending.type == .new ? .new : .playing)
        }
        let type: ReportType = pending.type == .new ? .new : .playing
        switch state {
        case .silent(var silence):
            silence.suspect?.stationWasDown = true
            state = .silent(silence)
            effects.append(scheduleRetry(asking: type))
        case .playing:
            // With something still to play, the next song's start or end will ask again.
            if queue.isEmpty {
                effects.append(scheduleRetry(asking: type))
            } else {
                setFetch(nil)
            }
        case .idle, .quit:
            break
        }
        return effects
    }

    /// A new login: the station's complaint about the old one is gone, and a fetch waiting
    /// for its retry timer goes now (the timer will find its token gone and do nothing). A
    /// song playing meanwhile plays on; the next fetch carries the login.
    mutating func sessionChanged() -> [RadioEffect] {
        if case .service = problem { problem = nil }
        guard case .silent(let silence) = state, case .retrying(let timer) = silence.fetch, queue.isEmpty
        else { return [] }
        retryAttempt = 0
        return retryNow(timer.type)
    }

    /// A retry timer fired; only the timer the radio still waits for acts.
    mutating func retry(_ token: Int) -> [RadioEffect] {
        guard case .retrying(let timer)? = fetch, timer.token == token else { return [] }
        return retryNow(timer.type)
    }

    /// Asks again for what the last failed or empty fetch asked for.
    mutating func retryNow(_ type: ReportType) -> [RadioEffect] {
        nextRetry = nil
        if type == .new { return [fetchList(.new, sid: nil)] }
        var lastSid: String?
        if case .silent(let silence) = state { lastSid = silence.lastSid }
        return [fetchList(.playing, sid: current?.sid ?? lastSid)]
    }
}
