import Foundation
import Logging
import MusicLibrary
import RadioAPI
import StationStorage
import Synchronization

/// Every live channel of the station: a ``LiveBroadcast`` made for a public channel the
/// first time it is asked for (the personal channel `0` and the red heart `-3` are a
/// listener's own, never broadcast), the ``LiveConfiguration/always`` ones at the
/// station's start.
final class LiveHub: Sendable {
    /// How the station broadcasts.
    let configuration: LiveConfiguration
    /// How the songs are levelled.
    private let leveling: Leveling
    private let directory: URL
    private let library: LiveLibrary
    private let responder: PlaylistResponder
    private let logger: Logger
    private let broadcasts = Mutex<[String: LiveBroadcast]>([:])

    /// A hub keeping each channel's broadcast under `directory/<channel>/`, its songs
    /// levelled by `leveling`.
    init(directory: URL, configuration: LiveConfiguration, leveling: Leveling = .off, library: LiveLibrary,
         responder: PlaylistResponder, logger: Logger) {
        self.directory = directory
        self.configuration = configuration
        self.leveling = leveling
        self.library = library
        self.responder = responder
        self.logger = logger
    }

    /// Whether `channel` is one the station broadcasts: a channel of the library served,
    /// but not a listener's own.
    func isLive(_ channel: String) -> Bool {
        // ASCII letters, digits, `-` and `_`, checked on the bytes: every listener's every
        // request asks, and Character's properties look up Unicode tables.
        guard Self.broadcasts(channel), channel.utf8.allSatisfy(Self.isNameByte) else { return false }
        return library.snapshot.catalog.positions(inChannel: channel) != nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// Whether a channel of the library is one the station broadcasts: every one but a
    /// listener's own (`0`, `-3`). The channel list marks these `"live":true`.
    static func broadcasts(_ channel: String) -> Bool {
        channel != Channel.personalID && channel != Channel.redHeartID
    }

    /// The channels on the air, by id: since when (ms since the epoch) and how many listen.
    var onAir: [(channel: String, since: Int64, listeners: Int)] {
        let all = broadcasts.withLock { Array($0.values) }
        return all.compactMap { broadcast in broadcast.onAir.map { (broadcast.channel, $0.since, $0.listeners) } }
            .sorted { $0.channel < $1.channel }
    }

    /// The broadcast of `channel`, made if need be (not started); `nil` for a channel that
    /// is not broadcast.
    func broadcast(_ channel: String) -> LiveBroadcast? {
        guard isLive(channel) else { return nil }
        let responder = self.responder
        let leveling = self.leveling
        return broadcasts.withLock { broadcasts in
            if let existing = broadcasts[channel] { return existing }
            let made = LiveBroadcast(
                channel: channel, directory: directory.appendingPathComponent(channel, isDirectory: true),
                configuration: configuration, logger: logger,
                songs: { channel, recent in await Self.draw(channel: channel, recent: recent, responder: responder) },
                track: { [library] sid in library.snapshot.track(sid: sid) },
                gain: { [library] track in Self.gain(of: track, leveling: leveling, library: library) })
            broadcasts[channel] = made
            return made
        }
    }

    /// The gain `track` is played at: ``Leveling/gain(at:in:)`` over the library served now
    /// and its loudness, taken together; `nil` for a track it no longer has or not measured.
    private static func gain(of track: LibraryTrack, leveling: Leveling, library: LiveLibrary) -> Double? {
        let (served, sound) = library.snapshotWithSound
        guard let position = served.position(of: track.sid) else { return nil }
        return leveling.gain(at: position, in: sound.loudness)
    }

    /// Starts the channels kept on the air (those of them the library has).
    func startAlways() {
        for channel in configuration.always {
            guard let broadcast = broadcast(channel) else {
                logger.warning("live channel to keep on the air is not one of the library's", metadata: ["channel": .string(channel)])
                continue
            }
            Task { await broadcast.listen() }
        }
    }

    /// Ends every broadcast and waits for their threads. Blocks.
    func stopAll() {
        for broadcast in broadcasts.withLock({ Array($0.values) }) { broadcast.stop() }
    }

    /// Whether `sid` names a song of the library served: feedback about any other is refused.
    func hasSong(_ sid: String) -> Bool {
        library.snapshot.position(of: sid) != nil
    }

    /// Teaches the channel's shared listener a like, unlike or trash of `sid`; false when
    /// the library has no such song or the profile could not be written.
    func teach(_ type: ReportType, sid: String, channel: String) async -> Bool {
        let library = self.library.snapshot
        guard let position = library.position(of: sid) else { return false }
        do throws(StorageError) {
            try await responder.profiles.record(type, position: position, of: library,
                                                for: PlaylistResponder.Listener.channel(channel).key)
            return true
        } catch {
            logger.error("live feedback not recorded", metadata: ["channel": .string(channel), "error": .string("\(error)")])
            return false
        }
    }

    /// A list of songs for the channel's shared listener, as a `type=n` request of the
    /// app family would get it, the recent songs in `h` so they are not repeated.
    private static func draw(channel: String, recent: [String], responder: PlaylistResponder) async -> [LibraryTrack] {
        var history = ReportHistory()
        for sid in recent { history.record(sid: sid, type: .playing) }
        let request = StationRequest(method: "GET", path: "/live", query: [
            .init(name: "type", value: "n"), .init(name: "channel", value: channel),
            .init(name: "sid", value: recent.last ?? ""), .init(name: "h", value: history.encoded),
        ])
        guard case .list(let list)? = try? await responder.answer(request, listener: .channel(channel)) else { return [] }
        return list.picks.map(\.track)
    }
}
