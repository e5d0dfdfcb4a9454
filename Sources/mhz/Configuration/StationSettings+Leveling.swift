import Settings
import Station

extension StationSettings {
    /// `[station] loudness` and `loudness_target` as the station takes them: `mhz serve`'s
    /// station and the embedded one level alike.
    var leveling: Leveling {
        switch loudness {
        case .track: Leveling(basis: .track, target: loudnessTarget)
        case .album: Leveling(basis: .album, target: loudnessTarget)
        case .off: Leveling.off
        }
    }
}
