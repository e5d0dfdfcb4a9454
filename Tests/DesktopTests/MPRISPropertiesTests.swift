@testable import Desktop
import Foundation
import Radio
import Testing

/// The MPRIS mapping as a pure function: snapshot → property values, and what changed.
@Suite struct MPRISPropertiesTests {
    static let song = Track(sid: "1402", title: "Blue in Green", artist: "Miles Davis", album: "Kind of Blue",
                            length: 337, url: "https://example.com/1402.mp3")

    @Test func aPlayingSongIsPublishedWithEveryMetadataKey() {
        let snapshot = RadioSnapshot(track: Self.song, position: 12.5, duration: 337.25, volume: 80)
        let cover = URL(fileURLWithPath: "/home/me/.cache/mhz/covers/1402 a.jpg")
        let properties = MPRISProperties(snapshot: snapshot, coverFile: cover)
        #expect(properties.playbackStatus == "Playing")
        #expect(properties.volume == 0.8)
        #expect(properties.position == 12_500_000)
        #expect(properties.canGoNext)
        #expect(properties.canSeek)
        #expect(properties.metadata.value == .dictionary([
            BusEntry("mpris:trackid", .objectPath("/org/mhz/track/1402")),
            BusEntry("xesam:title", .string("Blue in Green")),
            BusEntry("xesam:artist", .strings(["Miles Davis"])),
            BusEntry("xesam:album", .string("Kind of Blue")),
            BusEntry("mpris:length", .int64(337_250_000)),
            BusEntry("mpris:artUrl", .string("file:///home/me/.cache/mhz/covers/1402%20a.jpg")),
            BusEntry("xesam:userRating", .double(0)),
        ]))
    }

    @Test func theLengthIsTheServersWhenMpvMeasuredNoneAndAbsentWhenNeitherKnows() {
        let announced = MPRISProperties(snapshot: RadioSnapshot(track: Self.song), coverFile: nil)
        #expect(announced.metadata.length == 337_000_000)
        #expect(announced.metadata.artURL == nil)
        #expect(announced.metadata.value["mpris:artUrl"] == nil)
        var unknown = Self.song
        unknown.length = 0
        let properties = MPRISProperties(snapshot: RadioSnapshot(track: unknown), coverFile: nil)
        #expect(properties.metadata.value["mpris:length"] == nil)
        #expect(!properties.canSeek)
        #expect(properties.canGoNext)
    }

    @Test func aLengthOrPositionPast64BitsOfMicrosecondsIsHeldNotACrash() {
        // A station may announce any length (`"length": 10000000000000`), a broken file any
        // duration; in microseconds both overflow Int64.
        var endless = Self.song
        endless.length = 1e13
        let announced = MPRISProperties(snapshot: RadioSnapshot(track: endless), coverFile: nil)
        #expect(announced.metadata.length == .max)
        let measured = MPRISProperties(snapshot: RadioSnapshot(track: Self.song, position: 1e300, duration: .infinity),
                                       coverFile: nil)
        #expect(measured.position == .max)
        #expect(measured.metadata.length == .max)
    }

    @Test func pausedAndStoppedStatuses() {
        #expect(MPRISProperties(snapshot: RadioSnapshot(track: Self.song, paused: true), coverFile: nil).playbackStatus
                == "Paused")
        let stopped = MPRISProperties(snapshot: RadioSnapshot(paused: true), coverFile: nil)
        #expect(stopped.playbackStatus == "Stopped")
        #expect(stopped.metadata.value == .dictionary([]))
        #expect(!stopped.canGoNext)
        #expect(!stopped.canSeek)
    }

    @Test func aLikedSongHasUserRatingOne() {
        var liked = Self.song
        liked.liked = true
        let properties = MPRISProperties(snapshot: RadioSnapshot(track: liked), coverFile: nil)
        #expect(properties.metadata.value["xesam:userRating"] == .double(1))
    }

    @Test(arguments: [
        ("1402", "/org/mhz/track/1402"),
        ("", "/org/mhz/track/_"),
        ("a_b", "/org/mhz/track/a_5fb"),
        ("x-1/2.mp3", "/org/mhz/track/x_2d1_2f2_2emp3"),
        ("é", "/org/mhz/track/_c3_a9"),
    ])
    func everySidIsAValidObjectPath(sid: String, path: String) {
        #expect(MPRISMetadata.trackID(sid: sid) == path)
        #expect(path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy { element in
            !element.isEmpty && element.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        })
    }

    @Test func changesNameExactlyWhatDiffersAndNeverThePosition() {
        let playing = MPRISProperties(snapshot: RadioSnapshot(track: Self.song, position: 10), coverFile: nil)
        var liked = Self.song
        liked.liked = true
        let later = MPRISProperties(snapshot: RadioSnapshot(track: Self.song, position: 11), coverFile: nil)
        #expect(later.changes(since: playing) == [])
        #expect(MPRISProperties(snapshot: RadioSnapshot(track: liked, position: 11), coverFile: nil)
            .changes(since: playing) == ["Metadata"])
        #expect(MPRISProperties(snapshot: RadioSnapshot(track: Self.song, position: 11, paused: true), coverFile: nil)
            .changes(since: playing) == ["PlaybackStatus"])
        #expect(MPRISProperties(snapshot: RadioSnapshot(track: Self.song, volume: 40), coverFile: nil)
            .changes(since: playing) == ["Volume"])
        #expect(MPRISProperties(snapshot: RadioSnapshot(track: Self.song), coverFile: URL(fileURLWithPath: "/c.jpg"))
            .changes(since: playing) == ["Metadata"])
        #expect(MPRISProperties.stopped.changes(since: playing)
                == ["PlaybackStatus", "Metadata", "CanGoNext", "CanSeek"])
    }

    @Test func aJumpOfTheSameSongIsASeekButPlayingOnIsNot() {
        let before = MPRISProperties(snapshot: RadioSnapshot(track: Self.song, position: 10), coverFile: nil)
        let onTime = MPRISProperties(snapshot: RadioSnapshot(track: Self.song, position: 15), coverFile: nil)
        #expect(onTime.seeked(since: before, elapsed: .seconds(5)) == nil)
        let jumped = MPRISProperties(snapshot: RadioSnapshot(track: Self.song, position: 40), coverFile: nil)
        #expect(jumped.seeked(since: before, elapsed: .seconds(1)) == 40_000_000)
        let back = MPRISProperties(snapshot: RadioSnapshot(track: Self.song, position: 2), coverFile: nil)
        #expect(back.seeked(since: before, elapsed: .seconds(1)) == 2_000_000)
        // Paused, the clock does not move the song: 5 s later at the same place is no seek.
        let paused = MPRISProperties(snapshot: RadioSnapshot(track: Self.song, position: 10, paused: true),
                                     coverFile: nil)
        #expect(paused.seeked(since: paused, elapsed: .seconds(5)) == nil)
        var other = Self.song
        other.sid = "1403"
        let next = MPRISProperties(snapshot: RadioSnapshot(track: other, position: 0), coverFile: nil)
        #expect(next.seeked(since: before, elapsed: .seconds(1)) == nil)
    }

    @Test func constantsOfBothInterfaces() {
        let properties = MPRISProperties.stopped
        let root = MPRISProperties.rootInterface
        let player = MPRISProperties.playerInterface
        #expect(properties.value(of: "Identity", in: root) == .string("mhz"))
        #expect(properties.value(of: "CanQuit", in: root) == .bool(true))
        #expect(properties.value(of: "CanRaise", in: root) == .bool(false))
        #expect(properties.value(of: "HasTrackList", in: root) == .bool(false))
        #expect(properties.value(of: "SupportedUriSchemes", in: root) == .strings([]))
        #expect(properties.value(of: "SupportedMimeTypes", in: root) == .strings([]))
        for rate in ["Rate", "MinimumRate", "MaximumRate"] { #expect(properties.value(of: rate, in: player) == .double(1)) }
        #expect(properties.value(of: "CanGoPrevious", in: player) == .bool(false))
        for flag in ["CanPlay", "CanPause", "CanControl"] { #expect(properties.value(of: flag, in: player) == .bool(true)) }
        #expect(properties.value(of: "Shuffle", in: player) == nil)
    }
}
