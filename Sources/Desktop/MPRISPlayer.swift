import CSDBus
import Foundation
import Radio
import Synchronization

/// mhz as an MPRIS media player (https://specifications.freedesktop.org/mpris-spec/latest/):
/// `/org/mpris/MediaPlayer2` with `org.mpris.MediaPlayer2` and
/// `org.mpris.MediaPlayer2.Player`, under the bus name `org.mpris.MediaPlayer2.mhz`. Media
/// keys, desktop shells and `playerctl` see the song and control the radio through it.
///
/// Snapshots go in with `update` from any thread; calls from the bus come out as
/// `RadioCommand`s through the closure given at creation, on the bus thread.
public final class MPRISPlayer: Sendable {
    /// The object path the spec fixes.
    public static let objectPath = "/org/mpris/MediaPlayer2"
    /// The bus name the spec asks for: `org.mpris.MediaPlayer2.` and the player's name.
    public static let preferredName = "org.mpris.MediaPlayer2.mhz"

    /// The bus name this player owns: `preferredName`, or, when another mhz has it,
    /// `org.mpris.MediaPlayer2.mhz.instance<pid>` as the spec suggests for a second instance.
    public let busName: String
    private let bus: DesktopBus
    private let core: MPRISCore

    /// Publishes the player on `bus` and takes its bus name; waits for the bus daemon's
    /// answers (a round trip or two), at most `timeout`. `onCommand` receives the radio
    /// commands the bus asks for, on the bus thread: it must hand them on, not block.
    ///
    /// - Throws: `.failed` when the object cannot be registered (already published on this
    ///   connection); `.callFailed` or `.timeout` when the bus name cannot be taken; `.closed`
    ///   when the bus is.
    public init(bus: DesktopBus, timeout: Duration = .seconds(2),
                onCommand: @escaping @Sendable (RadioCommand) -> Void) throws(DesktopError) {
        let core = MPRISCore(onCommand: onCommand)
        let outcome = Outcome()
        let pid = getpid()
        let queued = bus.perform { connection in
            let context = Unmanaged.passRetained(core)
            _ = context.retain()  // one per interface's slot; each slot releases its own
            let r = mhz_mpris_add(connection.raw, mprisTrampoline, context.toOpaque(), releaseTrampoline)
            guard r >= 0 else {
                outcome.finish(.failure(.failed("publishing \(Self.objectPath)", errno: -r)))
                return
            }
            Self.requestName(Self.preferredName, on: connection) { result in
                guard case .success(false) = result else {
                    outcome.finish(result.map { _ in Self.preferredName })
                    return
                }
                let instance = "\(Self.preferredName).instance\(pid)"
                Self.requestName(instance, on: connection) { result in
                    switch result {
                    case .success(true): outcome.finish(.success(instance))
                    case .success(false): outcome.finish(.failure(.callFailed(name: "RequestName", message: instance)))
                    case .failure(let error): outcome.finish(.failure(error))
                    }
                }
            }
        }
        guard queued else { throw .closed }
        self.busName = try outcome.wait(timeout: timeout, what: "taking \(Self.preferredName)")
        self.bus = bus
        self.core = core
    }

    /// Publishes what `snapshot` shows, with `coverFile` (a local file) as the song's art.
    /// Any thread; never waits. Only what changed since the last publication is announced
    /// (`PropertiesChanged`), and `Seeked` when the position jumped.
    public func update(_ snapshot: RadioSnapshot, coverFile: URL?) {
        let properties = MPRISProperties(snapshot: snapshot, coverFile: coverFile)
        guard core.stage(properties) else { return }
        let core = self.core
        bus.perform { connection in core.publish(on: connection) }
    }

    /// Asks the bus daemon for `name` without queueing (D-Bus `RequestName` flag 4,
    /// DO_NOT_QUEUE): true when mhz owns it now, false when someone else does.
    private static func requestName(_ name: String, on connection: BusConnection,
                                    done: @escaping (Result<Bool, DesktopError>) -> Void) {
        connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                        interface: "org.freedesktop.DBus", member: "RequestName",
                        arguments: [.string(name), .uint32(4)]) { reply in
            // 1: primary owner, 3: exists (someone else owns it), 4: already ours.
            switch reply {
            case .success(let values):
                guard case .uint32(let code)? = values.first else {
                    done(.failure(.callFailed(name: "RequestName", message: "no reply code")))
                    return
                }
                done(.success(code == 1 || code == 4))
            case .failure(let error):
                done(.failure(error))
            }
        }
    }
}

/// The C vtables' one callback: the request and member name, answered by the core.
private let mprisTrampoline: mhz_mpris_handler = { userdata, request, interface, member, message, error in
    guard let userdata, let interface, let member, let message else { return -EINVAL }
    let core = Unmanaged<MPRISCore>.fromOpaque(userdata).takeUnretainedValue()
    return core.handle(request, interface: String(cString: interface), member: String(cString: member),
                       message: BusMessage(raw: message), error: error)
}
