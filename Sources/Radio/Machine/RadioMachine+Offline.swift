import RadioAPI

/// Offline listening: the offline channel, and downloads played while the station is
/// unreachable.
///
/// Lists come from the downloads (``RadioEffect/fetchDownloads(requestID:)``) whenever
/// ``source`` is offline; feedback still goes to the station through the outbox, naming the
/// channel each song was downloaded from. A radio that falls back keeps its channel and
/// asks the station again (a "probe": `n` on that channel) at each song's start and
/// whenever the outbox gets an answer; the first list the station sends ends the fallback
/// and replaces the downloads queued.
extension RadioMachine {
    /// The channel a report about `sid` names: the channel playing, or offline, the
    /// channel the song was downloaded from (the station knows no offline channel). A song
    /// downloaded from a plain URL came from no station: its reports name the offline
    /// channel, which the session keeps at home.
    func reportChannel(about sid: String?) -> String {
        switch source {
        case .station:
            return channel?.id ?? Channel.personalID
        case .downloads, .fallback:
            let track = [current].compactMap { $0 }.first { $0.sid == sid } ?? queue.first { $0.sid == sid }
            return track?.channel ?? SongSource.offlineChannel.id
        }
    }

    /// The station did not answer and nothing is left to play: downloads play instead.
    mutating func fallBackToDownloads(asking type: ReportType) -> [RadioEffect] {
        let info = channel ?? ChannelInfo(id: Channel.personalID, name: Channel.personalID)
        source = .fallback(channel: info)
        probe = nil
        retryAttempt = 0
        return [.emit(.source(source)), fetchList(type == .new ? .new : .playing, sid: current?.sid)]
    }

    /// Asks the station whether it is back, unless a question is on its way or the radio
    /// is not falling back.
    mutating func askWhetherStationIsBack() -> [RadioEffect] {
        guard case .fallback(let info) = source, probe == nil else { return [] }
        let id = nextRequestID
        nextRequestID += 1
        probe = id
        return [.fetch(requestID: id, Report(type: .new, channel: info.id))]
    }

    /// The station answered while downloads played: with songs, the radio goes back to
    /// its channel (the downloaded song playing plays to its end, the station's songs
    /// follow); without, it keeps playing downloads.
    mutating func probeAnswered(_ tracks: [Track]) -> [RadioEffect] {
        probe = nil
        guard case .fallback = source, !tracks.isEmpty else { return [] }
        source = .station
        if case .service = problem { problem = nil }
        nextRetry = nil
        retryAttempt = 0
        queue = fresh(tracks)
        var effects: [RadioEffect] = [.emit(.source(.station))]
        switch state {
        case .silent:
            if !queue.isEmpty { effects += play(queue.removeFirst(), fetch: nil) }
        case .playing:
            // The downloads' list under way is not wanted any more.
            setFetch(nil)
            effects += withdrawQueuedIfStale()
        case .idle, .quit:
            break
        }
        return effects
    }

    /// New facts about the downloads: the channel list shows the offline channel while
    /// songs can play offline, and an offline radio waiting for songs asks again at once.
    mutating func downloadsChanged(_ overview: DownloadsOverview) -> [RadioEffect] {
        let hadSongs = downloads.playable > 0
        downloads = overview
        listChannels()
        guard !hadSongs, overview.playable > 0, source.isOffline,
              case .silent(let silence) = state, case .retrying(let timer) = silence.fetch, queue.isEmpty
        else { return [] }
        return retryNow(timer.type)
    }

    /// The station's channels, and the offline channel after them while songs can play offline.
    mutating func listChannels() {
        channels = stationChannels
        if downloads.playable > 0 || source == .downloads { channels.append(SongSource.offlineChannel) }
    }
}
