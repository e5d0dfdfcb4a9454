import RadioAPI

/// What the player reports, applied to the song each report is about. Reports about a
/// ticket the machine does not expect (a replaced song, a queued song taken back) are
/// ignored, except that a song taken back which starts anyway is stopped.
extension RadioMachine {
    /// The current song's first audio: now it is "playing" for front ends, failures in a
    /// row end, and more songs are asked for early when few are queued.
    mutating func started(_ ticket: PlayTicket, _ measured: Double?) -> [RadioEffect] {
        guard let song = loaded, song.ticket == ticket, let now = nowPlaying else { return startedUnexpectedly(ticket) }
        guard case .opening = song.stage else { return [] }
        updateLoaded { $0.stage = .sounding }
        if let measured, measured > 0 { updatePlaying { $0.duration = measured } }
        consecutiveFailures = 0
        if case .player = problem { problem = nil }
        var effects = beginListen(now)
        effects.append(.emit(.playing(now.track, channel: channel ?? ChannelInfo(id: "0", name: "0"))))
        if queue.count < configuration.prefetchThreshold, listRequest == nil {
            effects.append(fetchList(.playing, sid: now.track.sid))
        }
        return effects + askWhetherStationIsBack()
    }

    /// A song that is not the current one started. Normally an old event of a song already
    /// replaced: nothing to do. But a queued song taken back may have been begun by the
    /// player at that very moment (the current song ended as the queue changed): then the
    /// radio plays what it means instead, or stops.
    mutating func startedUnexpectedly(_ ticket: PlayTicket) -> [RadioEffect] {
        guard takenBack.remove(ticket) != nil else { return [] }
        guard let now = nowPlaying else { return [stopPlayer()] }
        return play(now.track, at: now.position, fetch: now.fetch)
    }

    /// The current song's position; saved every `saveInterval` seconds of playback so a
    /// crash loses little.
    mutating func progressed(_ ticket: PlayTicket, to seconds: Double) -> [RadioEffect] {
        guard ticket == currentTicket, var now = nowPlaying else { return [] }
        now.position = seconds
        listenProgressed(sid: now.track.sid, to: seconds)
        var effects: [RadioEffect] = []
        if seconds < now.lastSaved || seconds - now.lastSaved >= configuration.saveInterval {
            now.lastSaved = seconds
            effects.append(.savePosition(positionRecord(of: now)))
        }
        state = .playing(now)
        return effects
    }

    /// The player reloads the current song's broken stream: front ends show the attempt.
    mutating func recovering(_ ticket: PlayTicket, attempt: Int, of most: Int) -> [RadioEffect] {
        guard ticket == currentTicket, let track = current else { return [] }
        updateLoaded { $0.stage = .reconnecting(Reconnection(attempt: attempt, maxAttempts: most)) }
        return [.emit(.reconnecting(track, attempt: attempt, of: most))]
    }

    /// The reload plays: the reconnection is over.
    mutating func recovered(_ ticket: PlayTicket) -> [RadioEffect] {
        guard let song = loaded, song.ticket == ticket, case .reconnecting = song.stage, let track = current
        else { return [] }
        updateLoaded { $0.stage = .sounding }
        return [.emit(.reconnected(track))]
    }

    /// A song ended: a natural end reports `e` and moves on (to the song the player holds
    /// queued when it can); failures are told apart by what can be done about them.
    mutating func finished(_ ticket: PlayTicket, _ reason: AudioPlayerEndReason) -> [RadioEffect] {
        guard let song = loaded, song.ticket == ticket, let now = nowPlaying else {
            // The player dropped the queued song (or refused it): load it when its turn comes.
            updateLoaded { if $0.next?.ticket == ticket { $0.next?.inPlayer = false } }
            return []
        }
        if case .reconnecting = song.stage { updateLoaded { $0.stage = .sounding } }
        switch reason {
        case .stopped:
            return []
        case .eof:
            history.record(sid: now.track.sid, type: .end)
            let ack = deliver(.end, sid: now.track.sid)
            return [ack] + endListen(.ended, of: now.track.sid) + [.emit(.ended(now.track))] + advance(from: now)
        case .failed(.mediaUnavailable(let status)):
            return endListen(.ended, of: now.track.sid) + unavailable(now.track, status: status)
        case .failed(.unavailable(let words)):
            return outputFailed(words)
        case .failed(let failure):
            return endListen(.ended, of: now.track.sid) + failedToPlay(now.track, failure)
        }
    }

