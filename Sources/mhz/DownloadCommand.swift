import ArgumentParser
import Downloads
import Foundation
import Logging
import Radio
import RadioAPI
import Store

/// `mhz download [--current] [--liked] [--channel ID --count N] [--quality KBPS] [--json] [URL…]`:
/// downloads songs for offline listening and waits until each is done.
struct DownloadCommand: AsyncParsableCommand {
    /// The subcommand's name, summary and what its exit status means.
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download songs for offline listening (`mhz --channel offline` plays them).",
        discussion: """
            Unfinished downloads of earlier runs continue too. Exit status 0 when every download \
            completed, 1 otherwise (one line per failed download on stderr).
            """)

    /// `--server`, `--api`, `--data-dir`, `--config`.
    @OptionGroup var global: GlobalOptions

    /// The song the radio saved as playing (the running or the last mhz).
    @Flag(help: "The song mhz is playing (or played last).")
    var current = false

    /// The red-heart channel's songs.
    @Flag(help: "The red-heart channel's songs (needs `mhz login`).")
    var liked = false

    /// A channel whose songs to download. Parsed unconditionally: -3 would read as an option.
    @Option(parsing: .unconditional, help: "Download songs of this channel (with --count).")
    var channel: String?

    /// How many songs of `--channel` and of `--liked`.
    @Option(help: "How many songs of --channel or --liked (default 20).")
    var count: Int = 20

    /// The `kbps` asked of the station; wins over `[downloads] quality` and `kbps`.
    @Option(help: "Bitrate to ask the station for, in kbit/s (64, 128, 192, 320).")
    var quality: Int?

    /// JSON lines instead of bars or plain lines.
    @Flag(help: "One JSON object per line per event instead of progress bars.")
    var json = false

    /// The embedded station's music folder.
    @Option(help: "Music folder for the embedded station.")
    var library: String?

    /// Media URLs, downloaded as they are.
    @Argument(help: "Media URLs to download (http, https or file).")
    var urls: [String] = []

    /// Refuses a run with nothing to download, a count below 1, a bitrate no station
    /// serves, or a URL mhz cannot fetch (usage errors, exit status 2).
    func validate() throws {
        if urls.isEmpty, !current, !liked, channel == nil {
            throw ValidationError("nothing to download: give URLs, --current, --liked or --channel ID")
        }
        if count < 1 { throw ValidationError("--count must be at least 1") }
        if let quality, ![64, 128, 192, 320].contains(quality) {
            throw ValidationError("--quality must be 64, 128, 192 or 320")
        }
        for url in urls {
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
                  ["http", "https", "file"].contains(scheme)
            else { throw ValidationError("\(url) is not an http, https or file URL") }
        }
    }

    /// Downloads until every task settled; exit status 1 when one did not complete.
    func run() async throws {
        do {
            let failed = try await download()
            if failed { throw ExitCode.failure }
        } catch let error as CLIError {
            throw error.exit()
        }
    }

    /// Adds the downloads asked for, shows them until every unfinished one settled, and
    /// says whether any failed.
    private func download() async throws(CLIError) -> Bool {
        var settings = try RadioRuntime.settings(options: global)
        if let quality { settings.config.kbps = quality } else if let kbps = settings.config.downloads.quality {
            settings.config.kbps = kbps
        }
        let paths = settings.paths
        do {
            try FileManager.default.createDirectory(at: paths.dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw .runtime("cannot create data directory \(paths.dataDirectory.path): \(error.localizedDescription)")
        }
        RadioRuntime.bootstrapLogging(paths: paths, toStderr: false)
        let database: MhzDatabase
        do {
            database = try MhzDatabase(path: paths.database)
        } catch {
            throw .runtime("cannot open \(paths.database.path): \(error) — check the data directory")
        }
        var requests = urls.map { DownloadRequest(url: $0) }
        let (server, _) = try RadioRuntime.server(options: global, config: settings.config)
        let station = RadioRuntime.sessionKey(server: server)
        if current {
            let position: PlaybackPosition?
            do { position = try database.lastPosition() } catch {
                throw .runtime("cannot read what mhz played: \(error) — check the data directory")
            }
            guard let position else { throw .runtime("mhz has not played anything yet: start `mhz`, then download") }
            requests.append(DownloadSetup.request(position, station: station))
        }
        if liked || channel != nil {
            requests += try await stationSongs(settings: settings, station: station)
        }

        let manager = DownloadSetup.manager(paths: paths, config: settings.config, database: database)
        do throws(DownloadError) {
            return try await DownloadRun.run(manager, json: json) { manager throws(DownloadError) in
                var ids = Set<Int64>()
                for request in requests { ids.insert(try await manager.add(request).id) }
                return ids
            }
        } catch {
            throw .runtime(DownloadText.describe(error))
        }
    }

    /// Songs of `--liked` and `--channel`, asked of the station until `--count` distinct
    /// ones came or it has no new ones.
    private func stationSongs(settings: (paths: Paths, config: Config), station: String) async throws(CLIError)
        -> [DownloadRequest]
    {
        let runtime = try await RadioRuntime.make(options: global, library: library, settings: settings)
        let client = runtime.stationClient()
        var requests: [DownloadRequest] = []
        var channels: [String] = []
        if liked { channels.append(Channel.redHeartID) }
        if let channel { channels.append(channel) }
        do throws(ServiceFailure) {
            for id in channels {
                for track in try await Self.songs(of: id, count: count, client: client) {
                    requests.append(DownloadSetup.request(track, channel: id, station: station))
                }
            }
        } catch {
            await runtime.shutdown()
            throw .runtime(ServiceText.describe(error, server: runtime.serverName))
        }
        await runtime.shutdown()
        return requests
    }

    /// `n`, then `p` after the last song, until `count` distinct songs came or three answers
    /// in a row brought none new.
    static func songs(of channel: String, count: Int, client: any RadioService) async throws(ServiceFailure) -> [Track] {
        var seen = Set<String>()
        var songs: [Track] = []
        var report = Report(type: .new, channel: channel)
        var dry = 0
        while songs.count < count, dry < 3 {
            let fresh = try await client.send(report).filter { seen.insert($0.sid).inserted }
            dry = fresh.isEmpty ? dry + 1 : 0
            songs += fresh
            report = Report(type: .playing, channel: channel, sid: songs.last?.sid, playedTime: 0)
        }
        return Array(songs.prefix(count))
    }
}
