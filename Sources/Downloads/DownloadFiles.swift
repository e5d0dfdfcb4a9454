import Foundation

/// The files of one download on its way to its finished path: the one layout both fetchers
/// write, which the manager reaches only through ``DownloadFetcher``.
///
/// - `NAME.part`: the bytes as they arrive (a song's body, an HLS stream's appended
///   segments), locked with `flock(2)` while a transfer writes it, so two mhz processes
///   never write one file (the lock dies with its process, kill -9 included);
/// - `.NAME` (hidden, same extension): a verified song while it is tagged, so the tagger
///   sees its real type;
/// - `NAME.part-seqN`, `NAME.part-map`, `NAME.part-joined`: an HLS segment before it is
///   appended, an init segment, a repaired stream's joined periods;
/// - `NAME`: the finished file, which appears only whole and verified.
struct DownloadFiles: Sendable {
    /// The finished file's path.
    let path: String

    /// The files of the download finished at `path`.
    init(_ path: String) { self.path = path }

    /// The partial file.
    var part: String { path + ".part" }

    /// The hidden name a verified song is tagged under.
    var tagging: String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent).path
    }

    /// The file HLS segment `sequence` is fetched into before it is appended.
    func piece(sequence: Int) -> String { part + "-seq\(sequence)" }
    /// The file an init segment is fetched into.
    var map: String { part + "-map" }
    /// The file a repair writes the joined periods into.
    var joined: String { part + "-joined" }

    /// The bytes on disk: the partial file's, else the finished file's, else 0.
    var bytesOnDisk: Int64 { Disk.size(of: part) ?? Disk.size(of: path) ?? 0 }
    /// Whether the finished file is there.
    var isFinished: Bool { access(path, F_OK) == 0 }
    /// Whether a new download may not take this path: its finished or partial file is there.
    var isTaken: Bool { isFinished || access(part, F_OK) == 0 }
    /// Whether a verified song was left under its hidden name (a crash while it was tagged),
    /// with neither a partial nor a finished file beside it.
    var isLeftWhileTagging: Bool { access(tagging, F_OK) == 0 && access(part, F_OK) != 0 && !isFinished }

    /// Makes the folder (`mkdir -p`), opens the partial file (made when missing), takes its
    /// lock without waiting and lets `body` write it; closing it afterwards lets the lock go.
    /// Returns without calling `body` when there is nothing to fetch (the finished file is
    /// there without a partial file: a crash after the rename, before the row said so) or
    /// nothing can be: the folder or the partial file cannot be made, or another process
    /// holds the lock.
    func withLockedPart(_ body: (Int32) async -> TransferOutcome) async -> TransferOutcome {
        if let length = Disk.size(of: path), access(part, F_OK) != 0 { return .completed(bytes: length) }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let made = Disk.makeDirectories(folder)
        guard made == 0 else { return .failed(Disk.error(errno: made, path: folder), bytes: 0) }
        let descriptor = open(part, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return .failed(Disk.error(errno: errno, path: part), bytes: 0) }
        defer { close(descriptor) }
        // "LOCK_NB: return an error instead of blocking": another mhz writes this file. A
        // lock is also held for a moment by a child another thread is spawning: until its
        // exec closes the descriptors it was handed (O_CLOEXEC), it shares the open file,
        // and with it the lock of a transfer that has just ended here. So a refusal is asked
        // again for up to a second; another mhz's transfer holds it far longer.
        var tries = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            tries += 1
            guard tries <= 20 else { return .failed(.heldElsewhere, bytes: 0) }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return await body(descriptor)
    }

    /// Deletes the partial file, the hidden tagging file and the HLS pieces, and the
    /// finished file too when `finished`.
    func remove(finished: Bool) {
        unlink(part)
        unlink(tagging)
        removePieces()
        if finished { unlink(path) }
    }

    /// Deletes the HLS pieces (`NAME.part-…`), leaving the partial file.
    func removePieces() {
        let url = URL(fileURLWithPath: path)
        let prefix = url.lastPathComponent + ".part-"
        let folder = url.deletingLastPathComponent()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(prefix) {
            unlink(folder.appendingPathComponent(name).path)
        }
    }
}