    /// Moves on after a natural end: the player hands over to the song it holds queued by
    /// itself; otherwise the next song is loaded, or more are asked for.
    private mutating func advance(from ended: NowPlaying) -> [RadioEffect] {
        if takeQueued() != nil { return [] }
        if !queue.isEmpty { return play(queue.removeFirst(), fetch: ended.fetch) }
        if let request = ended.fetch?.request {
            fallSilent(lastSid: ended.track.sid, fetch: .asking(request))
            return []
        }
        let (id, report) = makeReport(.playing, sid: ended.track.sid)
        fallSilent(lastSid: ended.track.sid, fetch: .asking(ListRequest(id: id, type: .playing)))
        return [.fetch(requestID: id, report)]
    }

    /// The audio output failed (no device, or it went away mid-song): no song can play until
    /// it is back, and this one is not at fault, so it is neither reported nor dropped, and
    /// no failure is counted. The player is stopped and paused, the song is held where it
    /// stopped (see ``PlayerSlot/held``), its position is saved, and the error shows. The
    /// machine counts as paused at once: mpv's own `paused` follows (and is narrated),
    /// unless it was paused already.
    private mutating func outputFailed(_ words: String) -> [RadioEffect] {
        var effects = fail(.player(.unavailable(words)))
        if let now = nowPlaying { effects.append(.savePosition(positionRecord(of: now))) }
        effects.append(stopPlayer())
        updatePlaying { $0.slot = .held }
        paused = true
        return effects + [.pausePlayer]
    }

    /// A song that cannot be played may be broken, or the station (which serves the media
    /// too) may be down. The machine asks the station (`p`) before deciding: when it
    /// answers at once, the song is dropped; when it does not, the song waits at the head
    /// of the queue and plays again once the station is back. Several failures in a row
    /// with the station answering stop the radio with an explanation and a slow retry,
    /// rather than burning through a broken list.
    private mutating func failedToPlay(_ track: Track, _ failure: PlayerFailure) -> [RadioEffect] {
        // mpv plays the next entry by itself when one fails: only stopping it makes sure
        // nothing plays that the radio does not mean.
        var effects = withdrawQueuedIfPlaying()
        consecutiveFailures += 1
        effects += fail(.player(failure))
        let fetch = self.fetch
        if consecutiveFailures >= configuration.maxConsecutiveFailures {
            return effects + giveUp(lastSid: track.sid)
        }
        queue.insert(track, at: 0)
        let suspect = Suspect(sid: track.sid, stationWasDown: false)
        if let request = fetch?.request {
            fallSilent(lastSid: track.sid, fetch: .asking(request), suspect: suspect)
            return effects
        }
        let (id, report) = makeReport(.playing, sid: track.sid)
        fallSilent(lastSid: track.sid, fetch: .asking(ListRequest(id: id, type: .playing)), suspect: suspect)
        return effects + [.fetch(requestID: id, report)]
    }

    /// The station refused the song's media URL (403, 404, 410: expired or wrong). Trying it
    /// again cannot help, and the queued songs' URLs were issued with it and expire with
    /// it: the song is dropped with the rest of the queue, and a fresh list is fetched.
    private mutating func unavailable(_ track: Track, status: Int) -> [RadioEffect] {
        var effects = withdrawQueuedIfPlaying()
        consecutiveFailures += 1
        effects += fail(.player(.mediaUnavailable(status: status)))
        queue.removeAll()
        resumePoints.removeAll()
        let fetch = self.fetch
        if consecutiveFailures >= configuration.maxConsecutiveFailures {
            return effects + giveUp(lastSid: track.sid)
        }
        if let request = fetch?.request {
            fallSilent(lastSid: track.sid, fetch: .asking(request))
            return effects
        }
        let (id, report) = makeReport(.playing, sid: track.sid)
        fallSilent(lastSid: track.sid, fetch: .asking(ListRequest(id: id, type: .playing)))
        return effects + [.fetch(requestID: id, report)]
    }

    /// Too many songs failed in a row with the station answering: nothing plays, and the
    /// radio waits the longest wait of its backoff before asking again.
    private mutating func giveUp(lastSid: String) -> [RadioEffect] {
        queue.removeAll()
        resumePoints.removeAll()
        retryAttempt = configuration.retry.attemptAtLongest
        let (timer, effect) = newRetryTimer(asking: .playing)
        fallSilent(lastSid: lastSid, fetch: .retrying(timer))
        return [effect]
    }
}
