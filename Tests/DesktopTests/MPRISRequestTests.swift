@testable import Desktop
import Radio
import Testing

/// MPRIS method calls and property writes as radio commands, and the spec's "no effect" rules.
@Suite struct MPRISRequestTests {
    static let playing = MPRISProperties(snapshot: RadioSnapshot(track: MPRISPropertiesTests.song), coverFile: nil)
    static let player = MPRISProperties.playerInterface

    @Test func methodsWithoutArguments() {
        let cases: [(String, MPRISRequest)] = [
            ("PlayPause", .command(.toggle)), ("Play", .command(.resume)), ("Pause", .command(.pause)),
            ("Stop", .command(.pause)), ("Next", .command(.skip)), ("Previous", .nothing), ("OpenUri", .notSupported),
        ]
        for (member, request) in cases {
            #expect(MPRISRequest.method(member, of: Self.player, arguments: [], current: Self.playing) == request, "\(member)")
        }
        #expect(MPRISRequest.method("Quit", of: MPRISProperties.rootInterface, arguments: [], current: Self.playing)
                == .command(.quit))
        #expect(MPRISRequest.method("Raise", of: MPRISProperties.rootInterface, arguments: [], current: Self.playing)
                == .nothing)
        #expect(MPRISRequest.method("Next", of: Self.player, arguments: [], current: .stopped) == .nothing)
    }

    @Test func seekIsRelativeInMicroseconds() {
        #expect(MPRISRequest.method("Seek", of: Self.player, arguments: [.int64(-5_500_000)], current: Self.playing)
                == .command(.seek(.relative(-5.5))))
        #expect(MPRISRequest.method("Seek", of: Self.player, arguments: [.int64(1)], current: .stopped) == .nothing)
        #expect(MPRISRequest.method("Seek", of: Self.player, arguments: [], current: Self.playing) == .invalidArguments)
    }

    @Test func setPositionOnlyForTheSongPlayingAndWithinIt() {
        let track = Self.playing.metadata.trackID!
        func request(_ path: String, _ position: Int64) -> MPRISRequest {
            MPRISRequest.method("SetPosition", of: Self.player, arguments: [.objectPath(path), .int64(position)],
                                current: Self.playing)
        }
        #expect(request(track, 30_000_000) == .command(.seek(.absolute(30))))
        #expect(request("/org/mhz/track/1", 30_000_000) == .nothing)
        #expect(request(track, -1) == .nothing)
        #expect(request(track, 338_000_000) == .nothing)
    }

    @Test func volumeWritesArePercentages() {
        #expect(MPRISRequest.write("Volume", value: .double(0.4)) == .command(.volume(40)))
        #expect(MPRISRequest.write("Volume", value: .double(-0.2)) == .command(.volume(0)))
        #expect(MPRISRequest.write("Volume", value: .double(1.7)) == .command(.volume(100)))
        #expect(MPRISRequest.write("Volume", value: .string("x")) == .invalidArguments)
        #expect(MPRISRequest.write("Rate", value: .double(2)) == .nothing)
    }
}
