import Settings
import Station

extension LiveSettings {
    /// `[live]` as the station takes it: `mhz serve`'s station and the embedded one that
    /// `mhz --live` serves on loopback broadcast alike.
    var stationConfiguration: LiveConfiguration {
        LiveConfiguration(always: always, lookback: .seconds(lookbackSeconds), crossfade: .seconds(crossfadeSeconds))
    }
}
