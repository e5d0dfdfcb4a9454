import Foundation
import Radio

/// What the MPRIS interfaces say about the radio at one moment: a pure function of a
/// snapshot (and the cover file the caller found for its song). `MPRISPlayer` publishes it,
/// answers property reads from it and announces what changed between two of them.
struct MPRISProperties: Sendable, Equatable {
    /// `PlaybackStatus`: `Playing`, `Paused`, or `Stopped` when there is no song.
    var playbackStatus: String
    /// `Metadata`.
    var metadata: MPRISMetadata
    /// `Volume`, 0–1.
    var volume: Double
    /// `Position` in microseconds. Read, never announced: the spec says clients extrapolate.
    var position: Int64
    /// `CanGoNext`: a song plays (or is paused), so there is one to skip.
    var canGoNext: Bool
    /// `CanSeek`: the song's duration is known.
    var canSeek: Bool

    /// The interfaces' names.
    static let rootInterface = "org.mpris.MediaPlayer2"
    /// The player interface's name.
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    /// A radio that has not started: nothing plays.
    static let stopped = MPRISProperties(snapshot: RadioSnapshot(), coverFile: nil)

    /// The properties `snapshot` shows; `coverFile` is the song's cover on disk, if any.
    init(snapshot: RadioSnapshot, coverFile: URL?) {
        if let track = snapshot.track {
            playbackStatus = snapshot.paused ? "Paused" : "Playing"
            metadata = MPRISMetadata(track: track, duration: snapshot.effectiveDuration, coverFile: coverFile,
                                     liked: track.liked)
        } else {
            playbackStatus = "Stopped"
            metadata = .empty
        }
        volume = Double(min(max(snapshot.volume, 0), 100)) / 100
        position = LiveTiming.units(max(snapshot.position, 0), perSecond: 1_000_000)
        canGoNext = snapshot.track != nil
        canSeek = snapshot.track != nil && snapshot.effectiveDuration != nil
    }

    /// The player interface's properties that differ from `old`, in the vtable's order: what a
    /// `PropertiesChanged` signal carries. Never `Position` (not announced) nor a constant.
    func changes(since old: MPRISProperties) -> [String] {
        var names: [String] = []
        if playbackStatus != old.playbackStatus { names.append("PlaybackStatus") }
        if metadata != old.metadata { names.append("Metadata") }
        if volume != old.volume { names.append("Volume") }
        if canGoNext != old.canGoNext { names.append("CanGoNext") }
        if canSeek != old.canSeek { names.append("CanSeek") }
        return names
    }

    /// The value of `property` of `interface`, constants included; nil for a name neither
    /// interface has.
    func value(of property: String, in interface: String) -> BusValue? {
        if interface == Self.rootInterface {
            switch property {
            case "CanQuit": return .bool(true)
            case "CanRaise", "HasTrackList": return .bool(false)
            case "Identity": return .string("mhz")
            case "SupportedUriSchemes", "SupportedMimeTypes": return .strings([])
            default: return nil
            }
        }
        guard interface == Self.playerInterface else { return nil }
        switch property {
        case "PlaybackStatus": return .string(playbackStatus)
        case "Metadata": return metadata.value
        case "Volume": return .double(volume)
        case "Position": return .int64(position)
        case "Rate", "MinimumRate", "MaximumRate": return .double(1)
        case "CanGoNext": return .bool(canGoNext)
        case "CanGoPrevious": return .bool(false)
        case "CanPlay", "CanPause", "CanControl": return .bool(true)
        case "CanSeek": return .bool(canSeek)
        default: return nil
        }
    }

    /// The position to announce with `Seeked` when going from `old` (published at `then`) to
    /// `self` (at `now`): the same song, but not where playing on (or staying paused) would
    /// have put it. Position reports come about once a second, so a jump of more than
    /// `tolerance` is a seek, not the clock.
    func seeked(since old: MPRISProperties, elapsed: Duration,
                tolerance: Duration = .milliseconds(1500)) -> Int64? {
        guard let track = metadata.trackID, track == old.metadata.trackID else { return nil }
        let played = old.playbackStatus == "Playing" ? elapsed : .zero
        let expected = old.position + played.milliseconds * 1000
        return abs(position - expected) > tolerance.milliseconds * 1000 ? position : nil
    }
}
