import Foundation
import POSIXFile
import Synchronization

/// Where a download's body goes: a file descriptor the caller opened, written from
/// `resumeOffset` on, so a song is never held in memory whole.
///
/// What is written depends on the answer, decided at its first body byte (the status and
/// headers are complete by then; libcurl delivers no body of a redirect):
/// - `206` whose `Content-Range` starts at `resumeOffset` (within the byte range, when the
///   file holds one): appended there.
/// - `200`: the whole body from byte 0. When a range was asked for, the server ignored it,
///   so the file is truncated and written again from the start (``restartedFromZero``);
///   when the file holds a byte range of the resource, the range is cut out of the body
///   (``sliced``): the bytes before it are skipped, those after it dropped.
/// - `206` starting elsewhere, or without a `Content-Range`: nothing is written and the
///   transfer stops (``HTTPError/rangeMismatch(asked:answered:)``): appending it would
///   corrupt the file.
/// - any other status, or a `Content-Type` the caller refuses (an HTML page in place of a
///   song): nothing is written; the first bytes are kept in memory for the error message.
///
/// Bytes are gathered into 256 kB and then written (`write(2)`): libcurl hands a body over
/// in pieces of at most 16 kB (`CURL_MAX_WRITE_SIZE`), and a system call per piece costs a
/// large download a fifth of its speed. A process killed at any instant loses at most the
/// bytes gathered and not yet written; what was written, the kernel holds.
final class FileBody: Sendable {
    /// The descriptor, open for writing. Not closed here.
    let descriptor: Int32
    /// Where the body continues (the bytes already on disk).
    let resumeOffset: Int64
    /// Lowercased `Content-Type` prefixes whose bodies are not written.
    let refusedTypes: [String]
    /// The part of the resource the file holds, or nil for all of it.
    let byteRange: ClosedRange<Int64>?
    private let state = Mutex(State())

    /// How many bytes are gathered before they are written.
    static let gather = 256 * 1024

    private struct State {
        var mode = Mode.undecided
        var pending = [UInt8]()
        var written: Int64 = 0
        var restarted = false
        var kept = Data()
        var writeErrno: Int32 = 0
        var mismatch: String?
        /// While cutting a byte range out of a whole body: body bytes still to skip, and
        /// bytes of the range still to write.
        var skip: Int64 = 0
        var remaining: Int64 = .max
        var sliced = false
    }

    /// What the body of the answer is doing.
    enum Mode: Equatable {
        /// No body byte has arrived.
        case undecided
        /// Writing at `resumeOffset` (a trusted 206) or at 0 (a 200).
        case writing
        /// Not for the file: kept (the first 64 KiB) for the caller's message.
        case keeping
        /// Stopped: the range did not match, or a write failed.
        case stopped
    }

    /// A body for `descriptor`, continuing at `resumeOffset`; bodies whose `Content-Type`
    /// starts with one of `refusedTypes` (any case) are not written.
    init(descriptor: Int32, resumeOffset: Int64, refusedTypes: [String], byteRange: ClosedRange<Int64>? = nil) {
        self.descriptor = descriptor
        self.resumeOffset = resumeOffset
        self.refusedTypes = refusedTypes.map { $0.lowercased() }
        self.byteRange = byteRange
    }

    /// Bytes written to the file by this transfer.
    var written: Int64 { state.withLock { $0.written } }
    /// Whether a range was asked for and the whole body came instead.
    var restartedFromZero: Bool { state.withLock { $0.restarted } }
    /// The start of a body that was not written.
    var kept: Data { state.withLock { $0.kept } }
    /// `errno` of a failed write, 0 if none failed.
    var writeErrno: Int32 { state.withLock { $0.writeErrno } }
    /// The `Content-Range` of a 206 that did not continue the file, if one came.
    var rangeMismatch: String? { state.withLock { $0.mismatch } }
    /// Whether the body went to the file.
    var wroteFile: Bool { state.withLock { $0.mode == .writing } }
    /// Whether the byte range was cut out of a whole body.
    var sliced: Bool { state.withLock { $0.sliced } }

    /// Whether the first body byte (or the end) has decided where the body goes.
    var isDecided: Bool { decided.load(ordering: .acquiring) }
    private let decided = Atomic<Bool>(false)

    /// Decides where the body of an answer with `status` and `headers` goes, once.
    func decide(status: Int, headers: [(name: String, value: String)]) {
        state.withLock { s in
            if s.mode == .undecided { decide(&s, status: status, headers: headers) }
        }
    }

