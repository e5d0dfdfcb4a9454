import RadioAPI

/// Where the radio is, as one value. Each case carries exactly what that state needs, so
/// a combination that means nothing (a song playing while nothing is current, a retry
/// timer with nobody waiting for it, a queued song behind a song the player no longer
/// holds) cannot be written down.
///
/// ```
///            start                 answer with songs
///   idle ───────────► silent ─────────────────────────► playing ◄─┐
///                     ▲  │ ▲                                │  │   │ skip, trash, end:
///                     │  │ └── the queue ran dry, a song ───┘  └───┘ the next queued song
///                     │  │     failed, a skip with nothing queued
///                     │  └─ asking ⇄ retrying (no answer, no songs: a timer)
///   quit ◄── quit (from any state)
/// ```
public enum RadioState: Sendable, Equatable {
    /// Not started: no channel yet.
    case idle
    /// Nothing plays, and the next song comes from the station: a list is being asked for,
    /// or will be when the retry timer fires.
    case silent(Silence)
    /// A song is the radio's current one: loaded in the player (playing or paused), or held
    /// out of it after the audio output failed.
    case playing(NowPlaying)
    /// `quit` was handled: nothing more is played, queued or sent.
    case quit
}

/// The one list fetch the radio cares about at a time: the list whose answer becomes the
/// queue (and, while nothing plays, starts the first song of it).
public enum ListFetch: Sendable, Equatable {
    /// A request is on its way; only the answer with this id is that list.
    case asking(ListRequest)
    /// The last request failed or brought no songs: the timer with this token asks again.
    case retrying(RetryTimer)

    /// The request on its way, if one is.
    public var request: ListRequest? {
        if case .asking(let request) = self { return request }
        return nil
    }
}

/// A list request on its way to the station.
public struct ListRequest: Sendable, Equatable {
    /// The id its answer comes back with.
    public var id: Int
    /// `n` (a fresh channel: the answer replaces the queue and what plays), `p` (more of
    /// the same: appended) or `s`/`b` (the answer replaces the queue).
    public var type: ReportType
}

/// A retry timer the radio waits for.
public struct RetryTimer: Sendable, Equatable {
    /// The token it fires with; a timer whose token is no longer held here does nothing.
    public var token: Int
    /// What it asks for: `n` while the channel has not delivered, `p` afterwards.
    public var type: ReportType
}

/// What the radio needs while nothing plays.
public struct Silence: Sendable, Equatable {
    /// How the next songs are coming.
    public var fetch: ListFetch
    /// The song that last played or failed, named by a `p` asking for more.
    public var lastSid: String?
    /// A song that failed to play, kept at the head of the queue until the station's answer
    /// tells whether the song (drop it) or the station, which serves the media too (play it
    /// again), was at fault.
    public var suspect: Suspect?
}

/// See ``Silence/suspect``.
public struct Suspect: Sendable, Equatable {
    /// The song.
    public var sid: String
    /// The station failed to answer since the song failed: it gets another go.
    public var stationWasDown: Bool
}

/// The song the radio is about, and how far it got.
public struct NowPlaying: Sendable, Equatable {
    /// The song.
    public var track: Track
    /// Seconds played.
    public var position: Double
    /// The duration the player measured, when it did.
    public var duration: Double?
    /// The position last saved, so saves happen every `saveInterval` seconds of playback.
    public var lastSaved: Double
    /// The song was resumed from the last session: the channel's first list fills the
    /// queue behind it instead of replacing it.
    public var resumed: Bool
    /// Where the song is in the player.
    public var slot: PlayerSlot
    /// The list fetch under way while the song plays, if any.
    public var fetch: ListFetch?
}

/// Where the current song is in the player.
public enum PlayerSlot: Sendable, Equatable {
    /// Handed to the player with a ticket; its events carry that ticket.
    case loaded(LoadedSong)
    /// Out of the player: its audio output failed. It waits, paused, at its position until
    /// `resume` or `toggle` loads it again there; nothing is queued behind it (a queued song
    /// would only fail the same way, or start unheard once the device returns).
    case held
}

/// The current song as the player holds it.
public struct LoadedSong: Sendable, Equatable {
    /// The ticket the song was handed over with.
    public var ticket: PlayTicket
    /// How far the player got with it.
    public var stage: Stage
    /// The song handed to the player to follow this one without a gap, if any. It is
    /// always the head of the radio's queue (see `RadioMachine+Queue.swift`).
    public var next: QueuedSong?

    /// How far the player got with a song.
    public enum Stage: Sendable, Equatable {
        /// Handed over; no audio yet.
        case opening
        /// First audio was clocked: the song is "playing" for front ends.
        case sounding
        /// Its stream broke after it sounded, and the player reloads it.
        case reconnecting(Reconnection)
    }
}

/// A song queued in the player behind the current one.
public struct QueuedSong: Sendable, Equatable {
    /// The ticket it was queued with.
    public var ticket: PlayTicket
    /// The song.
    public var track: Track
    /// Where it starts when its turn comes (a long item resumes where it was left).
    public var start: Double
    /// False when the player dropped or refused it: it is loaded when its turn comes.
    public var inPlayer: Bool
}
