import Downloads
import Foundation
import Logging
import Radio
import Store

/// The radio's ``SongDownloads`` port over the download manager and mhz's database: what
/// `d`, the downloads view, the offline channel and trashing need from downloads. It also
/// tells the radio what the downloads do (``follow(_:)``).
public final class RadioDownloads: SongDownloads {
    /// The manager the songs go through.
    public let manager: DownloadManager
    private let database: MhzDatabase
    /// The station songs come from (its URL, or `embedded`): downloads and trashed songs
    /// are recorded against it.
    private let station: String
    private let logger: Logger
    /// What failures are called in the log and the downloads view.
    private let words: DownloadWords

    /// A port for songs of `station`.
    public init(manager: DownloadManager, database: MhzDatabase, station: String, words: DownloadWords,
                logger: Logger = Logger(label: "mhz.downloads")) {
        self.manager = manager
        self.database = database
        self.station = station
        self.words = words
        self.logger = logger
    }

    public func download(_ track: Track, channel: String) {
        // A song the offline channel plays is a download already.
        if let url = URL(string: track.url), url.isFileURL,
           let records = try? database.downloads(), records.contains(where: { $0.path == url.path }) { return }
        let request = DownloadRequest(track, channel: channel, station: station)
        let manager = self.manager, logger = self.logger, words = self.words
        Task {
            do throws(DownloadError) {
                _ = try await manager.add(request)
            } catch {
                logger.error("cannot download \(track.sid): \(words.stationSong(error))")
            }
        }
    }

    public func control(_ action: DownloadAction, id: Int64) {
        let manager = self.manager, logger = self.logger, words = self.words
        Task {
            do throws(DownloadError) {
                switch action {
                case .pause: try await manager.pause(id)
                case .resume, .retry: try await manager.resume(id)
                case .cancel: try await manager.cancel(id)
                }
            } catch {
                logger.notice("download \(id): \(words.link(error))")
            }
        }
    }

    public func offlineTracks() -> [Track] {
        let records: [DownloadRecord]
        let trashed: Set<TrashedSong>
        do {
            records = try database.downloads()
            trashed = try database.trashedSongs()
        } catch {
            logger.error("cannot read the downloads: \(error)")
            return []
        }
        return records.compactMap { record -> Track? in
            guard record.state == .completed, let id = record.id, FileManager.default.fileExists(atPath: record.path)
            else { return nil }
            if let sid = record.sid, let station = record.station, trashed.contains(TrashedSong(station: station, sid: sid)) {
                return nil
            }
            // A plain URL's download has no station id: it gets one of its own, and no channel.
            let fromStation = record.sid != nil && record.station != nil
            return Track(sid: record.sid ?? "download-\(id)", title: record.title, artist: record.artist,
                         album: record.album, year: record.year, url: URL(fileURLWithPath: record.path).absoluteString,
                         channel: fromStation ? (record.channel ?? "0") : nil)
        }.shuffled()
    }

    public func trashed(sid: String) {
        do throws(StoreError) {
            try database.markTrashed(station: station, sid: sid)
        } catch {
            logger.error("cannot remember the trashed song \(sid): \(error)")
        }
    }

    public func trashedSids() -> Set<String> {
        do throws(StoreError) {
            return Set(try database.trashedSongs().filter { $0.station == station }.map(\.sid))
        } catch {
            logger.error("cannot read the trashed songs: \(error); a trashed song may play again")
            return []
        }
    }

    /// Feeds what the downloads do to `session` (the downloads view, the status line, the
    /// offline channel) and to `onEvent` (headless lines), until the manager shuts down.
    public func follow(_ session: RadioSession, onEvent: @escaping @Sendable (DownloadEvent) -> Void) async -> Task<Void, Never> {
        let events = await manager.events()
        var tasks: [Int64: DownloadTask] = [:]
        for task in await manager.tasks() { tasks[task.id] = task }
        var playable = offlineTracks().count
        await session.downloadsChanged(overview(tasks, playable: playable))
        return Task {
            for await event in events {
                tasks[event.task.id] = event.task
                onEvent(event)
                // Progress moves bytes only; what can play offline changes with states.
                if !event.isProgress { playable = self.offlineTracks().count }
                await session.downloadsChanged(self.overview(tasks, playable: playable))
            }
        }
    }

    /// The radio's view of the tasks, with `playable` songs on disk.
    public func overview(_ tasks: [Int64: DownloadTask], playable: Int) -> DownloadsOverview {
        let items = tasks.values.sorted { $0.id < $1.id }.map { task in
            DownloadItem(id: task.id, title: task.record.title, artist: task.record.artist,
                         state: DownloadItem.State(rawValue: task.state.name) ?? .queued, bytes: task.bytes,
                         total: task.total, rate: task.rate, reason: words.reason(task))
        }
        return DownloadsOverview(items: items, playable: playable)
    }
}
