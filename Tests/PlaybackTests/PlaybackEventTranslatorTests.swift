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

    /// Feeds events, all at time `ms`, and returns everything they produced.
    func feed(_ translator: inout PlaybackEventTranslator, _ events: [MPVEvent], at ms: Int = 0) -> [PlaybackEvent] {
        events.flatMap { translator.translate($0, at: at(ms)) }
    }

    /// A translator whose entry 1 has started, with duration 30.
    func playing() -> PlaybackEventTranslator {
        var translator = PlaybackEventTranslator(paused: false, volume: 100)
        translator.noteLoad(1)
        _ = feed(&translator, [.startFile(entry: 1), .fileLoaded, .propertyChanged(.duration, .double(30)),
                               .playbackRestart])
        return translator
    }

    @Test("started once, after FILE_LOADED, with the known duration; no progress before it")
    func startedOnce() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100)
        translator.noteLoad(1)
        #expect(feed(&translator, [.startFile(entry: 1), timePos(0),
                                   .playbackRestart]) == [])
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
        #expect(feed(&translator, [.seek, timePos(2)], at: 410)
                == [progress(1, 2)])
        translator.noteSeekRequested()
        translator.noteSeekFailed()
        #expect(feed(&translator, [timePos(2.5)], at: 700) == [progress(1, 2.5)])
    }

    @Test("end reasons map to eof, stopped and mpv's error text")
    func endReasons() {
        var translator = playing()
        #expect(feed(&translator, [end(1, .eof)]) == [.finished(item(1), .eof)])
        #expect(feed(&translator, [timePos(29)]) == [])
        translator.noteLoad(2)
        #expect(feed(&translator, [.startFile(entry: 2), end(2, .error, error: -13)])
                == [.finished(item(2), .error("loading failed"))])
        translator.noteLoad(3)
        #expect(feed(&translator, [.startFile(entry: 3), end(3, .quit)])
                == [.finished(item(3), .stopped)])
    }

    @Test("a load dropped before mpv began it is finished when a later entry starts")
    func droppedLoads() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100)
        translator.noteLoad(1)
        translator.noteLoad(2)
        translator.noteLoad(3)
        #expect(feed(&translator, [.startFile(entry: 3)])
                == [.finished(item(1), .stopped), .finished(item(2), .stopped)])
        #expect(feed(&translator, [end(3, .stop)]) == [.finished(item(3), .stopped)])
    }

    @Test("stop's marker reply finishes the loads registered before it, not later ones")
    func stopMarker() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100)
        #expect(translator.noteStop() == nil)
        translator.noteLoad(4)
        #expect(translator.noteStop() == 4)
        translator.noteLoad(5)
        #expect(feed(&translator, [.commandReply(id: 4, error: 0)]) == [.finished(item(4), .stopped)])
        #expect(feed(&translator, [.commandReply(id: 4, error: 0)]) == [])
        #expect(feed(&translator, [.startFile(entry: 5)]) == [])
    }

    @Test("a playlist file's first entry reports under the load's id")
    func redirectAlias() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100)
        translator.noteLoad(1)
        let redirect = MPVEndFile(entry: 1, reason: .redirect, insertedEntry: 2, insertedCount: 1)
        #expect(feed(&translator, [.startFile(entry: 1), .endFile(redirect)]) == [])
        #expect(feed(&translator, [.startFile(entry: 2), .fileLoaded, .playbackRestart])
                == [.started(item(1), duration: nil)])
        #expect(feed(&translator, [end(2, .eof)]) == [.finished(item(1), .eof)])
    }

    @Test("pause and volume report changes from the seeded state only")
    func pauseAndVolume() {
        var translator = PlaybackEventTranslator(paused: false, volume: 80)
        func pause(_ flag: Bool) -> MPVEvent { .propertyChanged(.pause, .flag(flag)) }
        func volume(_ level: Double) -> MPVEvent { .propertyChanged(.volume, .double(level)) }
        #expect(feed(&translator, [pause(false), volume(80)]) == [])
        #expect(feed(&translator, [pause(true), pause(true)]) == [.paused])
        #expect(feed(&translator, [pause(false)]) == [.resumed])
        #expect(feed(&translator, [volume(39.6), volume(40.2)]) == [.volume(40)])
    }

    @Test("shutdown finishes the current item and unstarted loads, then says shutdown")
    func shutdown() {
        var translator = playing()
        translator.noteLoad(2)
        #expect(feed(&translator, [.shutdown])
                == [.finished(item(1), .stopped), .finished(item(2), .stopped), .shutdown])
    }
}
