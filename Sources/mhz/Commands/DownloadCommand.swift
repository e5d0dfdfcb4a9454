import ArgumentParser
import Settings
import Downloads
import Foundation
import HLSPlaylist
import HTTP
import Logging
import Radio
import RadioAPI
import StationLink
import Store
import TerminalUI

/// `mhz download [--current] [--liked] [--channel ID --count N] [--quality KBPS|best|worst]
/// [--audio-language LANG] [--duration SECONDS] [--hls] [--plan] [--json] [URL…]`: downloads songs
/// and HLS streams for offline listening and waits until each is done.
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

    /// Every liked song, from the station's list of them, else from the red-heart channel.
    @Flag(help: "Your liked songs (needs `mhz login`): every one the station lists (liked_songs), else --count of the red-heart channel's.")
    var liked = false

    /// A channel whose songs to download. Parsed unconditionally: -3 would read as an option.
    @Option(parsing: .unconditional, help: "Download songs of this channel (with --count).")
    var channel: String?

    /// How many songs of `--channel` and of `--liked`.
    @Option(help: "How many songs of --channel (default 20) or --liked (default: all the station lists, else 20).")
    var count: Int?

    /// The bitrate asked of the station and the HLS variant; wins over `[downloads] quality`.
    @Option(help: ArgumentHelp("kbit/s, best or worst: the station's bitrate, and the HLS variant (the lowest at or above it, else the highest).",
                               valueName: "kbps|best|worst"))
    var quality: String?

    /// The HLS audio rendition's language.
    @Option(help: "HLS: the audio rendition in this language (e.g. en, fre).")
    var audioLanguage: String?

    /// Seconds of a live HLS stream to record.
    @Option(help: "HLS live streams: seconds to record (default: until Ctrl-C or the stream ends).")
    var duration: Double?

    /// The URLs are HLS playlists whatever their paths end in.
    @Flag(help: "The URLs are HLS playlists (a URL ending in .m3u8 or .m3u is one anyway).")
    var hls = false

    /// Print what would be fetched instead of fetching it.
    @Flag(help: "HLS: print the playlist's plan (variants, the chosen one, segments, keys) and fetch no media.")
    var plan = false

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
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let quality, VariantQuality(quality) == nil {
            throw ValidationError("--quality must be kbit/s (e.g. 128), best or worst")
        }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a number of seconds above 0") }
        if plan, urls.count != 1 || current || liked || channel != nil {
            throw ValidationError("--plan takes exactly one HLS playlist URL")
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
        let variant = quality.flatMap(VariantQuality.init) ?? settings.config.downloads.quality
        if let variant { settings.config.station.quality = DownloadSettings.stationQuality(variant) }
        if plan { return try await printPlan(config: settings.config, quality: variant ?? .best) }
        let paths = settings.paths
        do {
            try FileManager.default.createDirectory(at: paths.dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw .runtime("cannot create data directory \(paths.dataDirectory.path): \(error.localizedDescription)")
        }
        RadioRuntime.bootstrapLogging(paths: paths, toStderr: false)
        let database = try DatabaseOpening.open(paths)
        var requests: [DownloadRequest] = []
        for url in urls { requests.append(try await request(for: url, config: settings.config, quality: variant)) }
        let (server, _) = try RadioRuntime.server(options: global, config: settings.config)
        let station = RadioRuntime.sessionKey(server: server)
        if current {
            let position: PositionRecord?
            do { position = try database.lastPosition() } catch {
                throw .runtime("cannot read what mhz played: \(StoreText.words(error)) — check the data directory")
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

    /// The request for a URL argument. An HLS playlist is read first: a playlist that cannot
    /// be downloaded fails here, in one line, before any task is made, and the file gets
    /// its container's extension (``HLSPlan/fileExtension``).
    private func request(for url: String, config: Config, quality: VariantQuality?) async throws(CLIError)
        -> DownloadRequest
    {
        var request = DownloadRequest(url: url, kind: hls ? .hls : nil, quality: quality, audioLanguage: audioLanguage,
                                      recordSeconds: duration)
        guard request.kind == .hls, let link = request.link else { return request }
        // The plan goes into the task: its first transfer does not read the playlist again.
        let planned = try await HLSPlanText.plan(link, config: config, quality: quality ?? .best,
                                                 audioLanguage: audioLanguage)
        request.plan = planned
        if !planned.media.isLive { request.recordSeconds = nil }
        return request
    }

    /// `--plan`: the playlist's plan as JSON (or text), no media fetched.
    private func printPlan(config: Config, quality: VariantQuality) async throws(CLIError) -> Bool {
        guard let link = URL(string: urls[0]) else { throw .runtime("\(urls[0]) is not a URL") }
        let planned = try await HLSPlanText.plan(link, config: config, quality: quality, audioLanguage: audioLanguage)
        print(json ? HLSPlanText.json(planned) : HLSPlanText.text(planned))
        return false
    }

    /// Songs of `--liked` (the station's list of them, else the red-heart channel) and
    /// `--channel`, asked of the station until `--count` distinct ones came or it has no
    /// new ones.
    private func stationSongs(settings: (paths: Paths, config: Config), station: String) async throws(CLIError)
        -> [DownloadRequest]
    {
        let runtime = try await RadioRuntime.make(options: global, library: library, settings: settings)
        let client = runtime.stationClient()
        var requests: [DownloadRequest] = []
        do throws(ServiceFailure) {
            if liked {
                let tracks: [Track]
                if let listing = try await LikedSongs.all(client: client, limit: count) {
                    if let notice = LikedSongs.notice(listing) { FileHandle.standardError.write(Data("mhz: \(notice)\n".utf8)) }
                    tracks = listing.tracks
                } else {
                    tracks = try await Self.songs(of: Channel.redHeartID, count: count ?? Self.defaultCount, client: client)
                }
                requests += tracks.map { DownloadSetup.request($0, channel: Channel.redHeartID, station: station) }
            }
            if let channel {
                for track in try await Self.songs(of: channel, count: count ?? Self.defaultCount, client: client) {
                    requests.append(DownloadSetup.request(track, channel: channel, station: station))
                }
            }
        } catch {
            await runtime.shutdown()
            throw .runtime(ErrorText.describe(error, for: .command(server: runtime.serverName)))
        }
        await runtime.shutdown()
        return requests
    }

    /// Songs of a channel when `--count` does not say.
    static let defaultCount = 20

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
