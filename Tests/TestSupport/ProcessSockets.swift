import Foundation

/// The TCP connections a process holds, as the kernel lists them: its descriptors
/// (`/proc/<pid>/fd`, `socket:[inode]`) matched with the connection table of its network
/// namespace (`/proc/<pid>/net/tcp`). A connection still waiting in a listener's accept
/// queue is in the table but in no descriptor, so this counts what the process has taken.
public enum ProcessSockets {
    /// How many established TCP connections on local port `port` process `pid` has
    /// accepted (IPv4).
    /// - Throws: `TestSupportError.toolFailed` when `/proc` cannot be read (the process
    ///   has ended).
    public static func accepted(pid: Int32, port: Int) throws -> Int {
        let descriptors: [String]
        do {
            descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        } catch {
            throw TestSupportError.toolFailed("cannot list /proc/\(pid)/fd: \(error)")
        }
        var held = Set<String>()
        for descriptor in descriptors {
            // "socket:[1151]"; a descriptor closed meanwhile has no link any more.
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"),
                  target.hasPrefix("socket:[") else { continue }
            held.insert(String(target.dropFirst("socket:[".count).dropLast()))
        }
        let table = try read("/proc/\(pid)/net/tcp")
        let local = String(format: ":%04X", port)
        // "  1: 0100007F:9C29 0100007F:B4CE 01 … uid timeout inode …": state 01 is ESTABLISHED.
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 9 && fields[1].hasSuffix(local) && fields[3] == "01" && held.contains(String(fields[9]))
        }.count
    }

    /// The whole of a `/proc` file. Not `String(contentsOfFile:)`: it reads as many bytes
    /// as the file's size says, and a `/proc` file says 0 (Foundation then got one page,
    /// 4 KiB, of a table of hundreds of connections).
    private static func read(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw TestSupportError.toolFailed("cannot open \(path)") }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: data, as: UTF8.self)
    }
}
