import Desktop
import Foundation
import Logging
import Radio
import Synchronization

/// mhz on the session bus while it plays: MPRIS (media keys, `playerctl`, shells' players)
/// and a notification per song, as `mpris` and `notify` in the configuration allow. The bus
/// is opened off the way to the first song (a round trip or two, at most two seconds); what
/// the radio shows meanwhile is published once it is open. No session bus (a server, a
/// container, ssh) means neither, and one line in the log.
public final class DesktopLink: Sendable {
    private struct State {
        var player: MPRISPlayer?
        var notifier: SongNotifier?
        var bus: DesktopBus?
        /// The last snapshot and the cover of the song it shows, republished when either
        /// changes (a cover that arrives late is a change of Metadata).
        var snapshot: RadioSnapshot?
        var cover: (sid: String, file: URL?)?
        var stopped = false
    }

    private let state = Mutex(State())
    private let logger = Logger(label: "mhz.desktop")
    private let mpris: Bool
    private let notify: Bool

    /// A link offering what `mpris` and `notify` ask for, once started.
    public init(mpris: Bool, notify: Bool) {
        self.mpris = mpris
        self.notify = notify
    }

    /// Opens the bus on a task of its own; MPRIS's commands go to `commands` like keys and
    /// the control socket's.
    public func start(commands: CommandPump) {
        let mpris = self.mpris, notify = self.notify
        guard mpris || notify else { return }
        let logger = self.logger
        Task.detached { [weak self] in
            let bus: DesktopBus
            do throws(DesktopError) {
                bus = try DesktopBus.open(logger: logger)
            } catch {
                logger.info("no desktop integration (MPRIS, notifications): \(Self.describe(error))")
                return
            }
            var player: MPRISPlayer?
            if mpris {
                do throws(DesktopError) {
                    player = try MPRISPlayer(bus: bus) { commands.send($0) }
                } catch {
                    logger.warning("MPRIS not offered: \(Self.describe(error))")
                }
            }
            let notifier = notify ? SongNotifier(bus: bus, logger: logger) : nil
            guard let self else { return bus.close() }
            self.attach(bus: bus, player: player, notifier: notifier)
        }
    }

    private func attach(bus: DesktopBus, player: MPRISPlayer?, notifier: SongNotifier?) {
        let (stopped, snapshot, cover) = state.withLock { state in
            if !state.stopped {
                state.bus = bus
                state.player = player
                state.notifier = notifier
            }
            return (state.stopped, state.snapshot, state.cover)
        }
        if stopped { return bus.close() }
        logger.info("on the session bus as \(player?.busName ?? "a notifier only")")
        if let snapshot { player?.update(snapshot, coverFile: Self.file(cover, for: snapshot)) }
    }

    /// What the radio shows now.
    public func show(_ snapshot: RadioSnapshot) {
        let (player, cover) = state.withLock { state in
            state.snapshot = snapshot
            return (state.player, state.cover)
        }
        player?.update(snapshot, coverFile: Self.file(cover, for: snapshot))
    }

    /// The cover of `track` as a file (nil: none, or not yet).
    public func cover(_ track: Track?, file: URL?) {
        let (player, snapshot) = state.withLock { state in
            state.cover = track.map { ($0.sid, file) }
            return (state.player, state.snapshot)
        }
        if let player, let snapshot, snapshot.track?.sid == track?.sid { player.update(snapshot, coverFile: file) }
    }

    /// A song began: its notification, with its cover when there is one.
    public func songStarted(_ track: Track, cover: URL?) {
        state.withLock { $0.notifier }?.notify(track, coverFile: cover)
    }

    /// Leaves the bus.
    public func stop() {
        let bus = state.withLock { state -> DesktopBus? in
            state.stopped = true
            defer { state.bus = nil; state.player = nil; state.notifier = nil }
            return state.bus
        }
        bus?.close()
    }

    private static func file(_ cover: (sid: String, file: URL?)?, for snapshot: RadioSnapshot) -> URL? {
        guard let cover, cover.sid == snapshot.track?.sid else { return nil }
        return cover.file
    }

    /// Why there is no desktop integration, for the log.
    static func describe(_ error: DesktopError) -> String {
        switch error {
        case .libraryMissing(let why): "libsystemd cannot be loaded (\(why))"
        case .noSessionBus: "no session D-Bus (DBUS_SESSION_BUS_ADDRESS unset and none at $XDG_RUNTIME_DIR/bus)"
        case .connectionFailed(let address, let code): "cannot connect to \(address): \(String(cString: strerror(code)))"
        case .timeout(let what): "the session bus did not answer: \(what)"
        case .callFailed(let name, let message): "\(name): \(message)"
        case .failed(let what, let code): "\(what): \(String(cString: strerror(code)))"
        case .closed: "the bus connection closed"
        }
    }
}
