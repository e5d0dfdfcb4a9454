/// What a `Range` header asks of a body whose length is known (RFC 9110 §14): the
/// station's one reading of it, for every file and every transcode still being made
/// (``RangeRepairMiddleware`` hands the file middleware its result, ``TranscodeStreaming``
/// answers from it).
///
/// - A header that is not a well-formed `bytes=` range set is ignored, and the whole body
///   is sent (RFC 9110 §14.2: a server "MAY ignore or reject" an invalid ranges-specifier;
///   ignoring is the one behaviour chosen). Ill-formed are: another unit (which a server
///   "MUST ignore"), an element that is neither `first-last`, `first-` nor `-suffix` of
///   ASCII digits, and `first-last` with last before first (§14.1.1: "invalid").
/// - A well-formed set none of whose ranges overlaps the body is unsatisfiable: a first
///   byte at or past the end, an empty suffix (`-0`), any range of an empty body
///   (416 with `Content-Range: bytes */length`, §15.5.17).
/// - Otherwise the first range of the set that overlaps the body is served, clamped to it,
///   as one part (a server may coalesce a multi-range request; one part is what the file
///   middleware and the transcode stream send).
///
/// Positions too large for an `Int` are read as `Int.max`: still a position far past any
/// body, never a trap.
enum ByteRange: Sendable, Equatable {
    /// No usable range: the whole body, 200.
    case whole
    /// These bytes, 206 with `Content-Range: bytes first-last/length`.
    case part(ClosedRange<Int>)
    /// No range of the set overlaps the body: 416 with `Content-Range: bytes */length`.
    case unsatisfiable

    /// One element of the range set, as written.
    private enum Spec {
        /// `first-` (`last` nil) or `first-last`.
        case span(first: Int, last: Int?)
        /// `-count`: the last `count` bytes.
        case suffix(Int)
    }

    /// Reads `header` against a body of `length` bytes.
    init(header: String?, length: Int) {
        guard let header, let specs = Self.specs(header) else {
            self = .whole
            return
        }
        for spec in specs {
            if let range = Self.overlap(spec, length: length) {
                self = .part(range)
                return
            }
        }
        self = .unsatisfiable
    }

    /// The elements of a well-formed `bytes=` range set, in order; `nil` for anything else.
    private static func specs(_ header: String) -> [Spec]? {
        let bytes = Array(header.utf8)
        let unit = Array("bytes=".utf8)
        // The unit is a token, compared without regard to case (RFC 9110 §14.1).
        guard bytes.count > unit.count,
              zip(bytes, unit).allSatisfy({ lowercased($0) == $1 })
        else { return nil }
        var specs: [Spec] = []
        // `1#range-spec`: elements between commas, optional white space around them; empty
        // elements are allowed by the list rule (RFC 9110 §5.6.1.2), but one must be there.
        for element in bytes[unit.count...].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let trimmed = element.drop { isBlank($0) }.reversed().drop { isBlank($0) }.reversed()
            if trimmed.isEmpty { continue }
            guard let spec = spec(Array(trimmed)) else { return nil }
            specs.append(spec)
        }
        return specs.isEmpty ? nil : specs
    }

    /// One `int-range` or `suffix-range`; `nil` when it is neither.
    private static func spec(_ text: [UInt8]) -> Spec? {
        guard let dash = text.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let first = text[..<dash], last = text[(dash + 1)...]
        if first.isEmpty {
            guard let count = number(last) else { return nil }
            return .suffix(count)
        }
        guard let start = number(first) else { return nil }
        if last.isEmpty { return .span(first: start, last: nil) }
        // "A range-spec is invalid if the last-pos value is present and less than the
        // first-pos" (§14.1.1).
        guard let end = number(last), end >= start else { return nil }
        return .span(first: start, last: end)
    }

    /// The bytes of the body `spec` names, clamped to it; `nil` when it names none.
    private static func overlap(_ spec: Spec, length: Int) -> ClosedRange<Int>? {
        guard length > 0 else { return nil }
        switch spec {
        case .suffix(let count):
            return count > 0 ? max(0, length - count)...(length - 1) : nil
        case .span(let first, let last):
            guard first < length else { return nil }
            return first...min(last ?? (length - 1), length - 1)
        }
    }

    /// `1*DIGIT` in ASCII, saturating at `Int.max`; `nil` when empty or anything else is in it.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            value = overflowTimes || overflowSum ? Int.max : sum
        }
        return value
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
