/// The player as the radio needs it: URLs and seconds, no songs.
///
/// Commands are synchronous on purpose: mpv queues them and returns at once, and a
/// synchronous `load`/`queueNext`/`advance` returns the item id before any event of that
/// item can be handled, so the session never mistakes a new song's events for an old one's.
///
/// The player holds at most two items: the one playing and the one queued after it. The
/// queued one is fetched while the current one plays, so a natural end hands over without a
/// gap and a skip (`advance`) starts it without waiting for the network.
public protocol AudioPlayer: Sendable {
    /// Events of every item, in order.
    var events: AsyncStream<AudioPlayerEvent> { get }
    /// Replaces whatever plays or is queued with `url`, starting at `startAt` seconds.
    func load(_ url: String, startAt: Double) throws(PlayerFailure) -> AudioPlayerItemID
    /// Queues `url` to follow the current item, replacing the item queued before (which
    /// finishes as stopped without playing). It starts at `startAt` seconds when it comes up.
    func queueNext(_ url: String, startAt: Double) throws(PlayerFailure) -> AudioPlayerItemID
    /// `load(_:startAt:)` with the song's own gain (dB, `Track.gain`; nil: none), applied to
    /// this item alone, under the volume, and kept when the player reloads it.
    func load(_ url: String, startAt: Double, gain: Double?) throws(PlayerFailure) -> AudioPlayerItemID
    /// `queueNext(_:startAt:)` with the song's own gain, as for `load(_:startAt:gain:)`.
    func queueNext(_ url: String, startAt: Double, gain: Double?) throws(PlayerFailure) -> AudioPlayerItemID
    /// Takes the queued item back, so it never plays (the radio's queue changed).
    func clearQueued()
    /// Ends the current item now and plays the queued one.
    /// - Returns: the id of the item now playing (the one `queueNext` returned).
    /// - Throws: when nothing is queued; the caller then loads the song instead.
    func advance() throws(PlayerFailure) -> AudioPlayerItemID
    /// Pauses.
    func pause()
    /// Resumes.
    func resume()
    /// Seeks within the current item.
    func seek(_ target: RadioCommand.Seek)
    /// Sets the volume, 0–100.
    func setVolume(_ percent: Int)
    /// Stops playback, leaving the player idle with nothing queued.
    func stop()
    /// The item playing now and its exact position, read from the player at this moment
    /// (`progress` events may be a fraction of a second old); nil when the player cannot
    /// tell (nothing started, a reload or a seek under way). The session reads it to answer
    /// `status` and to save the position on pause and quit.
    var position: AudioPlayerPosition? { get }
}

/// A player that cannot apply a gain plays every song as it is.
extension AudioPlayer {
    /// Loads `url` without its gain.
    public func load(_ url: String, startAt: Double, gain: Double?) throws(PlayerFailure) -> AudioPlayerItemID {
        try load(url, startAt: startAt)
    }

    /// Queues `url` without its gain.
    public func queueNext(_ url: String, startAt: Double, gain: Double?) throws(PlayerFailure) -> AudioPlayerItemID {
        try queueNext(url, startAt: startAt)
    }
}

/// Where the player is in one of its items.
public struct AudioPlayerPosition: Sendable, Equatable {
    /// The item.
    public var item: AudioPlayerItemID
    /// Seconds from its start.
    public var seconds: Double

    /// Creates a position.
    public init(item: AudioPlayerItemID, seconds: Double) {
        self.item = item
        self.seconds = seconds
    }
}

/// Identifies one load or queued item of the player, so events can be matched to the song
/// they are about.
public struct AudioPlayerItemID: Hashable, Sendable {
    /// The player's own id (mpv's playlist entry id).
    public let rawValue: Int64

    /// Wraps an id.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
}
