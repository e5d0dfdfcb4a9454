import Foundation
import POSIXFile

/// Writes files that hold secrets (the session file, the cookie jar, a captcha image that
/// belongs to a login): readable by the owner only, and replaced atomically so a crash or
/// a concurrent reader never sees half a file.
public enum PrivateFile {
    /// Why a private file could not be written: the file and the system's reason, as words
    /// for a message.
    public struct Failure: Error, Sendable, Equatable {
        /// `cannot write /path (rename: No space left on device)`.
        public var words: String

        /// A failure described by `words`.
        public init(words: String) {
            self.words = words
        }
    }

    /// Writes `data` to a temporary file created with mode 0600 next to `url`, then
    /// renames it over `url` (rename(2) is atomic within a file system). The secret is
    /// never readable by others, not even for a moment between create and chmod.
    ///
    /// - Throws: ``Failure`` naming the file and the system's reason.
    public static func write(_ data: Data, to url: URL) throws(Failure) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(words: "cannot create \(directory.path): \(error.localizedDescription)")
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString.prefix(8))")
        // O_EXCL: never follow or reuse a file someone else put there.
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(words: "cannot create \(temporary.path): \(Self.reason())") }
        var failure: String?
        // The umask can only narrow the mode given to open; fchmod makes it exact.
        if fchmod(fd, 0o600) != 0 { failure = "chmod: \(Self.reason())" }
        if failure == nil {
            let status = data.withUnsafeBytes { DescriptorWriter.writeAll($0, to: fd) }
            if status != 0 { failure = "write: \(String(cString: strerror(status)))" }
        }
        if failure == nil, fsync(fd) != 0 { failure = "fsync: \(Self.reason())" }
        close(fd)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = "rename: \(Self.reason())" }
        if let failure {
            unlink(temporary.path)
            throw Failure(words: "cannot write \(url.path) (\(failure))")
        }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
