@testable import Playback
import Testing

/// loadfile's per-file options, as mpv gets them: a start and a song's gain.
@Suite("loadfile options")
struct FileOptionsTests {
    @Test("a start and a gain, in tenths of a dB, as mpv's per-file options; nothing when there are neither")
    func options() {
        #expect(MPVHandle.fileOptions(startAt: 0, gain: nil) == nil)
        #expect(MPVHandle.fileOptions(startAt: 12.5, gain: nil) == "start=12.5")
        #expect(MPVHandle.fileOptions(startAt: 0, gain: -6.2) == "af=lavfi=[volume=-6.2dB]")
        #expect(MPVHandle.fileOptions(startAt: 95, gain: 3) == "start=95,af=lavfi=[volume=3dB]")
        #expect(MPVHandle.fileOptions(startAt: 0, gain: 12.34) == "af=lavfi=[volume=12.3dB]")
    }

    @Test("no filter for a gain under a tenth of a dB, or one that is no level at all")
    func noFilter() {
        #expect(MPVHandle.fileOptions(startAt: 0, gain: 0) == nil)
        #expect(MPVHandle.fileOptions(startAt: 0, gain: 0.04) == nil)
        #expect(MPVHandle.fileOptions(startAt: 0, gain: .nan) == nil)
        #expect(MPVHandle.fileOptions(startAt: 0, gain: .infinity) == nil)
        #expect(MPVHandle.fileOptions(startAt: 0, gain: 61) == nil)
        #expect(MPVHandle.fileOptions(startAt: 3, gain: -1e300) == "start=3")
    }
}
