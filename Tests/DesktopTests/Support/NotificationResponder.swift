import CSDBus
@testable import Desktop
import Foundation
import TestSupport

/// A notification server of the test's own: owns `org.freedesktop.Notifications` on a
/// `PrivateBus` through a `DesktopBus` of its own, records the arguments of every `Notify`
/// and answers each with the next id, from `firstID` on. Its answers can be held back, so
/// that a test sends while a `Notify` is sure to await its id.
final class NotificationResponder: Sendable {
    /// The arguments of each `Notify` received, in order.
    var calls: [[BusValue]] { recorder.calls.value }
    private let recorder: Recorder
    private let bus: DesktopBus

    /// Connects, publishes `/org/freedesktop/Notifications` and takes the name; returns once
    /// the bus daemon confirmed it.
    init(bus privateBus: PrivateBus, firstID: UInt32 = 7001) throws {
        let recorder = Recorder(nextID: firstID)
        self.recorder = recorder
        bus = try DesktopBus.open(address: privateBus.address, timeout: .seconds(20))
        let outcome = Outcome()
        bus.perform { connection in
            let context = Unmanaged.passRetained(recorder).toOpaque()
            let r = mhz_sd_bus_add_object(connection.raw, "/org/freedesktop/Notifications", notifyHandler, context,
                                          releaseTrampoline)
            guard r >= 0 else {
                outcome.finish(.failure(.failed("sd_bus_add_object", errno: -r)))
                return
            }
            connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                            interface: "org.freedesktop.DBus", member: "RequestName",
                            arguments: [.string("org.freedesktop.Notifications"), .uint32(4)]) { reply in
                outcome.finish(reply.map { $0 == [.uint32(1)] ? "primary owner" : "\($0)" })
            }
        }
        let reply = try outcome.wait(timeout: .seconds(20), what: "RequestName")
        guard reply == "primary owner" else {
            bus.close()
            throw TestSupportError.timeout("RequestName org.freedesktop.Notifications: \(reply)")
        }
    }

    /// Waits until `count` calls have come, at most `timeout`.
    func waitForCalls(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [[BusValue]] {
        do {
            return try await waitForValue("\(count) Notify calls", within: timeout) {
                let calls = calls
                return calls.count >= count ? calls : nil
            }
        } catch TestSupportError.timeout {
            throw TestSupportError.timeout("\(calls.count) of \(count) Notify calls in \(timeout): \(calls)")
        }
    }

    /// Holds back the answer to the next `Notify` (and the calls queued behind it) until
    /// ``releaseAnswers()``, or 20 s at most, so a stuck test cannot hang the bus thread.
    func holdAnswers() { recorder.gate.withLock { $0 = DispatchSemaphore(value: 0) } }

    /// Sends the held answer; later ones go at once.
    func releaseAnswers() {
        recorder.gate.withLock { gate in
            gate?.signal()
            gate = nil
        }
    }

    /// Leaves the bus.
    func stop() {
        releaseAnswers()
        bus.close()
    }

    deinit { stop() }
}

/// The responder's state, held by the C slot.
private final class Recorder: Sendable {
    let calls = Locked<[[BusValue]]>([])
    /// Set while answers are held: the bus thread waits on it before answering.
    let gate = Locked<DispatchSemaphore?>(nil)
    private let nextID: Locked<UInt32>

    init(nextID: UInt32) { self.nextID = Locked(nextID) }

    /// Records a call; returns the id to answer it with.
    func record(_ arguments: [BusValue]) -> UInt32 {
        calls.withLock { $0.append(arguments) }
        return nextID.withLock { id in
            defer { id += 1 }
            return id
        }
    }
}

/// Every message to `/org/freedesktop/Notifications`: `Notify` is recorded and answered with
/// its id (`u`); anything else is left to sd-bus (which answers "unknown method").
private let notifyHandler: sd_bus_message_handler_t = { raw, userdata, _ in
    guard let raw, let userdata else { return 0 }
    let message = BusMessage(raw: raw)
    guard message.member == "Notify",
          mhz_sd_bus_message_get_interface(raw).map({ String(cString: $0) }) == "org.freedesktop.Notifications"
    else { return 0 }
    let recorder = Unmanaged<Recorder>.fromOpaque(userdata).takeUnretainedValue()
    let id = recorder.record(message.readAll())
    if let gate = recorder.gate.value { _ = gate.wait(timeout: .now() + 20) }
    var reply: OpaquePointer?
    guard mhz_sd_bus_message_new_method_return(raw, &reply) >= 0, let reply else { return -ENOMEM }
    defer { mhz_sd_bus_message_unref(reply) }
    BusMessage(raw: reply).append(.uint32(id))
    let sent = mhz_sd_bus_send(nil, reply, nil)
    return sent < 0 ? sent : 1
}
