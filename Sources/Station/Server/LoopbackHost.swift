import Foundation

/// Whether an address is this machine's own: what decides that `mhz serve` warns about
/// plain HTTP on its `--host`, and who may ask the station's `/status` and `/metrics`.
public enum LoopbackHost {
    /// True for `localhost`, any address of 127.0.0.0/8, `::1` (and 127.0.0.0/8 mapped into
    /// IPv6); false for everything else, wildcards (`0.0.0.0`, `::`) and other names included.
    public static func contains(_ host: String) -> Bool {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if name.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            // s_addr is in network order: its first byte in memory is the first octet.
            return withUnsafeBytes(of: v4) { $0[0] } == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes == Array(repeating: 0, count: 15) + [1] { return true }
        // ::ffff:127.x.y.z, IPv4 loopback written as IPv6.
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
    }
}
