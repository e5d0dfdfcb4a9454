import Foundation
import HLSPlaylist
import HTTP
import POSIXFile

/// Appends fetched segments to an HLS task's partial file in playlist order: the init
/// segment (fragmented MP4) before the first segment that needs it and again whenever it
/// changes, each piece decrypted with its key (fetched once per URI and checked to be 16
/// bytes) and, for MPEG-TS, checked for the sync byte every 188 bytes, so what lands in the
/// file is clear media that any player reads without a key or a network.
final class SegmentWriter {
    /// The partial file, open for writing at its end.
    let descriptor: Int32
    /// Its path, for errors.
    let path: String
    private let http: HTTPClient
    private var keys: [URL: [UInt8]] = [:]
    /// The init segment last written, so an unchanged one is not written twice.
    private(set) var lastMap: MediaMap?

    /// A writer for the partial file `descriptor`, whose last appended segment used `lastMap`.
    init(descriptor: Int32, path: String, http: HTTPClient, lastMap: MediaMap?) {
        self.descriptor = descriptor
        self.path = path
        self.http = http
        self.lastMap = lastMap
    }

    /// Appends `segment`, read from `file`, preceded by its init segment when that changed
    /// (`mapFile` holds the init segment's bytes as fetched). Returns the bytes written.
    func append(_ segment: Segment, file: String, mapFile: String?) async throws(DownloadError) -> Int64 {
        var written: Int64 = 0
        if let map = segment.map, map != lastMap, let mapFile {
            var bytes = try read(mapFile)
            if let key = map.key { bytes = try await decrypt(bytes, key: key, sequence: segment.sequence) }
            try write(bytes)
            written += Int64(bytes.count)
            lastMap = map
        }
        var bytes = try read(file)
        if let key = segment.key { bytes = try await decrypt(bytes, key: key, sequence: segment.sequence) }
        if segment.uri.pathExtension.lowercased() == "ts", !Self.isTransportStream(bytes) {
            throw .corruptSegment(sequence: segment.sequence)
        }
        try write(bytes)
        return written + Int64(bytes.count)
    }

    /// MPEG-TS is 188-byte packets, each starting with the sync byte 0x47 (ISO/IEC 13818-1
    /// §2.4.3.2): a wrong key that happened to unpad, an error page or a cut segment fail this.
    static func isTransportStream(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, bytes.count % 188 == 0 else { return false }
        return stride(from: 0, to: bytes.count, by: 188).allSatisfy { bytes[$0] == 0x47 }
    }

    private func decrypt(_ bytes: [UInt8], key: SegmentKey, sequence: Int) async throws(DownloadError) -> [UInt8] {
        guard let uri = key.uri else { throw .unsupportedEncryption(method: "AES-128", keyFormat: key.keyFormat) }
        let secret = try await fetchKey(uri)
        do {
            return try SegmentDecryptor.decrypt(bytes, key: secret, iv: key.iv)
        } catch {
            throw .decryptionFailed(sequence: sequence)
        }
    }

    /// A key, fetched once per absolute URI: keys rotate mid-playlist, so a playlist-wide
    /// key would decrypt later segments with the wrong one.
    private func fetchKey(_ uri: URL) async throws(DownloadError) -> [UInt8] {
        if let known = keys[uri] { return known }
        let bytes: [UInt8]
        if uri.isFileURL {
            guard let data = FileManager.default.contents(atPath: uri.path) else { throw .keyUnavailable(uri: uri.absoluteString, status: 404) }
            bytes = [UInt8](data)
        } else {
            do throws(DownloadError) {
                bytes = [UInt8](try await http.document(uri).body)
            } catch {
                if case .httpStatus(let status) = error { throw .keyUnavailable(uri: uri.absoluteString, status: status) }
                throw .key(uri: uri.absoluteString, reason: error)
            }
        }
        guard bytes.count == 16 else { throw .badKey(uri: uri.absoluteString, length: bytes.count) }
        keys[uri] = bytes
        return bytes
    }

    private func read(_ file: String) throws(DownloadError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw .fileSystem(path: file, detail: "cannot read it back")
        }
        return [UInt8](data)
    }

    private func write(_ bytes: [UInt8]) throws(DownloadError) {
        let code = DescriptorWriter.writeAll(bytes, to: descriptor)
        if code != 0 { throw Disk.error(errno: code, path: path) }
    }
}
