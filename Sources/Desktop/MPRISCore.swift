import CSDBus
import Foundation
import Radio
import Synchronization

/// The state behind an `MPRISPlayer`: the properties published, the ones waiting to be, and
/// the answers to the bus's calls. The C vtables hold it (retained) as their userdata, so it
/// lives as long as the object is on the bus, even if the `MPRISPlayer` goes first.
final class MPRISCore: Sendable {
    private struct State {
        /// What getters answer and changes are measured from.
        var published = MPRISProperties.stopped
        /// When `published` was published, for `Seeked`.
        var publishedAt = ContinuousClock.now
        /// The newest properties not yet published.
        var staged: MPRISProperties?
    }

    private let state = Mutex(State())
    private let onCommand: @Sendable (RadioCommand) -> Void

    /// A core sending commands to `onCommand`.
    init(onCommand: @escaping @Sendable (RadioCommand) -> Void) { self.onCommand = onCommand }

    /// Keeps `properties` for the next publication; true when a publication must be
    /// scheduled (none is pending already), so a burst of snapshots costs one.
    func stage(_ properties: MPRISProperties) -> Bool {
        state.withLock { state in
            defer { state.staged = properties }
            return state.staged == nil
        }
    }

    /// On the bus thread: makes the staged properties the published ones and announces the
    /// change. The getters sd-bus calls while emitting read the new values.
    func publish(on connection: BusConnection) {
        let now = ContinuousClock.now
        let change: (names: [String], seeked: Int64?)? = state.withLock { state in
            guard let next = state.staged else { return nil }
            let old = state.published
            let elapsed = now - state.publishedAt
            state.staged = nil
            state.published = next
            state.publishedAt = now
            return (next.changes(since: old), next.seeked(since: old, elapsed: elapsed))
        }
        guard let change else { return }
        connection.emitPropertiesChanged(path: MPRISPlayer.objectPath, interface: MPRISProperties.playerInterface,
                                         names: change.names)
        if let position = change.seeked {
            connection.emitSignal(path: MPRISPlayer.objectPath, interface: MPRISProperties.playerInterface,
                                  member: "Seeked", arguments: [.int64(position)])
        }
    }

    /// On the bus thread: a method call, a property read or a property write.
    func handle(_ request: mhz_mpris_request, interface: String, member: String, message: BusMessage,
                error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let current = state.withLock { $0.published }
        switch request {
        case MHZ_MPRIS_GET:
            guard let value = current.value(of: member, in: interface) else { return -ENOENT }
            return message.append(value)
        case MHZ_MPRIS_SET:
            return perform(MPRISRequest.write(member, value: message.read()), error: error)
        default:
            return perform(MPRISRequest.method(member, of: interface, arguments: message.readAll(), current: current),
                           error: error)
        }
    }

    private func perform(_ request: MPRISRequest, error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        switch request {
        case .command(let command):
            onCommand(command)
            return 0
        case .nothing:
            return 0
        case .notSupported:
            // sd-bus sends the named error set here ("If ret_error is set when the callback
            // finishes, the corresponding D-Bus error is sent back").
            return mhz_sd_bus_error_set(error, "org.freedesktop.DBus.Error.NotSupported", nil)
        case .invalidArguments:
            return mhz_sd_bus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", nil)
        }
    }
}
