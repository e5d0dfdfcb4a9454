import Foundation
import POSIXFile
import Synchronization
import Transcoder

/// One song being transcoded to MP3 into the cache: a thread of its own runs the
/// ``AudioTranscoder`` and appends each chunk to `<name>.part` as it comes; any number of
/// listeners read that growing file behind it (``read(from:upTo:)``), so a song asked for by
/// several clients at once is encoded once, and the first bytes go out as soon as the
/// encoder has them. Finished, the part file is renamed to its final name, which the
/// media route then serves as a file, with Range.
///
/// Its ``length`` is known from the start (the transcoder's): the part file grows to
/// exactly that many bytes, so a listener can be given a `Content-Length` and a range
/// before the bytes exist.
///
/// The job runs to the end even when every listener has gone: a listener that disconnects
/// mid-song usually comes back for it (a player's reconnect, a resume by Range), and the
/// rest of a song costs a fraction of a second of CPU.
final class TranscodeJob: Sendable {
    /// Where the job stands.
    enum Progress: Sendable, Equatable {
        /// This many bytes are in the part file; more may follow.
        case writing(Int)
        /// The file is complete and renamed; this many bytes in all.
        case finished(Int)
        /// The transcoder or the file failed after this many bytes.
        case failed(Int, TranscodeError?)
    }

    /// The file being written (`.<name>.part` in the cache folder).
    let partFile: URL
    /// The final file.
    let finalFile: URL
    /// The bytes the finished file holds (``AudioTranscoder/length``).
    let length: Int
    private let progress = Mutex(Progress.writing(0))

    /// Starts transcoding `input` to MP3 at `kbps`, every sample multiplied by `gain`, into
    /// `finalFile`, on a thread of its own, and calls `onEnd` on that thread once the job
    /// finished or failed.
    ///
    /// - Throws: what ``AudioTranscoder/init(input:kbps:gain:chunkSize:)`` throws, before any
    ///   byte is written, so the route can answer an error status; `cannotWrite` when the
    ///   part file cannot be created.
    init(input: URL, kbps: Int, gain: FrameGain = .unity, finalFile: URL,
         onEnd: @escaping @Sendable (TranscodeJob) -> Void) throws(TranscodeError) {
        self.finalFile = finalFile
        partFile = finalFile.deletingLastPathComponent().appendingPathComponent(".\(finalFile.lastPathComponent).part")
        let transcoder = try AudioTranscoder(input: input, kbps: kbps, gain: gain, chunkSize: 16 * 1024)
        length = transcoder.length
        let descriptor = open(partFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .cannotWrite(path: partFile.path, reason: String(cString: strerror(errno)))
        }
        let box = TranscoderBox(transcoder)
        Thread.detachNewThread { [self] in
            self.run(box.transcoder, descriptor: descriptor)
            onEnd(self)
        }
    }

    /// What is written so far.
    var current: Progress {
        progress.withLock { $0 }
    }

    /// The bytes of the part file from `offset` on, waiting (polling every few
    /// milliseconds) while the encoder catches up: `nil` once everything has been read, the
    /// job failed, the calling task was cancelled, or nothing new came for
    /// ``stallLimit`` (the file vanished from under the job, say).
    func read(from offset: Int, upTo limit: Int = 64 * 1024) async -> [UInt8]? {
        var idle: Duration = .zero
        while idle < Self.stallLimit, !Task.isCancelled {
            let now = current
            let available: Int
            switch now {
            case .writing(let count), .finished(let count), .failed(let count, _): available = count
            }
            if available > offset {
                // A finished job's part file has become the final file.
                let file = if case .finished = now { finalFile } else { partFile }
                if let bytes = Self.pread(file, offset: offset, count: min(limit, available - offset)) { return bytes }
                // Not readable: renamed between the check and the read while still writing
                // (the next turn reads the final file), or gone for good.
                guard case .writing = now else { return nil }
            } else {
                // Nothing new yet: wait while the encoder writes, else everything was read.
                guard case .writing = now else { return nil }
            }
            try? await Task.sleep(for: Self.poll)
            idle += Self.poll
        }
        return nil
    }

    /// What became of a wait for a byte ahead of the encoder.
    enum Arrival: Sendable, Equatable {
        /// The byte is in the file.
        case arrived
        /// The job failed, or ended, before writing it.
        case never
        /// The time allowed passed first.
        case late
    }

    /// Waits, for at most `limit`, until the byte at `offset` is written (polling as
    /// ``read(from:upTo:)`` does): a range asked for just ahead of the encoder is answered
    /// once the encoder gets there.
    func waitFor(byte offset: Int, within limit: Duration) async -> Arrival {
        let deadline = ContinuousClock.now + limit
        while true {
            switch current {
            case .writing(let count) where count > offset, .finished(let count) where count > offset:
                return .arrived
            case .finished, .failed:
                return .never
            case .writing:
                guard ContinuousClock.now < deadline, !Task.isCancelled else { return .late }
                try? await Task.sleep(for: Self.poll)
            }
        }
    }

    /// How often a reader waiting for more looks again.
    static let poll: Duration = .milliseconds(5)
    /// How long a reader waits without a new byte before it gives up.
    static let stallLimit: Duration = .seconds(30)

    private func run(_ transcoder: AudioTranscoder, descriptor: Int32) {
        var written = 0
        var failure: TranscodeError?
        var writeFailed = false
        loop: while true {
            do throws(TranscodeError) {
                guard let chunk = try transcoder.nextChunk() else { break loop }
                guard DescriptorWriter.writeAll(chunk, to: descriptor) == 0 else {
                    writeFailed = true
                    break loop
                }
                written += chunk.count
                progress.withLock { $0 = .writing(written) }
            } catch {
                failure = error
                break loop
            }
        }
        close(descriptor)
        if failure == nil, !writeFailed, rename(partFile.path, finalFile.path) == 0 {
            progress.withLock { $0 = .finished(written) }
        } else {
            unlink(partFile.path)
            progress.withLock { $0 = .failed(written, failure) }
        }
    }

    private static func pread(_ file: URL, offset: Int, count: Int) -> [UInt8]? {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { Glibc.pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        guard got > 0 else { return nil }
        return Array(bytes.prefix(got))
    }
}

/// Hands the transcoder, which is not `Sendable`, to the one thread that uses it.
private final class TranscoderBox: @unchecked Sendable {
    let transcoder: AudioTranscoder
    init(_ transcoder: AudioTranscoder) { self.transcoder = transcoder }
}
