/// How ``Station`` broadcasts its channels live (`/live/…`): which channels stay on the
/// air, how long their segments are kept, how long a segment is.
public struct LiveConfiguration: Sendable, Equatable {
    /// Channels broadcast from the station's start and never stopped for want of
    /// listeners (`[live] always`), so their look-back is always there.
    public var always: [String]
    /// How long segments are kept on disk for look-back (`[live] lookback`, 2 hours).
    public var lookback: Duration
    /// How long the end of one song and the start of the next are heard together
    /// (`[live] crossfade`, 3 seconds; zero for hard cuts).
    public var crossfade: Duration
    /// The length of a segment: 2 seconds, as Liquidsoap's HLS output; tests shorten it.
    var segmentDuration: Duration = .seconds(2)
    /// How long a channel with nobody asking for it stays on the air: 10 minutes.
    var idleTimeout: Duration = .seconds(600)

    /// The variants' bit rates (kbit/s), AAC-LC, lowest first.
    static let bitrates = [64, 128, 192]
    /// Segments a live playlist lists.
    static let window = 6
    /// Segments made at once when a channel starts, dated back so that they are due at
    /// once: a client must not start closer than three target durations to the live edge
    /// (RFC 8216 §6.3.3), so the first playlist already holds three.
    static let prefill = 3
    /// The default of ``lookback``.
    public static let defaultLookback: Duration = .seconds(2 * 3600)

    /// The default of ``crossfade``.
    public static let defaultCrossfade: Duration = .seconds(3)

    /// A configuration keeping `always` on the air and `lookback` of segments, songs
    /// overlapping by `crossfade`.
    public init(always: [String] = [], lookback: Duration = LiveConfiguration.defaultLookback,
                crossfade: Duration = LiveConfiguration.defaultCrossfade) {
        self.always = always
        self.lookback = lookback
        self.crossfade = crossfade
    }

    /// Samples per segment at ``LiveEncoder``'s rate.
    var segmentSamples: Int64 {
        let (seconds, attoseconds) = segmentDuration.components
        return seconds * 44100 + attoseconds * 44100 / 1_000_000_000_000_000_000
    }

    /// ``crossfade`` in samples at ``LiveEncoder``'s rate: none when negative, at most a
    /// minute.
    var crossfadeSamples: Int64 {
        let (seconds, attoseconds) = crossfade.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        guard seconds < 60 else { return 60 * 44100 }
        // In microseconds first: attoseconds times the rate would pass Int64's range.
        return seconds * 44100 + attoseconds / 1_000_000_000_000 * 44100 / 1_000_000
    }

        /// ``lookback`` in milliseconds.
    var lookbackMilliseconds: Int64 {
        let (seconds, attoseconds) = lookback.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// ``idleTimeout`` in milliseconds.
    var idleMilliseconds: Int64 {
        let (seconds, attoseconds) = idleTimeout.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
