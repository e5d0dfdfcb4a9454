import RadioAPI

extension RadioMachine {
    // MARK: - Commands

    /// A command from a front end: what it sends, plays and says.
    mutating func handle(_ command: RadioCommand) -> [RadioEffect] {
        switch command {
        case .skip, .trash:
            guard let track = current else { return nothingPlaying() }
            let type: ReportType = command == .skip ? .skip : .ban
            history.record(sid: track.sid, type: type)
            var effects: [RadioEffect] = [report(type, sid: track.sid, expectList: true)]
            effects.append(.emit(command == .skip ? .skipped(track) : .trashed(track)))
            // A skip must not wait for the network: the next queued song starts at once,
            // from what the player already holds queued when it can.
            if queue.isEmpty {
                clearCurrent()
                awaitingList = true
                effects.append(.stopPlayer)
            } else if let next = takeQueued() {
                effects.append(.advancePlayer(next.track, ticket: next.ticket))
            } else {
                effects += play(queue.removeFirst())
            }
            return effects
        case .like, .unlike:
            guard var track = current else { return nothingPlaying() }
            let type: ReportType = command == .like ? .rate : .unrate
            history.record(sid: track.sid, type: type)
            let effect = report(type, sid: track.sid, expectList: false)
            track.liked = command == .like
            current = track
            return [effect, .emit(command == .like ? .liked(track) : .unliked(track))]
        case .channel(let id):
            if let known = channelIsKnown(id), !known { return fail(.unknownChannel(id)) }
            if id == channel?.id { return [.emit(.channel(channel!))] }
            return switchChannel(to: id, initial: false)
        case .pause:
            return current == nil ? nothingPlaying() : [.pausePlayer]
        case .resume:
            guard let track = current else { return nothingPlaying() }
            // After an audio output failure the song is out of the player: load it again.
            return currentTicket == nil ? play(track, at: position) + [.resumePlayer] : [.resumePlayer]
        case .toggle:
            guard let track = current else { return nothingPlaying() }
            if currentTicket == nil { return play(track, at: position) + [.resumePlayer] }
            return [paused ? .resumePlayer : .pausePlayer]
        case .seek(let target):
            return current == nil ? nothingPlaying() : [.seek(target)]
        case .volume(let percent):
            return [.setVolume(min(100, max(0, percent)))]
        case .status:
            return [.emit(.status(snapshot))]
        case .login, .logout:
            return fail(.unsupported(command.word))
        case .quit:
            quitting = true
            var effects: [RadioEffect] = []
            if let track = current { effects.append(.savePosition(positionRecord(of: track))) }
            return effects + [.stopPlayer, .quit]
        }
    }

    /// `nil` while the list is unknown; the red-heart channel is always allowed because
    /// servers do not list it (douban-protocol.md §6.1).
    func channelIsKnown(_ id: String) -> Bool? {
        if channels.isEmpty { return nil }
        return id == Channel.redHeartID || channels.contains { $0.id == id }
    }

    /// Tunes to channel `id` with `n`; an unknown id falls back to the personal channel
    /// on the first start (a stale remembered channel) and is refused later.
    mutating func switchChannel(to id: String, initial: Bool) -> [RadioEffect] {
        var effects: [RadioEffect] = []
        var target = id
        if initial, let known = channelIsKnown(id), !known {
            effects += fail(.unknownChannel(id))
            target = Channel.personalID
        }
        let info = channels.first { $0.id == target } ?? ChannelInfo(id: target, name: target)
        channel = info
        queue.removeAll()
        retryAttempt = 0
        retryToken += 1  // a pending retry belongs to the old channel
        // The current song (if any) plays on until the new channel's list arrives.
        awaitingList = current == nil
        effects += [.emit(.channel(info)), .saveChannel(info.id), report(.new, sid: nil, expectList: true)]
        return effects
    }

    /// The answer to a song command with no song.
    mutating func nothingPlaying() -> [RadioEffect] { [.emit(.error(.nothingPlaying))] }

