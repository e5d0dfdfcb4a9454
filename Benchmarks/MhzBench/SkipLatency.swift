import BenchKit
import Foundation

/// Skip latency of headless mhz: `skip` written to its standard input → the `playing`
/// event of the next song, which mhz emits when mpv reports the new file's first audio
/// (PLAYBACK_RESTART) — what `MPVIPCSession.skips` times for the mpv command line.
enum SkipLatency {
    /// How long each song plays before it is skipped: long enough for the station's answer
    /// to the previous skip to refill the queue, as it would for a listener.
    static let dwell: useconds_t = 500_000

    /// `skips` skips in one mhz process.
    static func mhz(_ install: MhzInstall, skips: Int) throws -> Stats {
        install.forgetProgress()
        let mhz = try HeadlessMhz(install)
        defer { mhz.quit() }
        _ = try mhz.wait(what: "the first song playing") { $0.name == "playing" }
        var samples: [Double] = []
        for _ in 0..<skips {
            usleep(dwell)
            let mark = mhz.count
            let begin = ContinuousClock.now
            mhz.send("skip")
            let next = try mhz.wait(after: mark, what: "the next song playing after skip") { $0.name == "playing" }
            samples.append(milliseconds(begin, next.at))
        }
        return Stats(samples)
    }
}
