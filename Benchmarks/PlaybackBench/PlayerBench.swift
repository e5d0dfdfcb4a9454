import BenchKit
import Foundation
import Playback
import TestSupport

/// Measures the in-process `PlayerController` (libmpv, `ao=null`) over HTTP.
struct PlayerBench {
    /// The media URLs served on 127.0.0.1.
    let urls: [String]
    /// A long file for the CPU/RSS run.
    let longURL: String

    /// Records every event with the time it was seen.
    final class Recorder: Sendable {
        private let log = Locked<[(PlaybackEvent, ContinuousClock.Instant)]>([])
        private let task: Task<Void, Never>

        /// Starts recording `stream` on a task of its own.
        init(_ stream: AsyncStream<PlaybackEvent>) {
            let log = self.log
            task = Task.detached {
                for await event in stream {
                    let now = ContinuousClock.now
                    log.withLock { $0.append((event, now)) }
                }
            }
        }

        /// Waits (polling, off the hot path) for the first event after `index` that
        /// matches, and returns when it was seen.
        func wait(after index: Int = 0, timeout: Duration = .seconds(15),
                  _ match: (PlaybackEvent) -> Bool) throws -> ContinuousClock.Instant {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                let found = log.withLock { entries in entries.dropFirst(index).first { match($0.0) }?.1 }
                if let found { return found }
                usleep(200)
            }
            throw BenchError.timeout("event not seen")
        }

        /// How many events were seen so far.
        var count: Int { log.withLock { $0.count } }
    }

    /// Load → PLAYBACK_RESTART (`started`) and load → first `progress` past 0, each with a
    /// fresh player, `runs` times over the media in turn.
    func firstAudio(runs: Int) throws -> (restart: Stats, advancing: Stats) {
        var restart: [Double] = []
        var advancing: [Double] = []
        for run in 0..<runs {
            let player = try PlayerController(options: PlayerOptions(audioOutput: "null"))
            let recorder = Recorder(player.events)
            let begin = ContinuousClock.now
            let id = try player.load(urls[run % urls.count])
            let started = try recorder.wait { if case .started(id, _) = $0 { true } else { false } }
            let moving = try recorder.wait { if case .progress(id, let p) = $0 { p > 0 } else { false } }
            restart.append(milliseconds(begin, started))
            advancing.append(milliseconds(begin, moving))
            player.shutdown()
        }
        return (Stats(restart), Stats(advancing))
    }

    /// Skip latency, command → `started` of the next item, `skips` times on one player:
    /// with `load` (replace) and with `queueNext` + `advance` after the queued item had
    /// time to be prefetched.
    func skips(_ skips: Int) throws -> (replace: Stats, queued: Stats) {
        let player = try PlayerController(options: PlayerOptions(audioOutput: "null"))
        defer { player.shutdown() }
        let recorder = Recorder(player.events)
        var replace: [Double] = []
        var queued: [Double] = []
        var id = try player.load(urls[0])
        _ = try recorder.wait { if case .started(id, _) = $0 { true } else { false } }
        for skip in 0..<skips {
            let mark = recorder.count
            let begin = ContinuousClock.now
            id = try player.load(urls[(skip + 1) % urls.count])
            let started = try recorder.wait(after: mark) { if case .started(id, _) = $0 { true } else { false } }
            replace.append(milliseconds(begin, started))
            usleep(150_000)
        }
        for skip in 0..<skips {
            let next = try player.queueNext(urls[(skip + 1) % urls.count])
            usleep(400_000)  // let mpv prefetch it, as it would during a song
            let mark = recorder.count
            let begin = ContinuousClock.now
            let now = try player.advance()
            guard now == next else { throw BenchError.timeout("advance went to \(now), not \(next)") }
            let started = try recorder.wait(after: mark) { if case .started(next, _) = $0 { true } else { false } }
            queued.append(milliseconds(begin, started))
        }
        return (Stats(replace), Stats(queued))
    }

    /// CPU seconds and peak RSS of this whole process over `seconds` of playback. The peak
    /// is counted from just before this player is created (`VmHWM` reset through
    /// `/proc/self/clear_refs`), so the players of the earlier measurements do not count.
    /// `baseRSS` is what the process held just before, so the player's own share shows.
    func playback(seconds: Double) throws -> (cpu: Double, peakRSS: Double, baseRSS: Double, played: Double) {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let baseRSS = ResourceUsage.residentMiB()
        let player = try PlayerController(options: PlayerOptions(audioOutput: "null"))
        defer { player.shutdown() }
        let recorder = Recorder(player.events)
        let id = try player.load(longURL)
        _ = try recorder.wait { if case .started(id, _) = $0 { true } else { false } }
        let before = ResourceUsage.current()
        let start = player.position ?? 0
        usleep(useconds_t(seconds * 1_000_000))
        let after = ResourceUsage.current()
        let played = (player.position ?? 0) - start
        return (after.cpuSeconds - before.cpuSeconds, after.peakRSSMiB, baseRSS, played)
    }
}
