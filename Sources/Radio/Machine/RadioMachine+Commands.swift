import RadioAPI

extension RadioMachine {
    // MARK: - Start

    /// The first start: resumes the song of the last session at its position when it was
    /// on the channel now chosen, was not finished and has a URL; otherwise tunes in fresh.
    /// The channel is the one asked for, else the one listened to last, else the personal one.
    mutating func start(channelID: String?, lastChannel: String?, lastPosition: PlaybackPosition?) -> [RadioEffect] {
        let target = channelID ?? lastChannel ?? Channel.personalID
        var effects = switchChannel(to: target, initial: true)
        // If its URL no longer works, the failure leads to a fresh list like any other.
        guard let last = lastPosition, last.channel == target, channel?.id == target, !last.url.isEmpty,
              !last.isFinished, last.position > 0, !trashed.contains(last.sid)
        else { return effects }
        let track = Track(sid: last.sid, title: last.title, artist: last.artist, album: last.album,
                          length: last.duration, url: last.url)
        effects += play(track, at: last.position, fetch: fetch)
        updatePlaying { $0.resumed = true }
        return effects
    }

    // MARK: - Commands

    /// A command from a front end: what it sends, plays and says.
    mutating func handle(_ command: RadioCommand) -> [RadioEffect] {
        switch command {
        case .skip, .trash:
            return leave(command == .skip ? .skip : .ban)
        case .like, .unlike:
            guard var now = nowPlaying else { return nothingPlaying() }
            let type: ReportType = command == .like ? .rate : .unrate
            history.record(sid: now.track.sid, type: type)
            let effect = deliver(type, sid: now.track.sid)
            now.track.liked = command == .like
            updatePlaying { $0.track = now.track }
            listenLiked(sid: now.track.sid, now.track.liked)
            return [effect, .emit(command == .like ? .liked(now.track) : .unliked(now.track))]
        case .channel(let id):
            if let known = channelIsKnown(id), !known { return fail(.unknownChannel(id)) }
            if let channel, id == channel.id { return [.emit(.channel(channel))] }
            return switchChannel(to: id, initial: false)
        case .pause:
            return current == nil ? nothingPlaying() : [.pausePlayer]
        case .resume, .toggle:
            guard let now = nowPlaying else { return nothingPlaying() }
            // After an audio output failure the song is out of the player: load it again.
            if case .held = now.slot { return play(now.track, at: now.position, fetch: now.fetch) + [.resumePlayer] }
            return [command == .toggle && !paused ? .pausePlayer : .resumePlayer]
        case .seek(let target):
            return current == nil ? nothingPlaying() : [.seek(target)]
        case .volume(let percent):
            mute.volumeSet()
            return [.setVolume(min(100, max(0, percent)))]
        case .mute:
            return [.setVolume(mute.toggle(volume: volume))]
        case .status:
            return [.emit(.status(snapshot))]
        case .login, .logout, .live:
            // `live` belongs to a live channel's listening (LiveSession), not to this radio.
            return fail(.unsupported(command.word))
        case .radio:
            return fail(.alreadyRadio)
        case .lyricsEarlier, .lyricsLater:
            // Lyrics follow the radio beside it (mhz's LyricFollower): nothing changes here.
            return []
        case .download:
            guard let track = current else { return nothingPlaying() }
            return [.download(track, channel: track.channel ?? channel?.id ?? Channel.personalID)]
        case .downloadControl(let action, let id):
            return [.controlDownload(action, id: id)]
        case .history(let limit):
            return [.listHistory(limit: limit)]
        case .sleep(let seconds):
            return sleep(seconds)
        case .pastSong(let action, let sid):
            return pastSong(action, sid: sid)
        case .quit:
            return quit()
        case .liveChannel(let id):
            // A session listens to one thing: the radio ends as at `quit`, saying where the
            // listener went, and the composition root opens that broadcast.
            guard let target = stationChannels.first(where: { $0.id == id }), target.live else {
                return fail(.notLive(id))
            }
            return [.emit(.goingLive(target))] + quit()
        }
    }

