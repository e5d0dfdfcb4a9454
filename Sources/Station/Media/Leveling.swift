import Foundation
import MusicLibrary
import RadioAPI

/// How a station levels what it plays: every song brought to one loudness, so the listener
/// does not reach for the volume at each change (EBU R 128's idea; ReplayGain 2.0's
/// reference level is the default target).
///
/// The one rule for a song's gain, used by the station's song answers, its MP3 transcodes
/// and its live channels alike: ``gain(for:)``.
public struct Leveling: Sendable, Equatable {
    /// Whose loudness a song is levelled by.
    public enum Basis: String, Sendable, CaseIterable {
        /// Its own: every song at the target.
        case track
        /// Its album's: the album at the target, its songs as loud as each other as mastered.
        case album
    }

    /// Whose loudness songs are levelled by; `nil` leaves them as they are.
    public var basis: Basis?
    /// The loudness songs are brought to (LUFS).
    public var target: Double

    /// −18 LUFS, ReplayGain 2.0's reference level.
    public static let defaultTarget = -18.0
    /// The highest true peak a levelled song may reach (dBTP): a song is never raised past it,
    /// so raising a quiet song never clips it (−1 dBTP is EBU R 128's ceiling for delivery).
    public static let ceiling = -1.0
    /// No levelling.
    public static let off = Leveling(basis: nil)

    /// Levelling by `basis` (by default each track) to `target` (by default −18 LUFS).
    public init(basis: Basis? = .track, target: Double = Self.defaultTarget) {
        self.basis = basis
        self.target = target
    }

    /// The gain (dB) that brings a song of `loudness` to the target without taking its
    /// true peak past ``ceiling``: `min(target − L, ceiling − peak)`, in tenths of a dB (so
    /// a measure that moves by a hundredth names the same transcode). `nil` when the
    /// loudness is unknown, or silent, or the gain would be past what a song may carry
    /// (`Song.gains`: a database row that says −500 LUFS is broken, not quiet).
    public func gain(for loudness: Loudness?) -> Double? {
        guard basis != nil, let integrated = loudness?.integrated, integrated.isFinite, target.isFinite else { return nil }
        var gain = target - integrated
        if let peak = loudness?.truePeak, peak.isFinite { gain = min(gain, Self.ceiling - peak) }
        guard Song.gains.contains(gain) else { return nil }
        return (gain * 10).rounded() / 10
    }

    /// The gain for the track at `position` of the library `table` was built for, by
    /// ``basis``: its album's loudness when levelling by album and the album is known, else
    /// its own.
    package func gain(at position: Int, in table: LoudnessTable) -> Double? {
        guard let basis else { return nil }
        switch basis {
        case .track: return gain(for: table.track(at: position))
        case .album: return gain(for: table.album(at: position) ?? table.track(at: position))
        }
    }
}