    /// Takes `count` bytes of the body, once ``decide(status:headers:)`` has placed it.
    /// Returns false to stop the transfer (libcurl's write callback then returns 0).
    func take(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        state.withLock { s in
            switch s.mode {
            case .undecided, .stopped:
                return false
            case .keeping:
                let room = max(0, 65_536 - s.kept.count)
                s.kept.append(bytes.assumingMemoryBound(to: UInt8.self), count: min(room, count))
                return true
            case .writing:
                var piece = UnsafeRawBufferPointer(start: bytes, count: count)
                if s.sliced {
                    let skipped = Int(min(Int64(piece.count), s.skip))
                    s.skip -= Int64(skipped)
                    let kept = Int(min(Int64(piece.count - skipped), s.remaining))
                    s.remaining -= Int64(kept)
                    piece = UnsafeRawBufferPointer(rebasing: piece[skipped..<(skipped + kept)])
                }
                s.pending.append(contentsOf: piece)
                if s.pending.count >= Self.gather { return writePending(&s) }
                return true
            }
        }
    }

    /// Writes the bytes gathered so far. Returns false when the file refused them (the
    /// `errno` is kept in ``writeErrno``).
    @discardableResult
    func flush() -> Bool {
        state.withLock { s in s.mode == .writing || !s.pending.isEmpty ? writePending(&s) : s.writeErrno == 0 }
    }

    private func writePending(_ s: inout State) -> Bool {
        defer { s.pending.removeAll(keepingCapacity: true) }
        let ok = s.pending.withUnsafeBytes { raw -> Bool in
            var done = 0
            let failure = DescriptorWriter.writeAll(raw, to: descriptor, written: &done)
            s.written += Int64(done)
            if failure != 0 { s.writeErrno = failure }
            return failure == 0
        }
        if !ok { s.mode = .stopped }
        return ok
    }

    /// Called when the transfer ended: an answer with an empty body never reached `take`,
    /// yet a 200 to a range request still means the file starts again (empty).
    func finish(status: Int, headers: [(name: String, value: String)]) {
        decide(status: status, headers: headers)
    }

    private func decide(_ s: inout State, status: Int, headers: [(name: String, value: String)]) {
        defer { decided.store(true, ordering: .releasing) }
        let type = headers.last { $0.name == "content-type" }?.value.lowercased() ?? ""
        if !(status == 200 || status == 206) || refusedTypes.contains(where: { type.hasPrefix($0) }) {
            s.mode = .keeping
            return
        }
        if status == 206 {
            let range = headers.last { $0.name == "content-range" }?.value
            let first = (byteRange?.lowerBound ?? 0) + resumeOffset
            guard let range, let answered = ContentRange(range), answered.first == first,
                  byteRange.map({ answered.last <= $0.upperBound }) ?? true
            else {
                s.mismatch = range ?? "none"
                s.mode = .stopped
                return
            }
            _ = ftruncate(descriptor, off_t(resumeOffset))
            _ = lseek(descriptor, off_t(resumeOffset), SEEK_SET)
        } else if let byteRange {
            s.sliced = true
            s.skip = byteRange.lowerBound + resumeOffset
            s.remaining = max(0, Int64(byteRange.count) - resumeOffset)
            _ = ftruncate(descriptor, off_t(resumeOffset))
            _ = lseek(descriptor, off_t(resumeOffset), SEEK_SET)
        } else {
            s.restarted = resumeOffset > 0
            _ = ftruncate(descriptor, 0)
            _ = lseek(descriptor, 0, SEEK_SET)
        }
        s.mode = .writing
    }
}

/// A `Content-Range` header of a 206: `bytes FIRST-LAST/TOTAL` (TOTAL may be `*`), per
/// RFC 9110 §14.4.
public struct ContentRange: Sendable, Equatable {
    /// The first byte of the body.
    public var first: Int64
    /// The last byte of the body (inclusive).
    public var last: Int64
    /// The whole representation's length, when the server knows it.
    public var total: Int64?

    /// Parses the header's value; nil when it is not a satisfied byte range.
    public init?(_ value: String) {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", maxSplits: 1)
        guard halves.count == 2 else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else { return nil }
        self.first = first
        self.last = last
        if halves[1] == "*" {
            total = nil
        } else {
            guard let total = Int64(halves[1]), total > last else { return nil }
            self.total = total
        }
    }
}