    /// Ends the radio: the listen counted, the position saved, the player stopped.
    private mutating func quit() -> [RadioEffect] {
        var effects = endListen(.quit)
        if let now = nowPlaying { effects.append(.savePosition(positionRecord(of: now))) }
        effects.append(stopPlayer())
        state = .quit
        return effects + [.quit]
    }

    /// Skip (`s`) or trash (`b`): the report goes out, and the next queued song starts at
    /// once without waiting for the network, from what the player already holds queued when
    /// it can; the answer replaces the rest of the queue.
    private mutating func leave(_ type: ReportType) -> [RadioEffect] {
        guard let now = nowPlaying else { return nothingPlaying() }
        history.record(sid: now.track.sid, type: type)
        var effects = [deliver(type, sid: now.track.sid)]
        // Offline, the report still goes to the station (through the outbox), but the next
        // list comes from the downloads under the same request id.
        if source.isOffline, let request = listRequest { effects.append(.fetchDownloads(requestID: request.id)) }
        if type == .ban {
            trashed.insert(now.track.sid)
            effects.append(.rememberTrashed(sid: now.track.sid))
        }
        effects += endListen(type == .skip ? .skipped : .trashed, of: now.track.sid)
        effects.append(.emit(type == .skip ? .skipped(now.track) : .trashed(now.track)))
        let fetch = self.fetch
        if let next = takeQueued() {
            effects.append(.advancePlayer(next.track, startAt: next.start, ticket: next.ticket))
        } else if !queue.isEmpty {
            effects += play(queue.removeFirst(), fetch: fetch)
        } else if let fetch {
            effects.append(stopPlayer())
            fallSilent(lastSid: now.track.sid, fetch: fetch)
        }
        return effects
    }

    /// `nil` while the list is unknown; the red-heart channel is always allowed because
    /// stations do not list it (docs/PROTOCOL.md §6.1).
    func channelIsKnown(_ id: String) -> Bool? {
        if id == SongSource.offlineChannel.id { return true }
        if stationChannels.isEmpty { return nil }
        return id == Channel.redHeartID || stationChannels.contains { $0.id == id }
    }

    /// Tunes to channel `id` with `n`; an unknown id falls back to the personal channel
    /// on the first start (a stale remembered channel) and is refused later. A song playing
    /// plays on until the new channel's list arrives; the queue, the old channel's, is
    /// dropped at once (taken back from the player first).
    mutating func switchChannel(to id: String, initial: Bool) -> [RadioEffect] {
        var effects = withdrawQueued()
        var target = id
        if initial, let known = channelIsKnown(id), !known {
            effects += fail(.unknownChannel(id))
            target = Channel.personalID
        }
        let info = target == SongSource.offlineChannel.id
            ? SongSource.offlineChannel : channels.first { $0.id == target } ?? ChannelInfo(id: target, name: target)
        channel = info
        let before = source
        source = target == SongSource.offlineChannel.id ? .downloads : .station
        probe = nil
        queue.removeAll()
        resumePoints.removeAll()
        retryAttempt = 0
        effects += [.emit(.channel(info)), .saveChannel(info.id)]
        if source != before { effects.append(.emit(.source(source))) }
        let (id, report) = makeReport(.new, sid: nil)
        let request = ListFetch.asking(ListRequest(id: id, type: .new))
        switch state {
        case .idle:
            fallSilent(lastSid: nil, fetch: request)
        case .silent(let silence):
            // A pending retry belonged to the old channel; a suspect was the old channel's.
            fallSilent(lastSid: silence.lastSid, fetch: request)
        case .playing, .quit:
            setFetch(request)
        }
        return effects + [source.isOffline ? .fetchDownloads(requestID: id) : .fetch(requestID: id, report)]
    }

    /// The answer to a song command with no song.
    func nothingPlaying() -> [RadioEffect] { [.emit(.error(.nothingPlaying))] }

    /// Records `error` as the problem on show and tells the front ends.
    mutating func fail(_ error: RadioError) -> [RadioEffect] {
        problem = error
        return [.emit(.error(error))]
    }
}
