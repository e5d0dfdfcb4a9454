import BenchKit
import Foundation

/// Cold start: process spawn → first audio, timed from the benchmark's side for mhz (with
/// its embedded station starting in the same process) and for `mpv URL` alike, two ways
/// in the same runs:
/// - **position advancing**: the position each program reports passes 0.05 s, i.e. audio
///   is being clocked out, not merely loaded (what the issue asks for);
/// - **first audio**: the file's playback started (mpv's PLAYBACK_RESTART; mhz says
///   `playing` when its player reports it; for mpv, its first `time-pos` value).
enum ColdStart {
    /// Both measures of one program.
    struct Result {
        /// Spawn → position past ``ColdStart/threshold``.
        var advancing: Stats
        /// Spawn → the file's playback started.
        var firstAudio: Stats
    }

    /// mhz's `status` rounds the position to 0.1 s, so "past 0" there means at least
    /// 0.05 s; mpv's exact `time-pos` is held to the same mark.
    static let threshold = 0.05
    /// How often headless mhz is asked for its position.
    static let pollInterval = Duration.milliseconds(5)

    /// `runs` starts of `mhz --headless`, each without saved progress (a fresh song from 0).
    static func mhz(_ install: MhzInstall, runs: Int) throws -> Result {
        var advancing: [Double] = []
        var firstAudio: [Double] = []
        for _ in 0..<runs {
            install.forgetProgress()
            let mhz = try HeadlessMhz(install)
            defer { mhz.quit() }
            mhz.pollStatus(every: pollInterval)
            let moving = try mhz.wait(what: "status with position > 0") {
                $0.name == "status" && ($0.position ?? 0) > 0
            }
            let playing = try mhz.wait(what: "playing") { $0.name == "playing" }
            advancing.append(milliseconds(mhz.spawned, moving.at))
            firstAudio.append(milliseconds(mhz.spawned, playing.at))
        }
        return Result(advancing: Stats(advancing), firstAudio: Stats(firstAudio))
    }

    /// `runs` starts of `mpv URL` over the same media in turn, watched through its IPC
    /// socket (`observe_property time-pos`).
    static func mpv(_ mpv: MPVCommandLine, urls: [String], runs: Int) throws -> Result {
        var advancing: [Double] = []
        var firstAudio: [Double] = []
        for run in 0..<runs {
            let session = try MPVIPCSession(mpv, arguments: [urls[run % urls.count]])
            defer { session.close() }
            let mark = session.observePosition()
            let moving = try session.waitForPosition(atLeast: threshold, after: mark)
            let started = try session.waitForPosition(atLeast: 0, after: mark)
            advancing.append(milliseconds(session.spawned, moving))
            firstAudio.append(milliseconds(session.spawned, started))
        }
        return Result(advancing: Stats(advancing), firstAudio: Stats(firstAudio))
    }
}
