import Foundation
import Logging
import Radio
import Synchronization

/// A desktop notification for each new song, through `org.freedesktop.Notifications` on the
/// bus: each one replaces the one before, so a listening session leaves one notification,
/// not a pile.
///
/// Calls are asynchronous and their replies handled on the bus thread: no caller waits for a
/// notification server, and a desktop without one costs one log line.
public final class SongNotifier: Sendable {
    private struct State {
        /// The id the server gave the last notification, which the next one replaces.
        var lastID: UInt32 = 0
        /// A Notify whose reply (with the id to replace) has not come yet.
        var inFlight = false
        /// The newest notification waiting for that reply; older waiting ones are dropped.
        var waiting: SongNotification?
        /// What was last asked for, so a snapshot of the same song sends nothing.
        var shown: SongNotification?
        /// Whether the failure of a call has been logged.
        var warned = false
    }

    private let bus: DesktopBus
    private let logger: Logger
    private let state = Mutex(State())

    /// A notifier sending through `bus`; `logger` gets one line the first time no
    /// notification server answers.
    public init(bus: DesktopBus, logger: Logger = Logger(label: "mhz.desktop")) {
        self.bus = bus
        self.logger = logger
    }

    /// Notifies when `snapshot` shows a song other than the last one notified, or the same
    /// song with a cover it did not have then (the notification is replaced with one that
    /// shows it). Any thread; never waits.
    public func update(_ snapshot: RadioSnapshot, coverFile: URL?) {
        guard let track = snapshot.track else { return }
        let next = SongNotification(track: track, coverFile: coverFile)
        let wanted = state.withLock { state in
            guard let shown = state.shown, shown.sid == next.sid else { return true }
            return shown.coverFile == nil && next.coverFile != nil
        }
        if wanted { send(next) }
    }

    /// Notifies about `track` now, replacing the previous notification. Any thread; never
    /// waits.
    public func notify(_ track: Track, coverFile: URL?) {
        send(SongNotification(track: track, coverFile: coverFile))
    }

    /// Whether a Notify is waiting for its reply: what a test waits on before it changes the
    /// bus under the notifier.
    var isWaitingForReply: Bool { state.withLock { $0.inFlight } }

    private func send(_ notification: SongNotification) {
        let now = state.withLock { state in
            state.shown = notification
            guard !state.inFlight else {
                state.waiting = notification
                return false
            }
            state.inFlight = true
            return true
        }
        guard now else { return }
        // A closed bus drops the job, and with it the reply that would have ended the wait.
        if !bus.perform({ [self] connection in call(notification, on: connection) }) {
            state.withLock { $0.inFlight = false }
        }
    }

    /// On the bus thread: sends one Notify; its reply sends the one waiting, if any, so
    /// each replaces the id the one before it was given.
    private func call(_ notification: SongNotification, on connection: BusConnection) {
        let replacing = state.withLock { $0.lastID }
        connection.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                        interface: "org.freedesktop.Notifications", member: "Notify",
                        arguments: notification.arguments(replacing: replacing),
                        timeout: .seconds(10)) { [self] reply in
            let next: SongNotification? = state.withLock { state in
                switch reply {
                case .success(let values):
                    if case .uint32(let id)? = values.first { state.lastID = id }
                case .failure(let error):
                    if !state.warned {
                        state.warned = true
                        logger.info("no desktop notifications: \(error)")
                    }
                }
                defer { state.waiting = nil }
                state.inFlight = state.waiting != nil
                return state.waiting
            }
            if let next { call(next, on: connection) }
        }
    }
}
