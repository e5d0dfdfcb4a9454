import NIOCore
import NIOHTTP1

/// Finds a request target longer than ``RequestLimitMiddleware/maximumTargetLength`` in the
/// bytes a connection sends, before NIO's HTTP/1 parser reads them, so that every target
/// over the limit is a 414 whatever its length.
///
/// NIO's parser counts the target against its header limit (80 KiB): a target longer than
/// that is a `headerOverflow`, the same error as too many header bytes, and never reaches
/// ``RequestLimitMiddleware``. This handler sits just before the parser
/// (``MalformedRequestHandler`` puts it there) and follows the requests' framing on its
/// own: the request line, the header lines up to the empty one, and a body of the
/// `Content-Length` the head declares. When a target passes the limit, it stops handing
/// bytes on and reports `HTTPParserError.headerOverflow`, as the parser would have, so
/// the answer waits for the answers of the requests before it (NIO's pipelining handler
/// holds parser errors back until then); ``tripped`` tells ``MalformedRequestHandler`` to
/// answer 414 rather than 400.
///
/// A chunked body (`Transfer-Encoding`) is not followed: from there on the connection's
/// bytes pass unwatched, and a target over the parser's own limit is its 400 as before.
final class RequestTargetGuard: ChannelInboundHandler, RemovableChannelHandler {
    /// Bytes, as they come.
    typealias InboundIn = ByteBuffer
    /// The same bytes, handed on.
    typealias InboundOut = ByteBuffer

    /// Where in the framing of a request the next byte falls.
    enum State: Equatable {
        /// The method, or the empty lines a request line may follow.
        case method
        /// The target, this many bytes of it so far.
        case target(Int)
        /// The rest of the request line (its version).
        case version
        /// A header line, or the empty line ending the head.
        case header
        /// A body with this many bytes still to come.
        case body(Int)
        /// Not followed any more (a chunked body, a head this handler cannot read).
        case unwatched
        /// A target over the limit was seen: nothing more is handed on.
        case tripped
    }

    /// Where the framing stands.
    private(set) var state = State.method
    /// The `Content-Length` of the head being read, when it declared one.
    private var declaredLength: Int?
    /// Whether the head being read leaves the body unframed for this handler:
    /// `Transfer-Encoding`, or a `Content-Length` it cannot read.
    private var unframed = false
    /// The header line being read: its name so far (lowercased, the first bytes only),
    /// whether its colon came, its value so far (the first bytes only), whether it is
    /// empty so far. Kept here, not in ``State``, so that they grow in place.
    private var name: [UInt8] = []
    private var inValue = false
    private var value: [UInt8] = []
    private var emptyLine = true
    private let limit: Int

    /// Whether a target over the limit ended the connection's requests.
    var tripped: Bool { state == .tripped }

    /// A guard for targets longer than `limit` bytes.
    init(limit: Int = RequestLimitMiddleware<StationContext>.maximumTargetLength) {
        self.limit = limit
    }

    /// Follows the bytes, handing them on until a target passes the limit.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state != .tripped else { return }
        let buffer = unwrapInboundIn(data)
        if state != .unwatched {
            let overflowed = buffer.withUnsafeReadableBytes { bytes in
                var index = 0
                while index < bytes.count {
                    if case .body(let remaining) = state {
                        // Skipped whole, not byte by byte.
                        let taken = min(remaining, bytes.count - index)
                        index += taken
                        state = remaining == taken ? .method : .body(remaining - taken)
                        continue
                    }
                    if read(bytes[index]) { return true }
                    if state == .unwatched { return false }
                    index += 1
                }
                return false
            }
            if overflowed {
                state = .tripped
                context.fireErrorCaught(HTTPParserError.headerOverflow)
                return
            }
        }
        context.fireChannelRead(data)
    }

    /// Takes one byte of a head; true when it makes the target longer than the limit.
    private func read(_ byte: UInt8) -> Bool {
        let lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r"), space = UInt8(ascii: " ")
        switch state {
        case .method:
            // Empty lines before a request line are allowed (RFC 9112 §2.2).
            if byte == space { state = .target(0) }
        case .target(let count):
            if byte == space || byte == carriageReturn || byte == lineFeed {
                if byte == lineFeed { startLine() } else { state = .version }
            } else {
                if count + 1 > limit { return true }
                state = .target(count + 1)
            }
        case .version:
            if byte == lineFeed { startLine() }
        case .header:
            if byte == lineFeed {
                if emptyLine {
                    endOfHead()
                } else {
                    field()
                    startLine()
                }
            } else if byte == carriageReturn {
                break
            } else if !inValue {
                emptyLine = false
                if byte == UInt8(ascii: ":") { inValue = true } else if name.count < 20 { name.append(byte | 0x20) }
            } else if value.count < 24 {
                value.append(byte)
            }
        case .body, .unwatched, .tripped:
            break
        }
        return false
    }

    private static let contentLength = Array("content-length".utf8)
    private static let transferEncoding = Array("transfer-encoding".utf8)

    /// A header line (or the empty line) begins.
    private func startLine() {
        state = .header
        name.removeAll(keepingCapacity: true)
        value.removeAll(keepingCapacity: true)
        inValue = false
        emptyLine = true
    }

    /// Notes what the header line just read says about the body.
    private func field() {
        if name == Self.transferEncoding { unframed = true }
        guard name == Self.contentLength else { return }
        let digits = value.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        var length = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else {
                unframed = true
                return
            }
            let (times, overflowTimes) = length.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowSum else {
                unframed = true
                return
            }
            length = sum
        }
        // Two different lengths are no framing at all: the parser refuses them.
        if digits.isEmpty || (declaredLength.map { $0 != length } ?? false) { unframed = true }
        declaredLength = length
    }

    /// The empty line after the header lines: the body next, or the next request.
    private func endOfHead() {
        defer {
            declaredLength = nil
            unframed = false
        }
        if unframed {
            state = .unwatched
        } else if let length = declaredLength, length > 0 {
            state = .body(length)
        } else {
            state = .method
        }
    }
}
