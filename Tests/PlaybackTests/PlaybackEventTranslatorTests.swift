@testable import Playback
import Testing

/// The translator fed with scripted mpv events (no libmpv): the promises of `PlaybackEvent`.
@Suite("PlaybackEventTranslator")
struct PlaybackEventTranslatorTests {
    let t0 = ContinuousClock.now
    func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }
    func item(_ raw: Int64) -> PlaybackItemID { PlaybackItemID(rawValue: raw) }
    func timePos(_ seconds: Double) -> MPVEvent { .propertyChanged(.timePosition, .double(seconds)) }
    func progress(_ raw: Int64, _ seconds: Double) -> PlaybackEvent { .progress(item(raw), position: seconds) }
    func end(_ entry: Int64, _ reason: MPVEndFile.Reason, error: Int32 = 0) -> MPVEvent {
        .endFile(MPVEndFile(entry: entry, reason: reason, error: error))
    }
    func log(_ prefix: String, _ text: String, level: String = "warn") -> MPVEvent {
        .logMessage(MPVLogMessage(level: level, prefix: prefix, text: text))
    }

    /// Feeds events, all at time `ms`, then an `MPV_EVENT_NONE` (what the loop gets once
    /// mpv's queue is drained, which decides deferred END_FILEs), and returns the events.
    func feed(_ translator: inout PlaybackEventTranslator, _ events: [MPVEvent], at ms: Int = 0) -> [PlaybackEvent] {
        for event in events + [.none] { translator.translate(event, at: at(ms)) }
        while translator.needsDrain { translator.translate(.none, at: at(ms)) }  // as the loop polls
        return translator.takeOutput().events
    }

    /// A translator whose entry 1 (a local file, so an early end is no break) has started,
    /// with duration 30.
    func playing(policy: RecoveryPolicy = RecoveryPolicy()) -> PlaybackEventTranslator {
        var translator = PlaybackEventTranslator(paused: false, volume: 100, policy: policy)
        translator.noteLoad(1, url: "/music/1.mp3")
        _ = feed(&translator, [.startFile(entry: 1), .fileLoaded, .propertyChanged(.duration, .double(30)),
                               .playbackRestart])
        return translator
    }

    @Test("started once, after FILE_LOADED, with the known duration; no progress before it")
    func startedOnce() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100)
        translator.noteLoad(1, url: "u")
        #expect(feed(&translator, [.startFile(entry: 1), timePos(0), .playbackRestart]) == [])
        #expect(feed(&translator, [.fileLoaded, .propertyChanged(.duration, .double(30)), .playbackRestart])
                == [.started(item(1), duration: 30)])
        #expect(feed(&translator, [.seek, .playbackRestart]) == [])
        #expect(feed(&translator, [.propertyChanged(.duration, .double(31))]) == [.duration(item(1), 31)])
        #expect(feed(&translator, [.propertyChanged(.duration, .double(31)), .propertyChanged(.duration, .none)]) == [])
    }

    @Test("progress is throttled to one per 250 ms and sent only on change")
    func progressThrottle() {
        var translator = playing()
        #expect(feed(&translator, [timePos(0.1)], at: 0) == [progress(1, 0.1)])
        #expect(feed(&translator, [timePos(0.2)], at: 100) == [])
        #expect(feed(&translator, [timePos(0.35)], at: 250) == [progress(1, 0.35)])
        #expect(feed(&translator, [timePos(0.35)], at: 600) == [])
        #expect(feed(&translator, [.propertyChanged(.timePosition, .none)], at: 900) == [])
    }

    @Test("after a seek request, stale positions are dropped and the landing is sent at once")
    func seekGate() {
        var translator = playing()
        _ = feed(&translator, [timePos(5)], at: 0)
        translator.noteSeekRequested()
        #expect(feed(&translator, [timePos(5.4)], at: 400) == [])
        #expect(feed(&translator, [.seek, timePos(2)], at: 410) == [progress(1, 2)])
        translator.noteSeekRequested()
        translator.noteSeekFailed()
        #expect(feed(&translator, [timePos(2.5)], at: 700) == [progress(1, 2.5)])
    }

    @Test("end reasons: eof, stopped, mpv's error text, HTTP status, audio output failure")
    func endReasons() {
        var translator = playing()
        #expect(feed(&translator, [end(1, .eof)]) == [.finished(item(1), .eof)])
        #expect(feed(&translator, [timePos(29)]) == [])
        translator.noteLoad(2, url: "http://x/2")
        #expect(feed(&translator, [.startFile(entry: 2), end(2, .error, error: -13)])
                == [.finished(item(2), .error("loading failed"))])
        translator.noteLoad(3, url: "http://x/3")
        #expect(feed(&translator, [.startFile(entry: 3), end(3, .quit)]) == [.finished(item(3), .stopped)])
        translator.noteLoad(4, url: "http://x/4")
        #expect(feed(&translator, [.startFile(entry: 4), log("ffmpeg", "http: HTTP error 403 Forbidden"),
                                   log("stream", "Failed to open http://x/4.", level: "error"), end(4, .error, error: -13)])
                == [.finished(item(4), .mediaUnavailable(status: 403))])
        translator.noteLoad(5, url: "http://x/5")
        #expect(feed(&translator, [.startFile(entry: 5), .fileLoaded, .playbackRestart, end(5, .error, error: -14)])
                == [.started(item(5), duration: nil), .finished(item(5), .audioOutputFailed)])
    }

    @Test("an END_FILE waits for log lines mpv delivers after it, until the queue is drained")
    func lateLogLineDecidesEnd() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100)
        translator.noteLoad(1, url: "http://x/1")
        translator.noteQueued(2, url: "http://x/2")
        for event in [MPVEvent.startFile(entry: 1), end(1, .error, error: -13), .startFile(entry: 2)] {
            translator.translate(event, at: at(0))
        }
        #expect(translator.needsDrain)
        #expect(translator.takeOutput().events == [])
        translator.translate(log("ffmpeg", "http: HTTP error 404 Not Found"), at: at(0))
        translator.translate(.none, at: at(0))
        #expect(!translator.needsDrain)
        // Entry 2 was held back, in order, behind the decision (and it started no item yet).
        #expect(translator.takeOutput().events == [.finished(item(1), .mediaUnavailable(status: 404))])
        #expect(translator.current?.entry == 2)
    }

    @Test("a prefetched next item whose open failed earlier reports the status logged then")
    func prefetchFailureStatus() {
        var translator = playing()
        translator.noteQueued(2, url: "http://x/gone")
        _ = feed(&translator, [log("ffmpeg", "http: HTTP error 410 Gone"),
                               log("stream", "Failed to open http://x/gone.", level: "error")])
        #expect(feed(&translator, [end(1, .eof), .startFile(entry: 2), end(2, .error, error: -13)])
                == [.finished(item(1), .eof), .finished(item(2), .mediaUnavailable(status: 410))])
    }

    @Test("the queued item starts with its own id right after the current one's eof")
    func queuedHandOver() {
        var translator = playing()
        translator.noteQueued(2, url: "http://x/2")
        #expect(translator.queued?.item == 2)
        let events = feed(&translator, [end(1, .eof), .startFile(entry: 2), .fileLoaded,
                                         .propertyChanged(.duration, .double(20)), .playbackRestart])
        #expect(events == [.finished(item(1), .eof), .started(item(2), duration: 20)])
        #expect(translator.queued == nil)
        #expect(translator.takeOutput().actions == [])
    }

    @Test("an entry replaced while mpv was already starting it finishes once, by its own END_FILE")
    func replacedWhileStarting() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100)
        translator.noteLoad(1, url: "u")
        translator.noteLoad(2, url: "u")
        #expect(feed(&translator, [.startFile(entry: 1), end(1, .stop), .startFile(entry: 2)])
                == [.finished(item(1), .stopped)])
    }

    @Test("a dequeued or replaced queued item finishes as stopped, before the next start")
    func dequeuedAndReplaced() {
        var translator = playing()
        translator.noteQueued(2, url: "http://x/2")
        translator.noteDequeued()
        #expect(translator.takeOutput().events == [.finished(item(2), .stopped)])
        translator.noteQueued(3, url: "http://x/3")
        translator.noteLoad(4, url: "http://x/4")
        #expect(feed(&translator, [end(1, .stop), .startFile(entry: 4)])
                == [.finished(item(1), .stopped), .finished(item(3), .stopped)])
    }

    @Test("stop's marker reply finishes the loads registered before it, not later ones")
    func stopMarker() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100)
        #expect(translator.noteStop() == nil)
        translator.noteLoad(4, url: "u")
        #expect(translator.noteStop() == 4)
        translator.noteLoad(5, url: "u")
        #expect(feed(&translator, [.commandReply(id: 4, error: 0)]) == [.finished(item(4), .stopped)])
        #expect(feed(&translator, [.commandReply(id: 4, error: 0)]) == [])
        #expect(feed(&translator, [.startFile(entry: 5)]) == [])
    }

    @Test("a playlist file's first entry reports under the load's id")
    func redirectAlias() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100)
        translator.noteLoad(1, url: "u")
        let redirect = MPVEndFile(entry: 1, reason: .redirect, insertedEntry: 2, insertedCount: 1)
        #expect(feed(&translator, [.startFile(entry: 1), .endFile(redirect)]) == [])
        #expect(feed(&translator, [.startFile(entry: 2), .fileLoaded, .playbackRestart])
                == [.started(item(1), duration: nil)])
        #expect(feed(&translator, [end(2, .eof)]) == [.finished(item(1), .eof)])
    }

    @Test("pause, mute and volume report changes from the seeded state only")
    func pauseMuteVolume() {
        var translator = PlaybackEventTranslator(paused: false, volume: 80)
        func pause(_ flag: Bool) -> MPVEvent { .propertyChanged(.pause, .flag(flag)) }
        func volume(_ level: Double) -> MPVEvent { .propertyChanged(.volume, .double(level)) }
        #expect(feed(&translator, [pause(false), volume(80), .propertyChanged(.mute, .flag(false))]) == [])
        #expect(feed(&translator, [pause(true), pause(true)]) == [.paused])
        #expect(feed(&translator, [pause(false)]) == [.resumed])
        #expect(feed(&translator, [volume(39.6), volume(40.2)]) == [.volume(40)])
        #expect(feed(&translator, [.propertyChanged(.mute, .flag(true))]) == [.muted(true)])
    }

    @Test("tags seen while loading follow started; later changes (ICY titles) are sent as they come")
    func metadata() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100)
        translator.noteLoad(1, url: "u")
        let tags = MPVNode.map(["title": .string("Song"), "artist": .string("Band")])
        let expected = StreamMetadata(tags: ["title": "Song", "artist": "Band"])
        #expect(feed(&translator, [.startFile(entry: 1), .fileLoaded, .propertyChanged(.metadata, tags)]) == [])
        #expect(feed(&translator, [.playbackRestart]) == [.started(item(1), duration: nil), .metadata(item(1), expected)])
        #expect(feed(&translator, [.propertyChanged(.metadata, tags)]) == [])
        let icy = MPVNode.map(["icy-title": .string("Next Song")])
        #expect(feed(&translator, [.propertyChanged(.metadata, icy)])
                == [.metadata(item(1), StreamMetadata(tags: ["icy-title": "Next Song"]))])
        #expect(StreamMetadata(tags: ["icy-title": "Next Song", "TITLE": "x"]).title == "Next Song")
        #expect(StreamMetadata(tags: ["TITLE": "x"]).title == "x")
    }

    @Test("shutdown finishes the current item and unstarted loads, then says shutdown")
    func shutdown() {
        var translator = playing()
        translator.noteQueued(2, url: "u")
        #expect(feed(&translator, [.shutdown])
                == [.finished(item(1), .stopped), .finished(item(2), .stopped), .shutdown])
    }
}
