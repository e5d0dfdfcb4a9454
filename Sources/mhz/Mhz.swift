import ArgumentParser
import CMalloc
import Foundation
import MhzVersion

/// `mhz`: the command line `man mhz` and docs/guide document. Playing is the default subcommand, so
/// `mhz --channel 1` plays channel 1.
@main
struct Mhz: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mhz",
        abstract: "A terminal radio for Douban-FM-style stations.",
        discussion: """
            With no --server, mhz starts its own station in-process over --library (default ~/Music, \
            else a demo library it synthesizes on first run). mhz serve shares that station with \
            the household. Keys, lyrics, loudness and every setting: man mhz.
            """,
        version: Mhz.versionLine,
        subcommands: [PlayCommand.self, ChannelsCommand.self, DownloadCommand.self, DownloadsCommand.self, LoginCommand.self,
                      LogoutCommand.self, ServeCommand.self, CtlCommand.self, ScrobbleCommand.self,
                      HistoryCommand.self],
        defaultSubcommand: PlayCommand.self
    )

    /// What `mhz --version` prints: `mhz 0.4.0 (commit 1a2b3c4d5e6f)`, the commit the binary
    /// was built from when it was built in a git working tree.
    static var versionLine: String {
        "mhz \(MhzVersion.number)" + (BuildCommit.hash.map { " (commit \($0))" } ?? "")
    }

    /// mhz promises 2 for usage errors (man mhz, EXIT STATUS); ArgumentParser's default is 64 (EX_USAGE).
    static let usageExitCode = ExitCode(2)

    /// Parses and runs like ArgumentParser's own `main`, but with mhz's exit codes (0 ok, 2 usage, 1 runtime).
    ///
    /// `main` is synchronous and waits for the command, which runs on the concurrency pool.
    /// An `async` main ends the main thread in `dispatch_main()`, whose `pthread_exit(3)` unwinds
    /// the thread's frames through the binary's `.eh_frame_hdr` and `.eh_frame`: 0.65 MiB of
    /// unwind tables made resident for that one walk. Nothing in mhz runs on the main queue or
    /// the main actor, so the thread has nothing else to do.
    static func main() {
        // glibc gives each thread that allocates an arena of its own (up to 8 per core) and
        // keeps what is freed there; mhz's threads (mpv's, the station's, the concurrency
        // pool's) allocate little, so two arenas serve them and hold megabytes less.
        _ = mallopt(cmalloc_arena_max_option(), 2)
        // Blocks of 1 MiB and more are mapped and unmapped one by one, so they go back to the
        // system when freed. glibc's own threshold starts at 128 KiB but follows the largest
        // mapped block freed (mallopt(3): "dynamic mmap threshold"), so after the demo
        // library's first MP3 (a few megabytes of PCM) such buffers came from the heap and
        // stayed there, fragmented, until the next trim: first-run peak RSS 100 → 96 MiB.
        // Setting the value turns the dynamic adjustment off.
        _ = mallopt(cmalloc_mmap_threshold_option(), 1 << 20)
        // A download that grows past the process's file-size limit (`ulimit -f`) gets EFBIG
        // from write(2) and fails with a reason, instead of SIGXFSZ ending mhz.
        signal(SIGXFSZ, SIG_IGN)
        // A control client or a hook that hung up must end a write with EPIPE, not mhz.
        signal(SIGPIPE, SIG_IGN)
        // script/install's step after generate-manual; not an option of the parser, so it
        // shows in no help, completion or manual page.
        if CommandLine.arguments.dropFirst().elementsEqual([ManualPage.option]) { ManualPage.run() }
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await parseAndRun()
            finished.signal()
        }
        finished.wait()
    }

    /// The command line parsed and run; a usage error exits 2, any other error 1.
    private static func parseAndRun() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(usageExitCode.rawValue)
            }
            exit(withError: error)
        }
    }
}
