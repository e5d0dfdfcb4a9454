/// Why the desktop integration could not do something over D-Bus. The caller logs one line
/// and carries on without it: a desktop without a session bus is a normal place for a
/// terminal radio to run.
public enum DesktopError: Error, Sendable, Equatable {
    /// libsystemd.so.0 could not be loaded (the dynamic loader's words), so there is no sd-bus.
    case libraryMissing(String)
    /// No session bus: the environment names none (neither `DBUS_SESSION_BUS_ADDRESS` nor
    /// `XDG_RUNTIME_DIR`), or nothing listens at `$XDG_RUNTIME_DIR/bus`.
    case noSessionBus
    /// Connecting to the bus at `address` failed with this errno (a missing socket, a refused
    /// connection, a daemon that did not let mhz in).
    case connectionFailed(address: String, errno: Int32)
    /// The bus did not answer within the time allowed; what was asked.
    case timeout(String)
    /// The bus answered a call with a D-Bus error (its name and message).
    case callFailed(name: String, message: String)
    /// sd-bus refused a local operation (registering an object, building a message): what and
    /// its errno.
    case failed(String, errno: Int32)
    /// The connection is closed (by `close()`, or the bus went away).
    case closed
}
