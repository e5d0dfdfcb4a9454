import Backoff
@testable import Playback
import Testing

/// Recovery decisions of the translator, with scripted mpv events and a scripted clock.
@Suite("PlaybackEventTranslator recovery")
struct RecoveryTranslatorTests {
    let t0 = ContinuousClock.now
    let policy = RecoveryPolicy(maxAttempts: 3, backoff: Backoff(initial: 0.5, cap: 4), stallTimeout: 5)
    func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }
    func item(_ raw: Int64) -> PlaybackItemID { PlaybackItemID(rawValue: raw) }
    func timePos(_ seconds: Double) -> MPVEvent { .propertyChanged(.timePosition, .double(seconds)) }
    func end(_ entry: Int64, _ reason: MPVEndFile.Reason, error: Int32 = 0) -> MPVEvent {
        .endFile(MPVEndFile(entry: entry, reason: reason, error: error))
    }
    /// What ffmpeg logs when the server drops the connection (mpv 0.35.1, ffmpeg 5.1).
    let dropped = MPVEvent.logMessage(MPVLogMessage(level: "error", prefix: "ffmpeg",
                                                    text: "http: Stream ends prematurely at 98304, should be 321036"))

    func feed(_ translator: inout PlaybackEventTranslator, _ events: [MPVEvent], at ms: Int = 0)
        -> (events: [PlaybackEvent], actions: [PlayerAction]) {
        for event in events + [.none] { translator.translate(event, at: at(ms)) }
        while translator.needsDrain { translator.translate(.none, at: at(ms)) }  // as the loop polls
        return translator.takeOutput()
    }

    /// Entry 1 (`http://x/1`, 30 s) playing at 12 s.
    func playingAt12() -> PlaybackEventTranslator {
        var translator = PlaybackEventTranslator(paused: false, volume: 100, policy: policy)
        translator.noteLoad(1, url: "http://x/1")
        _ = feed(&translator, [.startFile(entry: 1), .fileLoaded, .propertyChanged(.duration, .double(30)),
                               .playbackRestart, timePos(12)])
        return translator
    }

    @Test("a dropped connection ending the item early is reloaded at its position under the same id")
    func reloadAtPosition() {
        var translator = playingAt12()
        let broke = feed(&translator, [dropped, end(1, .eof)], at: 1000)
        #expect(broke.events == [.recovering(item(1), attempt: 1, position: 12)])
        #expect(broke.actions == [.removeEntry(1)])
        #expect(translator.nextDeadline == at(1500))

        translator.fire(at: at(1499))
        #expect(translator.takeOutput().actions == [])
        translator.fire(at: at(1500))
        #expect(translator.takeOutput().actions == [.reload(item: 1, url: "http://x/1", start: 12, requeue: nil)])
        translator.noteReloaded(entry: 2, requeued: nil)

        let back = feed(&translator, [.startFile(entry: 2), .fileLoaded, timePos(12), .playbackRestart,
                                      .propertyChanged(.duration, .double(30))], at: 1600)
        #expect(back.events == [.recovered(item(1), position: 12)])
        #expect(feed(&translator, [timePos(13.2)], at: 2000).events == [.progress(item(1), position: 13.2)])
        #expect(translator.recovery == nil, "1.2 s past the break: the incident is over")
        #expect(feed(&translator, [timePos(29.9), end(2, .eof)], at: 3000).events
                == [.progress(item(1), position: 29.9), .finished(item(1), .eof)])
    }

    @Test("no recovery for local files, at the end of the duration, or when disabled")
    func realEndsAreNotBreaks() {
        var local = PlaybackEventTranslator(paused: false, volume: 100, policy: policy)
        local.noteLoad(1, url: "/music/song.mp3")
        _ = feed(&local, [.startFile(entry: 1), .fileLoaded, .propertyChanged(.duration, .double(30)),
                          .playbackRestart, timePos(12)])
        #expect(feed(&local, [end(1, .eof)]).events == [.finished(item(1), .eof)])
        var nearEnd = playingAt12()
        #expect(feed(&nearEnd, [timePos(28.5), dropped, end(1, .eof)], at: 1000).events
                == [.progress(item(1), position: 28.5), .finished(item(1), .eof)])
        var disabled = PlaybackEventTranslator(paused: false, volume: 100, policy: .disabled)
        disabled.noteLoad(1, url: "http://x/1")
        _ = feed(&disabled, [.startFile(entry: 1), .fileLoaded, .playbackRestart, timePos(3)])
        #expect(feed(&disabled, [dropped, end(1, .eof)]).events == [.finished(item(1), .eof)])
    }

    @Test("the queued item is held while the broken one reloads, then plays under its own id")
    func queuedItemWaits() {
        var translator = playingAt12()
        translator.noteQueued(2, url: "http://x/2")
        let broke = feed(&translator, [dropped, end(1, .eof), .startFile(entry: 2), .fileLoaded, .playbackRestart])
        #expect(broke.events == [.recovering(item(1), attempt: 1, position: 12)])
        #expect(broke.actions == [.removeEntry(1), .halt])
        #expect(feed(&translator, [end(2, .stop)]).events == [], "the halted queued entry is silent")

        translator.fire(at: at(500))
        let requeue = PlayerAction.QueuedURL(item: 2, url: "http://x/2")
        #expect(translator.takeOutput().actions == [.reload(item: 1, url: "http://x/1", start: 12, requeue: requeue)])
        translator.noteReloaded(entry: 3, requeued: 4)
        #expect(feed(&translator, [.startFile(entry: 3), .fileLoaded, .playbackRestart]).events
                == [.recovered(item(1), position: 12)])
        let handOver = feed(&translator, [timePos(29.5), end(3, .eof), .startFile(entry: 4), .fileLoaded,
                                          .playbackRestart], at: 2000)
        #expect(handOver.events == [.progress(item(1), position: 29.5), .finished(item(1), .eof),
                                     .started(item(2), duration: nil)])
    }

    @Test("a queued item's start position survives the re-queue around a reload")
    func queuedStartSurvivesTheReload() {
        var translator = playingAt12()
        translator.noteQueued(2, url: "http://x/2", startAt: 95)
        _ = feed(&translator, [dropped, end(1, .eof)])
        translator.fire(at: at(500))
        let requeue = PlayerAction.QueuedURL(item: 2, url: "http://x/2", start: 95)
        #expect(translator.takeOutput().actions == [.reload(item: 1, url: "http://x/1", start: 12, requeue: requeue)])
    }

    @Test("with an untimed output (ao=pcm) an end short of the duration is a break only with trouble in the log")
    func untimedOutputEnds() {
        func playing() -> PlaybackEventTranslator {
            var translator = PlaybackEventTranslator(paused: false, volume: 100, policy: policy, untimedOutput: true)
            translator.noteLoad(1, url: "http://x/1")
            _ = feed(&translator, [.startFile(entry: 1), .fileLoaded, .propertyChanged(.duration, .double(30)),
                                   .playbackRestart, timePos(0)])
            return translator
        }
        var quiet = playing()
        #expect(feed(&quiet, [end(1, .eof)], at: 40).events == [.finished(item(1), .eof)])
        var cut = playing()
        #expect(feed(&cut, [dropped, end(1, .eof)], at: 40).events == [.recovering(item(1), attempt: 1, position: 0)])
    }

    @Test("the broken item's gain and the queued item's go with the reload and the re-queue")
    func gainsSurviveTheReload() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100, policy: policy)
        translator.noteLoad(1, url: "http://x/1", gain: -6.2)
        _ = feed(&translator, [.startFile(entry: 1), .fileLoaded, .propertyChanged(.duration, .double(30)),
                               .playbackRestart, timePos(12)])
        translator.noteQueued(2, url: "http://x/2", startAt: 0, gain: 3.5)
        _ = feed(&translator, [dropped, end(1, .eof)])
        translator.fire(at: at(500))
        let requeue = PlayerAction.QueuedURL(item: 2, url: "http://x/2", start: 0, gain: 3.5)
        #expect(translator.takeOutput().actions
                == [.reload(item: 1, url: "http://x/1", start: 12, gain: -6.2, requeue: requeue)])
    }

    @Test("when the player gives up, the queued item goes back with its gain")
    func restoredQueueKeepsItsGain() {
        var translator = playingAt12()
        translator.noteQueued(2, url: "http://x/2", startAt: 0, gain: 3.5)
        _ = feed(&translator, [dropped, end(1, .eof)])
        var now = 0
        var last: [PlayerAction] = []
        for attempt in 1...3 {
            now += Int(policy.delay(forAttempt: attempt) * 1000)
            translator.fire(at: at(now))
            _ = translator.takeOutput()
            let entry = Int64(10 + attempt)
            translator.noteReloaded(entry: entry, requeued: nil)
            last = feed(&translator, [.startFile(entry: entry), end(entry, .error, error: -13)], at: now).actions
        }
        #expect(last == [.removeEntry(13), .halt,
                         .restoreQueued(PlayerAction.QueuedURL(item: 2, url: "http://x/2", start: 0, gain: 3.5))])
    }

    @Test("failed attempts back off, then the player gives up and the queued item plays on")
    func givesUp() {
        var translator = playingAt12()
        translator.noteQueued(2, url: "http://x/2")
        _ = feed(&translator, [dropped, end(1, .eof)])
        var now = 0
        for attempt in 1...3 {
            now += Int(policy.delay(forAttempt: attempt) * 1000)
            translator.fire(at: at(now))
            guard case .reload? = translator.takeOutput().actions.first else {
                Issue.record("attempt \(attempt) did not reload"); return
            }
            let entry = Int64(10 + attempt)
            translator.noteReloaded(entry: entry, requeued: nil)
            let failed = feed(&translator, [.startFile(entry: entry), end(entry, .error, error: -13)], at: now)
            if attempt < 3 {
                #expect(failed.events == [.recovering(item(1), attempt: attempt + 1, position: 12)])
            } else {
                #expect(failed.events == [.gaveUp(item(1), attempts: 3, position: 12), .finished(item(1), .connectionLost)])
                #expect(failed.actions == [.removeEntry(entry), .halt,
                                           .restoreQueued(PlayerAction.QueuedURL(item: 2, url: "http://x/2"))])
            }
        }
        #expect(policy.delay(forAttempt: 1) == 0.5 && policy.delay(forAttempt: 2) == 1 && policy.delay(forAttempt: 3) == 2)
        #expect(translator.recovery == nil)
    }

    @Test("an expired URL: the reload is refused, the probe says 403, the item finishes as unavailable")
    func expiredURL() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100, policy: policy, probesStatus: true)
        translator.noteLoad(1, url: "http://x/1")
        _ = feed(&translator, [.startFile(entry: 1), .fileLoaded, .propertyChanged(.duration, .double(30)),
                               .playbackRestart, timePos(12)])
        let refused = MPVEvent.logMessage(MPVLogMessage(level: "warn", prefix: "ffmpeg", text: "http: HTTP error 403 Forbidden"))
        #expect(feed(&translator, [dropped, refused, end(1, .eof)]).events
                == [.recovering(item(1), attempt: 1, position: 12)])
        translator.fire(at: at(500))
        _ = translator.takeOutput()
        translator.noteReloaded(entry: 2, requeued: nil)
        let failed = feed(&translator, [.startFile(entry: 2), refused, end(2, .error, error: -13)], at: 600)
        #expect(failed.actions == [.probe(entry: 2, url: "http://x/1")])
        translator.noteProbeResult(entry: 2, status: 403, at: at(650))
        #expect(translator.takeOutput().events == [.finished(item(1), .mediaUnavailable(status: 403))])
        #expect(translator.nextDeadline == nil)
    }

    @Test("a reload that failed to open while the probe finds the URL working (206) is tried again, not refused")
    func probeAnsweringSuccessIsNoRefusal() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100, policy: policy, probesStatus: true)
        translator.noteLoad(1, url: "http://x/1")
        _ = feed(&translator, [.startFile(entry: 1), .fileLoaded, .propertyChanged(.duration, .double(30)),
                               .playbackRestart, timePos(12)])
        #expect(feed(&translator, [dropped, end(1, .eof)]).events == [.recovering(item(1), attempt: 1, position: 12)])
        translator.fire(at: at(500))
        _ = translator.takeOutput()
        translator.noteReloaded(entry: 2, requeued: nil)
        let failed = feed(&translator, [.startFile(entry: 2), end(2, .error, error: -13)], at: 600)
        #expect(failed.actions == [.probe(entry: 2, url: "http://x/1")])
        // Seen in CI: the probe's Range request got 206 once the server was back.
        translator.noteProbeResult(entry: 2, status: 206, at: at(650))
        let output = translator.takeOutput()
        #expect(output.events == [.recovering(item(1), attempt: 2, position: 12)], "\(output)")
        #expect(translator.recovery != nil)
    }

    @Test("a reload that plays and then ends without trouble in the log is a real end")
    func reloadEndingIsRealEnd() {
        var translator = playingAt12()
        _ = feed(&translator, [end(1, .eof)])
        translator.fire(at: at(500))
        _ = translator.takeOutput()
        translator.noteReloaded(entry: 2, requeued: nil)
        #expect(feed(&translator, [.startFile(entry: 2), .fileLoaded, .playbackRestart, timePos(12.3), end(2, .eof)],
                     at: 600).events == [.recovered(item(1), position: 12), .progress(item(1), position: 12.3),
                                          .finished(item(1), .eof)])
    }

    @Test("without a logged status, a refused URL is probed before its END_FILE is decided")
    func probeDecides() {
        var translator = PlaybackEventTranslator(paused: false, volume: 100, policy: policy, probesStatus: true)
        translator.noteLoad(1, url: "http://x/1")
        translator.noteQueued(2, url: "http://x/2")
        for event in [MPVEvent.startFile(entry: 1), end(1, .error, error: -13), .none, .startFile(entry: 2)] {
            translator.translate(event, at: at(0))
        }
        #expect(translator.takeOutput() == ([], [.probe(entry: 1, url: "http://x/1")]))
        #expect(!translator.needsDrain, "the loop must not spin while the probe runs")
        translator.noteProbeResult(entry: 1, status: 404, at: at(50))
        #expect(translator.takeOutput().events == [.finished(item(1), .mediaUnavailable(status: 404))])
        #expect(translator.current?.entry == 2)
    }

    @Test("a stall longer than stallTimeout becomes a recovery that replaces the stalled entry")
    func stallTimeout() {
        var translator = playingAt12()
        #expect(feed(&translator, [.propertyChanged(.pausedForCache, .flag(true))], at: 1000).events
                == [.buffering(item(1), true)])
        #expect(translator.nextDeadline == at(6000))
        translator.fire(at: at(6000))
        #expect(translator.takeOutput().events == [.recovering(item(1), attempt: 1, position: 12)])
        translator.fire(at: at(6500))
        #expect(translator.takeOutput().actions == [.reload(item: 1, url: "http://x/1", start: 12, requeue: nil)])
        translator.noteReloaded(entry: 2, requeued: nil)
        #expect(feed(&translator, [end(1, .stop), .startFile(entry: 2), .fileLoaded, .playbackRestart]).events
                == [.recovered(item(1), position: 12)])
    }

    @Test("a buffering spell that ends in time is just reported")
    func shortStall() {
        var translator = playingAt12()
        _ = feed(&translator, [.propertyChanged(.pausedForCache, .flag(true))], at: 1000)
        #expect(feed(&translator, [.propertyChanged(.pausedForCache, .flag(false))], at: 2000).events
                == [.buffering(item(1), false)])
        #expect(translator.nextDeadline == nil)
    }

    @Test("a load during the wait finishes the recovering item as stopped at once")
    func loadAbandonsRecovery() {
        var translator = playingAt12()
        _ = feed(&translator, [dropped, end(1, .eof)])
        translator.noteLoad(5, url: "http://x/5")
        #expect(translator.takeOutput().events == [.finished(item(1), .stopped)])
        #expect(translator.nextDeadline == nil)
        #expect(feed(&translator, [.startFile(entry: 5)]).events == [])
    }
}
