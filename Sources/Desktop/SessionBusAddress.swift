/// Where the session bus is, worked out as the D-Bus specification says a client should:
/// `DBUS_SESSION_BUS_ADDRESS`, else the socket `$XDG_RUNTIME_DIR/bus` that systemd's user
/// instance (and dbus-broker's) listens on.
///
/// Computed here rather than by `sd_bus_open_user` so that the environment is a parameter:
/// the tests check the rule without touching their own process's environment.
enum SessionBusAddress {
    /// The session bus's address in D-Bus address syntax, or nil when the environment names
    /// none.
    static func resolve(environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        return "unix:path=" + escape(runtime + "/bus")
    }

    /// A value escaped for a D-Bus address: the specification's "optionally-escaped bytes"
    /// `[-0-9A-Za-z_/.\*]` as they are, every other byte as `%XX`, so a runtime directory
    /// with a comma, semicolon or space cannot break the address apart.
    static func escape(_ value: String) -> String {
        var escaped = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"),
                 UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                escaped += "%" + hex(byte)
            }
        }
        return escaped
    }

    /// Two lowercase hex digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
    }
}
