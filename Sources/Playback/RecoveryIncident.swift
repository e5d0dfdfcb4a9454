/// One broken item being reloaded by the player (see `RecoveryPolicy`).
struct RecoveryIncident: Sendable, Equatable {
    /// The item, whose id the reloads keep.
    var item: Int64
    /// Its URL.
    var url: String
    /// The gain (dB) its loads carry, which each reload carries too; nil for none.
    var gain: Double?
    /// Where the stream broke, seconds: each reload starts here.
    var position: Double
    /// Attempts begun so far (the one waiting or running included).
    var attempt: Int
    /// The entry of the reload attempt running now, once the loop created it.
    var reloadEntry: Int64?
    /// A stall leaves its entry in mpv until the reload replaces it.
    var stalledEntry: Int64?
    /// The duration the item had, carried over to the reload.
    var duration: Double?
    /// The reload attempt reached PLAYBACK_RESTART (`recovered` was sent).
    var playing = false

    /// mpv's playlist holds nothing for the item (it ended or was halted and no reload runs
    /// yet): a newly queued item must wait outside mpv, or `append-play` would start it.
    var holdsQueue: Bool { reloadEntry == nil && stalledEntry == nil }

    /// Playback this far past `position` ends the incident: the reload works.
    static let settledAfter = 1.0
}
