import RadioAPI

/// What the state machine asks the world to do, in order.
public enum RadioEffect: Sendable, Equatable {
    /// Ask the station for a list (`n`, `p`) directly; the answer comes back as
    /// `.answered`/`.failed` with the same id. Not kept: the machine asks again when it fails.
    case fetch(requestID: Int, Report)
    /// Send feedback (`e r u s b`) through the outbox, which keeps it until the station has
    /// it, in order; the answer comes back as `.answered`/`.failed` with the same id.
    case deliver(requestID: Int, Report)
    /// Load and play a song at `startAt` seconds, replacing what plays and what is queued;
    /// the song's player events carry `ticket`.
    case play(Track, startAt: Double, ticket: PlayTicket)
    /// Queue a song to follow the current one without a gap (starting at `startAt`),
    /// replacing the song queued before; its player events carry `ticket`.
    case queueNext(Track, startAt: Double, ticket: PlayTicket)
    /// Take the queued song back (the queue changed and nothing follows the current song).
    case clearQueued
    /// Skip to the queued song now (it is `track`, queued with `ticket`), without waiting
    /// for the network; if the player has nothing queued after all, load it at `startAt`.
    case advancePlayer(Track, startAt: Double, ticket: PlayTicket)
    /// Pause the player.
    case pausePlayer
    /// Resume the player.
    case resumePlayer
    /// Seek the player.
    case seek(RadioCommand.Seek)
    /// Set the player's volume.
    case setVolume(Int)
    /// Stop the player.
    case stopPlayer
    /// Tell the front ends.
    case emit(RadioEvent)
    /// Persist where the listener is.
    case savePosition(PlaybackPosition)
    /// Persist the channel, for the next start.
    case saveChannel(String)
    /// Feed `.retryTimer(token:)` back after a delay: the nominal wait of the backoff, to
    /// which the performer applies the backoff's jitter.
    case scheduleRetry(after: Double, token: Int)
    /// Answer list request `requestID` from the downloaded songs (the offline channel, or
    /// the station unreachable): the answer comes back as `.answered` with that id.
    case fetchDownloads(requestID: Int)
    /// Download a song (it plays on `channel`).
    case download(Track, channel: String)
    /// Pause, resume, cancel or retry a download.
    case controlDownload(DownloadAction, id: Int64)
    /// Remember a trashed song, so offline listening never plays it.
    case rememberTrashed(sid: String)
    /// Keep a song that started in the history (as `quit` until it leaves); `id` names it
    /// in the ``endListen(id:listened:outcome:liked:)`` that follows.
    case beginListen(id: Int, track: Track, channel: String)
    /// A song of the history left: how long it was listened to, how, and whether liked.
    case endListen(id: Int, listened: Double, outcome: ListenOutcome, liked: Bool)
    /// Mark every history row of song `sid` liked or not, then tell the machine the history
    /// anew (``RadioInput/historyChanged(_:)``).
    case markListen(sid: String, liked: Bool)
    /// Tell the front ends the history, newest first (at most `limit` songs; nil: the default).
    case listHistory(limit: Int?)
    /// Feed `.sleepTimer(token:)` back after `after` seconds (no jitter: the fade's steps
    /// are even); the timer runs out in `endsIn` seconds.
    case scheduleSleep(after: Double, token: Int, endsIn: Double)
    /// Shut down: everything worth saving has been saved by the effects before this one.
    case quit
}
