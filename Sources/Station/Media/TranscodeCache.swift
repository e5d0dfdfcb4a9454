import Foundation
import MusicLibrary
import Synchronization
import Transcoder

/// The songs transcoded to MP3, kept in `transcoded/` of the station's data directory
/// under their media names (``ServedFormat/mediaFileName(of:)``: `<sid>-<kbps>k.mp3`, with
/// the gain a levelled one was made at, `<sid>-<kbps>k-gm63.mp3`), as music servers such as
/// Navidrome and Subsonic keep theirs: the first request for a song in a format starts a
/// ``TranscodeJob`` and streams from it; later ones get the finished file, with Range.
///
/// A cached file older than its source (the file was changed and rescanned) is stale and
/// made again. The folder is kept under ``sizeLimit``: after each job, the files read
/// least recently go first (so is a song's transcode at a gain it is no longer levelled
/// by: nothing reads it any more).
final class TranscodeCache: Sendable {
    /// The cache folder.
    let directory: URL
    /// The most bytes the folder keeps (default 2 GiB: some 700 songs at 128 kbit/s).
    let sizeLimit: Int
    private let jobs = Mutex<[String: TranscodeJob]>([:])
    /// Called when a job starts (the station's metrics count them).
    private let started: @Sendable () -> Void

    /// Creates the cache over a folder (made when the first job starts); `started` is
    /// called as each job starts.
    init(directory: URL, sizeLimit: Int = 2 << 30, started: @escaping @Sendable () -> Void = {}) {
        self.directory = directory
        self.sizeLimit = sizeLimit
        self.started = started
    }

    /// How many finished transcodes the folder holds (a part file being written is not one).
    var cachedCount: Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.count { $0.hasSuffix(".mp3") && !$0.hasPrefix(".") }
    }

    /// The finished, fresh file of `track` transcoded as `format` (an ``ServedFormat/mp3(kbps:gainTenths:)``),
    /// if there is one.
    func cachedFile(of track: LibraryTrack, as format: ServedFormat) -> URL? {
        guard case .mp3 = format else { return nil }
        let file = directory.appendingPathComponent(format.mediaFileName(of: track))
        guard let cached = Self.modificationTime(file) else { return nil }
        guard let source = Self.modificationTime(track.file), cached >= source else {
            unlink(file.path)
            return nil
        }
        return file
    }

    /// The job transcoding `track` as `format` (an ``ServedFormat/mp3(kbps:gainTenths:)``, at
    /// its bitrate and gain): the one running, or a new one; `nil` when the finished file is
    /// there after all (a job ended since the caller looked): serve that. The caller
    /// decides the gain (the song's own, never one a request names).
    ///
    /// - Throws: ``TranscodeError`` when the file cannot be transcoded or the cache folder
    ///   cannot be written.
    func job(for track: LibraryTrack, as format: ServedFormat) throws(TranscodeError) -> TranscodeJob? {
        guard case .mp3(let kbps, _) = format else { return nil }
        let name = format.mediaFileName(of: track)
        if let running = jobs.withLock({ $0[name] }) { return running }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: directory.path, reason: "\(error.localizedDescription)")
        }
        return try jobs.withLock { jobs throws(TranscodeError) -> TranscodeJob? in
            if let running = jobs[name] { return running }
            // A job is removed from `jobs` only after its file is renamed into place.
            if cachedFile(of: track, as: format) != nil { return nil }
            let job = try TranscodeJob(input: track.file, kbps: kbps, gain: format.frameGain,
                                       finalFile: directory.appendingPathComponent(name)) {
                [weak self] job in self?.ended(job, name: name)
            }
            jobs[name] = job
            started()
            return job
        }
    }

    private func ended(_ job: TranscodeJob, name: String) {
        jobs.withLock { jobs in
            if jobs[name] === job { jobs[name] = nil }
        }
        trim()
    }

    /// Removes the least recently read finished files until the folder is under the limit.
    private func trim() {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentAccessDateKey, .isRegularFileKey]
        guard let names = try? FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { return }
        var files = names.compactMap { url -> (url: URL, size: Int, used: Date)? in
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { return nil }
            return (url, values.fileSize ?? 0, values.contentAccessDate ?? .distantPast)
        }
        var total = files.reduce(0) { $0 + $1.size }
        guard total > sizeLimit else { return }
        files.sort { $0.used < $1.used }
        for file in files where total > sizeLimit {
            unlink(file.url.path)
            total -= file.size
        }
    }

    private static func modificationTime(_ file: URL) -> Double? {
        var status = stat()
        guard stat(file.path, &status) == 0 else { return nil }
        return Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
    }
}