    /// Records `error` as the problem on show and tells the front ends.
    mutating func fail(_ error: RadioError) -> [RadioEffect] {
        problem = error
        return [.emit(.error(error))]
    }

    // MARK: - Answers

    /// The station answered report `id`: a list becomes the queue (or extends it for
    /// `p`), an acknowledgement only proves the station is back.
    mutating func answered(_ id: Int, _ tracks: [Track]) -> [RadioEffect] {
        if case .service = problem { problem = nil }
        nextRetry = nil
        guard let pending = listRequest, pending.id == id else {
            // `r`/`u` may come back with a list (web servers): take it unless a list fetch
            // is in flight, whose answer is newer by intent.
            if listRequest == nil, !tracks.isEmpty { queue = fresh(tracks) }
            // The station answers again: a fetch waiting for its retry timer goes now.
            if listRequest == nil, awaitingList, queue.isEmpty, retryAttempt > 0 {
                retryToken += 1
                return retryNow()
            }
            if awaitingList, !queue.isEmpty, current == nil { return play(queue.removeFirst()) }
            return []
        }
        listRequest = nil
        if let suspect, queue.first?.sid == suspect.sid {
            // The station answered: a song that failed while it was down gets another go;
            // one that failed while it was up is broken.
            if !suspect.stationWasDown { queue.removeFirst() }
            self.suspect = nil
        }
        switch pending.type {
        case .playing: queue += fresh(tracks).filter { t in !queue.contains { $0.sid == t.sid } }
        default: queue = fresh(tracks)
        }
        // Only songs end a backoff: an empty answer (a new channel, the red-heart channel
        // without likes) is asked again later and later.
        if !queue.isEmpty { retryAttempt = 0 }
        // A fresh channel replaces what plays (but not a song resumed from the last
        // session); otherwise play only if nothing does.
        if (pending.type == .new && !(resumed && current != nil)) || awaitingList {
            guard !queue.isEmpty else {
                retryType = pending.type == .new ? .new : .playing
                return emptyChannel()
            }
            return play(queue.removeFirst())
        }
        return []
    }

    /// Drops the song playing now from a list (a server may answer with it).
    func fresh(_ tracks: [Track]) -> [Track] { tracks.filter { $0.sid != current?.sid } }

    /// Nothing to play on this channel yet: say so and ask again after the next delay.
    mutating func emptyChannel() -> [RadioEffect] {
        let info = channel ?? ChannelInfo(id: Channel.personalID, name: Channel.personalID)
        awaitingList = true
        return fail(.emptyChannel(info)) + [scheduleRetry()]
    }

    /// Report `id` failed: show it; a list the radio needs is asked for again later.
    mutating func failed(_ id: Int, _ failure: ServiceFailure) -> [RadioEffect] {
        var effects = fail(.service(failure))
        guard let pending = listRequest, pending.id == id else { return effects }
        listRequest = nil
        suspect?.stationWasDown = true
        retryType = pending.type == .new ? .new : .playing
        // With something still to play, the next song's start or end will ask again.
        if awaitingList || queue.isEmpty { effects.append(scheduleRetry()) }
        return effects
    }

    /// A new login: the station's complaint about the old one is gone, and a fetch waiting
    /// for its retry timer goes now (the timer's token no longer matches, so it will not
    /// ask twice). A song playing meanwhile plays on; the next fetch carries the login.
    mutating func sessionChanged() -> [RadioEffect] {
        if case .service = problem { problem = nil }
        guard listRequest == nil, awaitingList, queue.isEmpty else { return [] }
        retryToken += 1
        retryAttempt = 0
        return retryNow()
    }

    /// A retry timer fired; only the latest timer acts, and only with no fetch in flight.
    mutating func retry(_ token: Int) -> [RadioEffect] {
        guard token == retryToken, listRequest == nil else { return [] }
        return retryNow()
    }

    /// Asks again for what the last failed or empty fetch asked for.
    mutating func retryNow() -> [RadioEffect] {
        nextRetry = nil
        if retryType == .new { return [report(.new, sid: nil, expectList: true)] }
        return [report(.playing, sid: current?.sid ?? lastSid, expectList: true)]
    }
}
