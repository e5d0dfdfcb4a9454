import Settings
import RadioAPI

// Apart from the quality itself, so that config.toml's parser compiles without RadioAPI
// into script/fuzz's config target.
extension StationQuality {
    /// `endpoints` asking for this quality. `kbps` keeps the family's own when the
    /// original is asked: a server that ignores `format` goes by it.
    func apply(to endpoints: inout AppEndpoints) {
        switch self {
        case .original: endpoints.asksForOriginal = true
        case .kbps(let kbps):
            endpoints.kbps = kbps
            endpoints.asksForOriginal = false
        }
    }

    /// `endpoints` asking for this quality; the web family always sends a `kbps` and `pb`
    /// (128 unless a bit rate is asked).
    func apply(to endpoints: inout WebEndpoints) {
        switch self {
        case .original: endpoints.asksForOriginal = true
        case .kbps(let kbps):
            endpoints.kbps = kbps
            endpoints.asksForOriginal = false
        }
    }
}
