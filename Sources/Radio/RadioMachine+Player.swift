import RadioAPI

/// What the player reports, applied to the song each report is about. Reports about a
/// ticket the machine does not expect (a replaced song, a queued song taken back) are
/// ignored, except that a song taken back which starts anyway is stopped.
extension RadioMachine {
    /// The current song's first audio: now it is "playing" for front ends, failures in a
    /// row end, and more songs are asked for early when few are queued.
    mutating func started(_ ticket: PlayTicket, _ measured: Double?) -> [RadioEffect] {
        guard ticket == currentTicket else { return startedUnexpectedly(ticket) }
        guard let track = current, !currentStarted else { return [] }
        currentStarted = true
        consecutiveFailures = 0
        if let measured, measured > 0 { duration = measured }
        if case .player = problem { problem = nil }
        var effects: [RadioEffect] = [.emit(.playing(track, channel: channel ?? ChannelInfo(id: "0", name: "0")))]
        if queue.count < configuration.prefetchThreshold, listRequest == nil {
            effects.append(report(.playing, sid: track.sid, expectList: true))
        }
        return effects
    }

    /// A song that is not the current one started. Normally an old event of a song already
    /// replaced: nothing to do. But a queued song taken back may have been begun by the
    /// player at that very moment (the current song ended as the queue changed): then the
    /// radio plays what it means instead, or stops.
    mutating func startedUnexpectedly(_ ticket: PlayTicket) -> [RadioEffect] {
        guard takenBack.remove(ticket) != nil else { return [] }
        guard let track = current else { return [.stopPlayer] }
        return play(track, at: position)
    }

    /// The current song's position; saved every `saveInterval` seconds of playback so a
    /// crash loses little.
    mutating func progressed(to seconds: Double) -> [RadioEffect] {
        guard let track = current else { return [] }
        position = seconds
        if seconds < lastSavedPosition || seconds - lastSavedPosition >= configuration.saveInterval {
            lastSavedPosition = seconds
            return [.savePosition(positionRecord(of: track))]
        }
        return []
    }

    /// The player reloads the current song's broken stream: front ends show the attempt.
    mutating func recovering(_ ticket: PlayTicket, attempt: Int, of most: Int) -> [RadioEffect] {
        guard ticket == currentTicket, let track = current else { return [] }
        reconnecting = Reconnection(attempt: attempt, maxAttempts: most)
        return [.emit(.reconnecting(track, attempt: attempt, of: most))]
    }

    /// The reload plays: the reconnection is over.
    mutating func recovered(_ ticket: PlayTicket) -> [RadioEffect] {
        guard ticket == currentTicket, let track = current, reconnecting != nil else { return [] }
        reconnecting = nil
        return [.emit(.reconnected(track))]
    }

    /// A song ended: a natural end reports `e` and moves on (to the song the player holds
    /// queued when it can); failures are told apart by what can be done about them.
    mutating func finished(_ ticket: PlayTicket, _ reason: PlayerEndReason) -> [RadioEffect] {
        guard ticket == currentTicket, let track = current else {
            // The player dropped the queued song (or refused it): load it when its turn comes.
            if queuedItem?.ticket == ticket { queuedItem?.inPlayer = false }
            return []
        }
        reconnecting = nil
        switch reason {
        case .stopped:
            return []
        case .eof:
            history.record(sid: track.sid, type: .end)
            let ack = report(.end, sid: track.sid, expectList: false)
            return [ack, .emit(.ended(track))] + advance()
        case .failed(.mediaUnavailable(let status)):
            return unavailable(track, status: status)
        case .failed(.unavailable(let words)):
            return outputFailed(track, words)
        case .failed(let failure):
            return failedToPlay(track, failure)
        }
    }

    /// The audio output failed (no device, or it went away mid-song): no song can play until
    /// it is back, and this one is not at fault, so it is neither reported nor dropped, and
    /// no failure is counted. The player is stopped (a queued song would only fail the same
    /// way, or play unheard of once the device returns) and paused, the song stays current
    /// where it stopped, its position is saved, and the error shows. `resume` or `toggle`
    /// loads it again there. The machine counts as paused at once: mpv's own `paused`
    /// follows (and is narrated), unless it was paused already.
    mutating func outputFailed(_ track: Track, _ words: String) -> [RadioEffect] {
        currentTicket = nil  // the player holds nothing of it any more; see syncQueued
        currentStarted = false
        paused = true
        return fail(.player(.unavailable(words))) + [.savePosition(positionRecord(of: track)), .stopPlayer, .pausePlayer]
    }

    /// A song that cannot be played may be broken, or the station (which serves the media
    /// too) may be down. The machine asks the station (`p`) before deciding: when it
    /// answers at once, the song is dropped; when it does not, the song waits at the head
    /// of the queue and plays again once the station is back. Several failures in a row
    /// with the station answering stop the radio with an explanation and a slow retry,
    /// rather than burning through a broken list.
    mutating func failedToPlay(_ track: Track, _ failure: PlayerFailure) -> [RadioEffect] {
        consecutiveFailures += 1
        var effects = fail(.player(failure))
        clearCurrent()
        awaitingList = true
        if consecutiveFailures >= configuration.maxConsecutiveFailures { return effects + giveUp() }
        queue.insert(track, at: 0)
        suspect = Suspect(sid: track.sid, stationWasDown: false)
        if listRequest == nil { effects.append(report(.playing, sid: track.sid, expectList: true)) }
        return effects
    }

    /// The server refused the song's media URL (403, 404, 410: expired or wrong). Trying it
    /// again cannot help, and the queued songs' URLs were issued with it and expire with
    /// it: the song is dropped with the rest of the queue, and a fresh list is fetched.
    mutating func unavailable(_ track: Track, status: Int) -> [RadioEffect] {
        consecutiveFailures += 1
        var effects = fail(.player(.mediaUnavailable(status: status)))
        clearCurrent()
        awaitingList = true
        suspect = nil
        queue.removeAll()
        if consecutiveFailures >= configuration.maxConsecutiveFailures { return effects + giveUp() }
        if listRequest == nil { effects.append(report(.playing, sid: track.sid, expectList: true)) }
        return effects
    }

    /// Too many songs failed in a row with the station answering: stop trying for the
    /// longest retry delay.
    private mutating func giveUp() -> [RadioEffect] {
        suspect = nil
        queue.removeAll()
        retryType = .playing
        retryAttempt = configuration.retryDelays.count  // the longest delay
        return [scheduleRetry()]
    }
}
