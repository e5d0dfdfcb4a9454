import Foundation
import Logging

/// One connection to the session bus (or to an explicit address), owned by a thread of its
/// own on which every sd-bus call happens. `MPRISPlayer` and `SongNotifier` are built on one.
///
/// Open it once; close it when mhz ends (or never, if the process ends anyway): the thread
/// keeps the connection until `close()`.
public final class DesktopBus: Sendable {
    /// The address connected to, in D-Bus address syntax.
    public let address: String
    /// The connection's unique name on the bus (`:1.42`).
    public let uniqueName: String
    /// The thread and the connection it owns.
    let loop: BusLoop

    private init(address: String, uniqueName: String, loop: BusLoop) {
        self.address = address
        self.uniqueName = uniqueName
        self.loop = loop
    }

    /// Connects to `address`, or to the session bus `environment` names, and waits, at most
    /// `timeout`, until the bus has let mhz in: one round trip on a local socket. A missing
    /// bus fails at once. libsystemd is loaded (dlopen) on the first call.
    ///
    /// - Throws: `.libraryMissing` without libsystemd.so.0; `.noSessionBus` when neither
    ///   `address` nor the environment names a bus, or nothing listens at
    ///   `$XDG_RUNTIME_DIR/bus`; `.connectionFailed` when the bus at an address (given, or
    ///   `DBUS_SESSION_BUS_ADDRESS`) cannot be reached or refuses mhz; `.timeout` when it does
    ///   not answer within `timeout`.
    public static func open(address: String? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment,
                            timeout: Duration = .seconds(2),
                            logger: Logger = Logger(label: "mhz.desktop")) throws(DesktopError) -> DesktopBus {
        guard let resolved = address ?? SessionBusAddress.resolve(environment: environment) else { throw .noSessionBus }
        let loop = try BusLoop(address: resolved, logger: logger)
        do {
            let name = try loop.connect(timeout: timeout)
            return DesktopBus(address: resolved, uniqueName: name, loop: loop)
        } catch {
            // The socket the runtime directory should hold is not there, or nothing listens
            // on it: that is a desktop without a session bus, not a broken one.
            let fromRuntimeDirectory = address == nil && environment["DBUS_SESSION_BUS_ADDRESS"]?.isEmpty != false
            if fromRuntimeDirectory, case .connectionFailed(_, let code) = error, code == ENOENT || code == ECONNREFUSED {
                throw .noSessionBus
            }
            throw error
        }
    }

    /// Whether the connection is still open: false after `close()` or once the bus went away.
    public var isOpen: Bool { loop.isOpen }

    /// Flushes what was sent, closes the connection and ends its thread; waits for that, at
    /// most two seconds. Players and notifiers on it go quiet. Safe to call more than once.
    public func close() { loop.close() }

    /// Runs `job` on the bus thread; false when the connection is closed (the job is dropped).
    @discardableResult
    func perform(_ job: @escaping @Sendable (BusConnection) -> Void) -> Bool { loop.perform(job) }

    /// Waits, at most `timeout`, until the bus thread has run every job handed to it before
    /// this call (what `update` and `notify` queued has been sent); false on timeout or when
    /// the connection is closed. Jobs run in order, so an empty one is the barrier.
    func drain(timeout: Duration = .seconds(5)) -> Bool {
        let done = DispatchSemaphore(value: 0)
        guard perform({ _ in done.signal() }) else { return false }
        return done.wait(timeout: .now() + .milliseconds(Int(timeout.milliseconds))) == .success
    }
}
