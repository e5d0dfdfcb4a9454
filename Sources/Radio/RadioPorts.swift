import RadioAPI
import Store

/// The radio's view of a station: fetch the channel list, send a report and get songs back.
/// The composition root implements it over HTTP and RadioAPI; tests implement it in memory.
public protocol RadioService: Sendable {
    /// The channels the station offers.
    func channels() async throws(ServiceFailure) -> [ChannelInfo]
    /// Sends one report. Returns the songs of the answer: a new list for long reports,
    /// usually nothing for short ones (an acknowledgement).
    func send(_ report: Report) async throws(ServiceFailure) -> [Track]
}

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
    var events: AsyncStream<PlayerEvent> { get }
    /// Replaces whatever plays or is queued with `url`, starting at `startAt` seconds.
    func load(_ url: String, startAt: Double) throws(PlayerFailure) -> PlayerItemID
    /// Queues `url` to follow the current item, replacing the item queued before (which
    /// finishes as stopped without playing). It starts at `startAt` seconds when it comes up.
    func queueNext(_ url: String, startAt: Double) throws(PlayerFailure) -> PlayerItemID
    /// Takes the queued item back, so it never plays (the radio's queue changed).
    func clearQueued()
    /// Ends the current item now and plays the queued one.
    /// - Returns: the id of the item now playing (the one `queueNext` returned).
    /// - Throws: when nothing is queued; the caller then loads the song instead.
    func advance() throws(PlayerFailure) -> PlayerItemID
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
    var position: PlayerPosition? { get }
}

/// Where the player is in one of its items.
public struct PlayerPosition: Sendable, Equatable {
    /// The item.
    public var item: PlayerItemID
    /// Seconds from its start.
    public var seconds: Double

    /// Creates a position.
    public init(item: PlayerItemID, seconds: Double) {
        self.item = item
        self.seconds = seconds
    }
}

/// Identifies one load or queued item of the player, so events can be matched to the song
/// they are about.
public struct PlayerItemID: Hashable, Sendable {
    /// The player's own id (mpv's playlist entry id).
    public let rawValue: Int64

    /// Wraps an id.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
}

/// What the player reports.
public enum PlayerEvent: Sendable, Equatable {
    /// The item is playing (first audio clocked).
    case started(PlayerItemID, duration: Double?)
    /// The item's position, a few times a second.
    case progress(PlayerItemID, position: Double)
    /// The item's duration became known or changed.
    case duration(PlayerItemID, Double)
    /// The item's stream broke and the player is reloading it where it broke: attempt
    /// `attempt` of at most `of`. The item keeps its id through the reload.
    case recovering(PlayerItemID, attempt: Int, of: Int)
    /// The reload plays: the item goes on.
    case recovered(PlayerItemID)
    /// Playback paused.
    case paused
    /// Playback resumed.
    case resumed
    /// The volume changed.
    case volume(Int)
    /// The item ended.
    case finished(PlayerItemID, PlayerEndReason)
}

/// Why an item ended.
public enum PlayerEndReason: Sendable, Equatable {
    /// It played to its end.
    case eof
    /// It was stopped or replaced on purpose.
    case stopped
    /// It failed (network, format, an expired or missing URL).
    case failed(PlayerFailure)
}

/// Where the radio keeps what must survive a restart. `MhzDatabase` is the real one.
public protocol ProgressStore: Sendable {
    /// Saves the position of a song.
    func savePosition(_ position: PlaybackPosition) throws(StoreError)
    /// The most recently saved position: where the last session was.
    func lastPosition() throws(StoreError) -> PlaybackPosition?
    /// The saved position of one song.
    func position(sid: String) throws(StoreError) -> PlaybackPosition?
    /// Stores a setting; `nil` removes it.
    func setSetting(_ key: String, _ value: String?) throws(StoreError)
    /// A stored setting.
    func setting(_ key: String) throws(StoreError) -> String?
}

/// Where reports wait until the station has them. `MhzDatabase` is the real one.
public protocol ReportOutboxStore: Sendable {
    /// Appends a report; returns it with its id.
    func enqueueReport(_ entry: OutboxEntry) throws(StoreError) -> OutboxEntry
    /// The waiting reports, oldest first.
    func pendingReports() throws(StoreError) -> [OutboxEntry]
    /// Forgets a delivered report.
    func removeReport(id: Int64) throws(StoreError)
}

/// Everything the radio keeps on disk.
public typealias RadioStore = ProgressStore & ReportOutboxStore

extension MhzDatabase: ProgressStore, ReportOutboxStore {}

/// Setting keys the radio uses.
public enum RadioSettingKey {
    /// The channel listened to last; where the next start begins.
    public static let lastChannel = "radio.last_channel"
}
