import BenchKit
import Foundation

/// The station's library scans so far, as its `/metrics` counts them
/// (`mhz_library_scan_duration_seconds`' count and sum): the bench reads them around a
/// measured run to know whether the minute's rescan fell into it.
struct LibraryScans: Equatable {
    /// Scans done since the station started, the first one included.
    var count: Int
    /// Their time together, in seconds.
    var seconds: Double

    /// The counts of the station on 127.0.0.1:`port`; `nil` when `/metrics` does not answer
    /// them (an older station).
    static func read(port: Int) -> LibraryScans? {
        guard let body = try? LoadClient(port: port).get("/metrics") else { return nil }
        return parse(String(decoding: body, as: UTF8.self))
    }

    /// The counts in a Prometheus text exposition; `nil` without them.
    static func parse(_ exposition: String) -> LibraryScans? {
        var count: Int?, seconds: Double?
        for line in exposition.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "mhz_library_scan_duration_seconds_count": count = Int(parts[1])
            case "mhz_library_scan_duration_seconds_sum": seconds = Double(parts[1])
            default: continue
            }
        }
        guard let count, let seconds else { return nil }
        return LibraryScans(count: count, seconds: seconds)
    }
}
