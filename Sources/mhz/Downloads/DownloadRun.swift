import Downloads
import Foundation
import Logging
import Transcoder

/// A download manager run in the foreground by `mhz download` and `mhz downloads resume`:
/// its events shown on stdout, its tasks started, the ones asked for waited for, and one
/// line on stderr per task that did not complete. Ctrl-C and SIGTERM stop the transfers
/// with their bytes kept (live HLS recordings are first finished with what they recorded,
/// and the other transfers stopped once they are).
enum DownloadRun {
    /// Starts `manager`, lets `add` add tasks (it returns their ids), and waits until those
    /// and the unfinished tasks of earlier runs that `manager` continues have settled.
    /// Returns whether one of them did not complete.
    static func run(_ manager: DownloadManager, json: Bool,
                    add: (DownloadManager) async throws(DownloadError) -> Set<Int64>) async throws(DownloadError) -> Bool {
        // No libmpv runs in this process, so FFmpeg's own lines (a discontinuity's repair
        // decodes and encodes) may go to the log rather than over the progress lines; a
        // player's process leaves FFmpeg's log to libmpv, which reads it (see `FFmpegLog`).
        let ffmpeg = Logger(label: "mhz.ffmpeg")
        FFmpegLog.route { line in ffmpeg.notice("ffmpeg: \(line)") }
        let printer = DownloadProgressPrinter(style: DownloadProgressPrinter.style(json: json))
        let events = await manager.events()
        let showing = Task { for await event in events { printer.show(event) } }
        // The first Ctrl-C finishes live recordings with what they have and then stops the
        // other transfers; without a recording to finish (and the second time) every
        // transfer stops at once, its bytes kept.
        let trap = SignalTrap { _ in
            Task {
                let finishing = await manager.finishRecordings()
                if !finishing.isEmpty { await manager.waitUntilSettled(finishing) }
                await manager.shutdown()
            }
        }
        defer { withExtendedLifetime(trap) {} }
        let tasks: [DownloadTask]
        do throws(DownloadError) {
            try await manager.start()
            let ids = Set(await manager.tasks().filter { !$0.state.isSettled }.map(\.id)).union(try await add(manager))
            await manager.waitUntilSettled(ids)
            tasks = await manager.tasks().filter { ids.contains($0.id) }
        } catch {
            await manager.shutdown()
            await showing.value
            throw error
        }
        await manager.shutdown()
        await showing.value
        let failed = tasks.filter { $0.state != .completed }
        for task in failed {
            let why = DownloadText.reason(task)
                ?? "stopped (\(task.state.name)): `mhz downloads resume \(task.id)` continues it"
            FileHandle.standardError.write(Data("mhz: download \(task.id) (\(DownloadText.name(task))): \(why)\n".utf8))
        }
        return !failed.isEmpty
    }
}
