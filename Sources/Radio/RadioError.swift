/// What can go wrong in the radio, typed. Front ends turn it into words; the core never
/// makes user-facing text.
public enum RadioError: Error, Sendable, Equatable {
    /// The station could not be asked or did not answer usefully.
    case service(ServiceFailure)
    /// The player could not play a song.
    case player(PlayerFailure)
    /// The server had no songs for this channel.
    case emptyChannel(ChannelInfo)
    /// `channel <id>` named a channel the server does not list.
    case unknownChannel(String)
    /// The command needs a song to be playing.
    case nothingPlaying
    /// The command is not available in this version or front end (e.g. `login` headless).
    case unsupported(String)
    /// mhz's own database could not save (disk full, permissions); playback goes on.
    /// Carries SQLite's words.
    case storage(String)
    /// mhz's own database could not save because the disk is full; playback goes on, and
    /// what could not be written is written again later (reports wait in memory until
    /// then). Carries SQLite's words.
    case diskFull(String)
    /// mhz's database file was damaged at start: it was moved aside (kept under the file
    /// name `kept`) and replaced with a new one, so saved positions and unsent reports
    /// begin empty. Carries SQLite's words for the damage.
    case databaseReplaced(kept: String, reason: String)
    /// The report outbox held a row that is no feedback report (its type letter is this):
    /// it was skipped and forgotten, not sent.
    case unreadableReport(type: String)
}

/// Why a call to the radio service failed, as the core needs to distinguish it.
public enum ServiceFailure: Error, Sendable, Equatable {
    /// No answer: connection refused, DNS, timeout, reset. Carries the transport's words.
    case unreachable(String)
    /// The server answered with an HTTP error status that will not go away by waiting
    /// (4xx, 500, 501…).
    case httpStatus(Int)
    /// The server answered "not now" (408, 429, 502, 503, 504: the HTTP layer's transient
    /// statuses, already retried there with backoff); the same request may succeed later.
    /// The composition root classifies, so the radio and the report outbox need not.
    case busy(Int)
    /// The connection was made but the server's TLS certificate did not verify (self-signed,
    /// expired, another host's). Carries the transport's words.
    case untrusted(String)
    /// The answer could not be understood (HTML page, broken JSON). Carries a description.
    case malformed(String)
    /// The server refused the request in-band (`r != 0`); carries its error word.
    case rejected(String)
    /// The login session expired: playback goes on anonymously until the user logs in.
    case expired
    /// The channel plays only for a logged-in listener (the red-heart channel, `-3`:
    /// docs/PROTOCOL.md §7) and there is no login. Carries the channel id.
    case needsLogin(channel: String)
}

/// Why the player failed.
public enum PlayerFailure: Error, Sendable, Equatable {
    /// The media could not be loaded (bad URL, unsupported format); mpv's words.
    case loadFailed(String)
    /// The audio output or player could not start; mpv's words.
    case unavailable(String)
    /// The server refused the song's media URL with this HTTP status (403, 404, 410…): the
    /// URL expired or is wrong. The radio drops the song and fetches a fresh list, whose
    /// URLs are new, instead of trying it again.
    case mediaUnavailable(status: Int)
    /// The stream broke mid-song and the player's reloads all failed.
    case connectionLost
}
