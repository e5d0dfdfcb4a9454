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
    /// `live <id>` named a channel the station does not list as broadcast live.
    case notLive(String)
    /// The station refused the broadcast of a channel it listed as live, after the radio (or
    /// another broadcast) had handed over to it: the failure says how (404: it does not
    /// broadcast it; else the station could not be asked).
    case liveRefused(String, ServiceFailure)
    /// The command (this word, or this key's action) is the radio's and has no meaning on
    /// a live channel (``RadioCommand/isRadioOnly``, the variety dial); `returnsToRadio`
    /// says whether `radio` goes back to the radio from there.
    case notOnLive(String, returnsToRadio: Bool)
    /// `radio` on a live channel that was not entered from the radio (`mhz --live`): there
    /// is no radio to go back to.
    case noRadio
    /// `radio` while the radio plays: there is no live channel to leave.
    case alreadyRadio
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
    /// `past` named a song that is not among the history's newest songs of this station.
    case notInHistory(String)
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

/// Why mhz's own database could not keep or give back what the radio asked of it
/// (``ProgressStore``, ``ReportOutboxStore``), as the radio needs to distinguish it.
public enum StorageFailure: Error, Sendable, Equatable {
    /// The disk (or the file system's quota) is full: nothing was written, and the same
    /// write can succeed once there is room. Carries the database's words.
    case diskFull(String)
    /// Any other failure (permissions, a damaged file, a failed read). Carries words that
    /// name it: the file and the database's words.
    case failed(String)
}
