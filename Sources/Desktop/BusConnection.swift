import CSDBus
import Glibc

/// The bus as the bus thread's jobs see it: the `sd_bus *` and the few things mhz does with
/// it. Not `Sendable`: only the thread that owns the connection may hold one (`BusLoop`).
struct BusConnection {
    /// The `sd_bus *`.
    let raw: OpaquePointer

    /// Calls `member` with `arguments` and hands the reply, or the failure, to `reply` on the
    /// bus thread; never waits. `reply` runs at most once: not at all if the bus is closed
    /// first. `timeout` zero means sd-bus's default (25 s).
    func call(destination: String, path: String, interface: String, member: String, arguments: [BusValue],
              timeout: Duration = .zero, reply: @escaping (Result<[BusValue], DesktopError>) -> Void) {
        var message: OpaquePointer?
        var r = mhz_sd_bus_message_new_method_call(raw, &message, destination, path, interface, member)
        guard r >= 0, let message else {
            reply(.failure(.failed("sd_bus_message_new_method_call \(member)", errno: -r)))
            return
        }
        defer { mhz_sd_bus_message_unref(message) }
        r = BusMessage(raw: message).append(arguments)
        guard r >= 0 else {
            reply(.failure(.failed("arguments of \(member)", errno: -r)))
            return
        }
        let box = Unmanaged.passRetained(ReplyBox(reply)).toOpaque()
        let microseconds = UInt64(max(timeout.milliseconds, 0)) * 1000
        // The box is released by the slot's destroy callback, whether the reply came or not.
        r = mhz_sd_bus_call_async(raw, message, replyTrampoline, box, releaseTrampoline, microseconds)
        if r < 0 { reply(.failure(.failed("sd_bus_call_async \(member)", errno: -r))) }
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for `names` of `interface`:
    /// sd-bus calls the getters for their values now.
    @discardableResult
    func emitPropertiesChanged(path: String, interface: String, names: [String]) -> Int32 {
        guard !names.isEmpty else { return 0 }
        var strings: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) }
        strings.append(nil)
        defer { for string in strings { free(string) } }
        return mhz_sd_bus_emit_properties_changed_strv(raw, path, interface, &strings)
    }

    /// Emits the signal `member` of `interface` from `path` with `arguments`.
    @discardableResult
    func emitSignal(path: String, interface: String, member: String, arguments: [BusValue]) -> Int32 {
        var message: OpaquePointer?
        var r = mhz_sd_bus_message_new_signal(raw, &message, path, interface, member)
        guard r >= 0, let message else { return r }
        defer { mhz_sd_bus_message_unref(message) }
        r = BusMessage(raw: message).append(arguments)
        guard r >= 0 else { return r }
        return mhz_sd_bus_send(raw, message, nil)
    }
}

/// A reply callback kept alive for the C side while a call is pending.
private final class ReplyBox {
    let body: (Result<[BusValue], DesktopError>) -> Void
    init(_ body: @escaping (Result<[BusValue], DesktopError>) -> Void) { self.body = body }
}

/// sd_bus_call_async(3): the callback "is called when a reply arrives with the reply" and
/// "to determine whether the method call succeeded, use sd_bus_message_is_method_error(3)";
/// a timeout arrives the same way, as an error reply sd-bus makes up.
private let replyTrampoline: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    let box = Unmanaged<ReplyBox>.fromOpaque(userdata).takeUnretainedValue()
    let reply = BusMessage(raw: message)
    if let error = reply.error {
        box.body(.failure(.callFailed(name: error.name, message: error.message)))
    } else {
        box.body(.success(reply.readAll()))
    }
    return 0
}

/// Gives back the retain a C slot held on a Swift object, whatever its class.
let releaseTrampoline: mhz_release_fn = { userdata in
    guard let userdata else { return }
    Unmanaged<AnyObject>.fromOpaque(userdata).release()
}
