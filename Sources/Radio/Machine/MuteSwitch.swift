/// The `mute` command's rule, one for the radio and for a live channel: the first `mute`
/// turns the volume to 0 and remembers the level it left, the next brings that level
/// back. The volume itself stays the one truth of what is heard (MPRIS' `Volume`, the
/// screen and `status` read 0 while muted); this only remembers where to go back to.
///
/// Any other change of the volume asked by the listener (`volume N`, the volume keys,
/// MPRIS setting `Volume`) ends the mute: the level it set is what the listener wants,
/// and a later `mute` mutes from there.
public struct MuteSwitch: Sendable, Equatable {
    /// Whether the volume is the listener's or the mute's.
    public enum State: Sendable, Equatable {
        /// The volume is as the listener set it.
        case audible
        /// `mute` turned the volume to 0; the next `mute` brings back this level.
        case muted(restoring: Int)
    }

    /// The level `mute` goes back to when it was pressed at volume 0, with no level of
    /// its own to restore: half, rather than mpv's full 100, which could startle.
    public static let levelAfterSilence = 50

    /// Where the switch is.
    public private(set) var state: State = .audible

    /// A switch that has not muted anything.
    public init() {}

    /// The volume `mute` asks for when the volume heard is `volume` (0–100).
    public mutating func toggle(volume: Int) -> Int {
        switch state {
        case .muted(let level):
            state = .audible
            return level
        case .audible:
            state = .muted(restoring: volume > 0 ? min(volume, 100) : Self.levelAfterSilence)
            return 0
        }
    }

    /// The listener set the volume by other means: the mute is over.
    public mutating func volumeSet() {
        state = .audible
    }
}
