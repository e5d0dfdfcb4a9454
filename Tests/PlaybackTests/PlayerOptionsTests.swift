import Backoff
@testable import Playback
import Testing

/// What `PlayerOptions` hands to mpv (no libmpv needed).
@Suite("PlayerOptions")
struct PlayerOptionsTests {
    func value(_ name: String, in options: PlayerOptions) -> MPVOptionValue? {
        options.mpvSettings.last { $0.name == name }?.value
    }

    @Test("the deliberate radio defaults are set")
    func defaults() {
        let options = PlayerOptions()
        let expected: [String: String] = [
            "load-scripts": "no", "ytdl": "no", "load-stats-overlay": "no", "load-osd-console": "no",
            "load-auto-profiles": "no", "osc": "no", "idle": "yes", "vid": "no", "vo": "null", "terminal": "no",
            "input-default-bindings": "no", "input-vo-keyboard": "no", "network-timeout": "10", "cache": "yes",
            "demuxer-lavf-o": "allowed_extensions=ALL", "gapless-audio": "yes", "prefetch-playlist": "yes",
            "audio-display": "no", "volume": "100", "stream-lavf-o": "reconnect_delay_max=1",
            "demuxer-max-bytes": "16MiB", "demuxer-max-back-bytes": "1MiB", "demuxer-readahead-secs": "30",
        ]
        for (name, string) in expected {
            #expect(value(name, in: options) == .string(string), "\(name)")
        }
        #expect(value("ao", in: options) == nil)
        #expect(value("user-agent", in: options) == nil)
        #expect(value("http-header-fields", in: options) == nil)
        // Playback does no HTTP itself: without a probe from its owner, none is asked.
        #expect(options.statusProbe == nil)
    }

    @Test("video, audio output, user agent and headers")
    func choices() {
        let options = PlayerOptions(audioOutput: "null", video: true, userAgent: "mhz/1",
                                    httpHeaders: ["Cookie: a=1, b=2"], networkTimeout: 2.5, initialVolume: 140)
        #expect(value("vid", in: options) == nil)
        #expect(value("vo", in: options) == .string("gpu,x11,wlshm"))
        #expect(value("ao", in: options) == .string("null"))
        #expect(value("user-agent", in: options) == .string("mhz/1"))
        #expect(value("http-header-fields", in: options) == .list(["Cookie: a=1, b=2"]))
        #expect(value("network-timeout", in: options) == .string("2.5"))
        #expect(value("volume", in: options) == .string("100"))
    }

    @Test("the recovery policy sets ffmpeg's reconnect cap and doubles its waits up to the cap")
    func recoveryPolicy() {
        let options = PlayerOptions(recovery: RecoveryPolicy(maxAttempts: 5, backoff: Backoff(initial: 0.25, cap: 1),
                                                             transportReconnectMaxDelay: 0))
        #expect(value("stream-lavf-o", in: options) == .string("reconnect_delay_max=0"))
        #expect((1...5).map(options.recovery.delay(forAttempt:)) == [0.25, 0.5, 1, 1, 1])
        #expect(RecoveryPolicy.disabled.maxAttempts == 0)
    }

    @Test("video needs a display: DISPLAY or WAYLAND_DISPLAY, non-empty")
    func videoDisplay() {
        #expect(VideoDisplay.name(in: [:]) == nil)
        #expect(VideoDisplay.name(in: ["DISPLAY": ""]) == nil)
        #expect(VideoDisplay.name(in: ["DISPLAY": ":0"]) == ":0")
        #expect(VideoDisplay.name(in: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":1"]) == "wayland-0")
        #expect(throws: PlaybackError.noDisplay) { try VideoDisplay.require(in: ["TERM": "xterm"]) }
        #expect(throws: PlaybackError.noDisplay) { try VideoDisplay.require(in: ["DISPLAY": "", "WAYLAND_DISPLAY": ""]) }
        #expect(throws: Never.self) { try VideoDisplay.require(in: ["DISPLAY": ":0"]) }
    }

    @Test("extra options come last, so they override")
    func extraOptionsLast() {
        let options = PlayerOptions(extraOptions: [("cache", "no"), ("msg-level", "all=warn")])
        let settings = options.mpvSettings
        #expect(settings.suffix(2).map(\.name) == ["cache", "msg-level"])
        #expect(value("cache", in: options) == .string("no"))
    }

    @Test("numbers are written the way mpv parses them", arguments: [
        (10.0, "10"), (2.5, "2.5"), (-3.0, "-3"), (0.25, "0.25"),
    ])
    func numbers(value: Double, text: String) {
        #expect(MPVArgument.number(value) == text)
    }
}

/// Which outputs count as untimed (see `PlaybackEventTranslator.untimedOutput`).
@Suite("PlayerOptions untimed output")
struct PlayerOptionsUntimedTests {
    @Test("pcm, by audioOutput or a later ao option, is untimed; a device or null is not")
    func untimed() {
        #expect(PlayerOptions(audioOutput: "pcm").writesUntimed)
        #expect(PlayerOptions(audioOutput: "null", extraOptions: [("ao", "pcm")]).writesUntimed)
        #expect(PlayerOptions(audioOutput: "pcm,alsa").writesUntimed)
        #expect(!PlayerOptions().writesUntimed)
        #expect(!PlayerOptions(audioOutput: "null").writesUntimed)
        #expect(!PlayerOptions(audioOutput: "alsa,pcm").writesUntimed)
        #expect(!PlayerOptions(audioOutput: "pcm", extraOptions: [("ao", "pulse")]).writesUntimed)
    }
}
