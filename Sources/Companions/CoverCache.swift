import Foundation
import HTTP
import Logging
import Radio

/// Song covers as local files in the data directory (`covers/`): what MPRIS's
/// `mpris:artUrl`, the song notification and the terminal UI show. Desktop shells and
/// notification centres show nothing for remote URLs or inline data, so a station's cover
/// is fetched once and kept; the embedded station's covers are files already.
public actor CoverCache {
    /// Covers kept; past this the least recently used go.
    static let capacity = 200
    /// The largest cover taken (a station that answers a cover URL with a video is wrong).
    static let maxBytes = 8 << 20

    private let directory: URL
    private let http: HTTPClient
    private let logger = Logger(label: "mhz.covers")
    private var fetching: [String: Task<URL?, Never>] = [:]

    /// A cache in `directory`, fetching through `http` (a client without cookies: covers
    /// often live on another host than the API, which must not see the session).
    public init(directory: URL, http: HTTPClient) {
        self.directory = directory
        self.http = http
    }

    /// The local file of `track`'s cover, fetched when needed; nil when it has none or it
    /// cannot be had (logged).
    func file(for track: Track) async -> URL? {
        let picture = track.picture
        guard !picture.isEmpty, let url = URL(string: picture), let scheme = url.scheme?.lowercased() else { return nil }
        if scheme == "file" { return FileManager.default.fileExists(atPath: url.path) ? url : nil }
        guard scheme == "http" || scheme == "https" else { return nil }
        let file = directory.appendingPathComponent(Self.name(for: picture))
        if FileManager.default.fileExists(atPath: file.path) {
            // Kept as recently used: trimming goes by modification time.
            utime(file.path, nil)
            return file
        }
        if let running = fetching[picture] { return await running.value }
        let task = Task { await fetch(url, into: file) }
        fetching[picture] = task
        let result = await task.value
        fetching[picture] = nil
        return result
    }

    private func fetch(_ url: URL, into file: URL) async -> URL? {
        let response: HTTPResponse
        do {
            response = try await http.perform(HTTPRequest(url: url))
        } catch {
            logger.notice("cover \(url.absoluteString) not fetched: \(error)")
            return nil
        }
        guard response.status == 200, response.body.count <= Self.maxBytes, Self.isImage(response.body) else {
            logger.notice("cover \(url.absoluteString) not used: HTTP \(response.status), \(response.body.count) bytes")
            return nil
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try response.body.write(to: file, options: .atomic)
        } catch {
            logger.warning("cover not saved in \(directory.path): \(error.localizedDescription)")
            return nil
        }
        trim()
        return file
    }

    /// Drops the least recently used covers past ``capacity``.
    private func trim() {
        let keys: [URLResourceKey] = [.contentModificationDateKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys),
              files.count > Self.capacity else { return }
        let dated = files.map { file in
            (file, (try? file.resourceValues(forKeys: Set(keys)).contentModificationDate) ?? .distantPast)
        }
        for (file, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(files.count - Self.capacity) {
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// `<hash of the URL>.<its image extension>`, so one URL is one file.
    static func name(for picture: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in picture.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let ext = URL(string: picture).map { $0.pathExtension.lowercased() } ?? ""
        let known = ["jpg", "jpeg", "png", "webp", "gif"].contains(ext) ? ext : "img"
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "." + known
    }

    /// Whether `data` starts like a PNG, JPEG, GIF or WebP file: an HTML error page with
    /// status 200 is not a cover.
    static func isImage(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(12))
        guard bytes.count >= 12 else { return false }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) || bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return true }
        if bytes.starts(with: Array("GIF8".utf8)) { return true }
        return bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8)
    }
}
