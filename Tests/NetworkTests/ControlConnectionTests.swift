import Foundation
import TestSupport
import Testing
@testable import Companions
@testable import mhz

/// One control-socket client that follows the events, over a real unix socket pair: a
/// follower that reads keeps getting every line, one that stops reading is let go once
/// ``ControlConnection/maxPendingLines`` lines wait for it, rather than held in memory
/// without end.
struct ControlConnectionTests {
    /// A connection over one end of a socket pair, answering `follow` by following; the
    /// other end is the client's.
    struct Pair {
        let connection: ControlConnection
        let client: Int32
        let finished = Locked(false)

        init() throws {
            var ends: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
                throw TestSupportError.socketFailed("socketpair: \(String(cString: strerror(errno)))")
            }
            client = ends[1]
            let finished = self.finished
            connection = ControlConnection(fd: ends[0], answer: { line in
                switch line {
                case .text("follow"): .follow(#"{"ok":true}"#)
                case .text(let text): .answer(#"{"ok":false,"line":"\#(text)"}"#)
                case .tooLong(let limit): .answer(#"{"ok":false,"limit":\#(limit)}"#)
                }
            }, finished: { finished.withLock { $0 = true } })
            connection.start()
        }

        /// Sends `follow` and reads its answer: from then on the client follows.
        func follow() async throws {
            SocketIO.sendAll(client, Data("follow\n".utf8))
            let client = self.client
            let answer = try await offPool { () throws -> String in
                var line = Data()
                var byte: UInt8 = 0
                while recv(client, &byte, 1, 0) == 1, byte != 0x0A { line.append(byte) }
                return String(decoding: line, as: UTF8.self)
            }
            #expect(answer == #"{"ok":true}"#)
        }
    }

    /// Event line `n`: about a hundred bytes, as a `status` line is.
    static func event(_ n: Int) -> String {
        #"{"event":"status","n":\#(n),"text":"\#(String(repeating: "x", count: 80))"}"#
    }

    /// The whole lines readable on `fd` until the end of the stream (a line cut short by
    /// the hang-up is not one).
    static func readLines(_ fd: Int32, into lines: Locked<[String]>) {
        var pending = Data()
        while SocketIO.receive(fd, into: &pending) {
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                lines.withLock { $0.append(line) }
            }
        }
    }

    @Test func aFollowerThatStopsReadingIsLetGoOnceTheLimitOfLinesWaitsForIt() async throws {
        let pair = try Pair()
        defer { close(pair.client) }
        try await pair.follow()
        // The client reads nothing more. Events until mhz hangs up on it.
        var posted = 0
        while !LoopbackSocket.isClosedByPeer(pair.client), posted < 100_000 {
            pair.connection.event(Self.event(posted))
            posted += 1
        }
        #expect(LoopbackSocket.isClosedByPeer(pair.client), "still connected after \(posted) events")
        // What had reached the socket is still there to read: the first events, in order.
        let received = Locked<[String]>([])
        let client = pair.client
        _ = try await offPool { Self.readLines(client, into: received) }
        #expect(received.value == (0..<received.value.count).map(Self.event))
        // Hung up when the limit was passed: more than that many lines were waiting
        // (posted, and neither read nor being written): at most the limit's worth besides
        // the one batch being written when it was passed, itself never over the limit.
        let unread = posted - received.value.count
        #expect(unread > ControlConnection.maxPendingLines && unread <= 2 * ControlConnection.maxPendingLines + 1,
                "\(posted) posted, \(received.value.count) read")
        #expect(await eventually { pair.finished.value })
        // Events after the hang-up go nowhere.
        pair.connection.event(Self.event(posted))
    }

    @Test func aFollowerThatReadsGetsEveryLineAndStays() async throws {
        let pair = try Pair()
        defer { close(pair.client) }
        try await pair.follow()
        let received = Locked<[String]>([])
        let client = pair.client
        let reader = Task { try await offPool { Self.readLines(client, into: received) } }
        // Twice the limit in all, never more than a tenth of it unread at once.
        let batch = ControlConnection.maxPendingLines / 10
        let total = batch * 20
        for start in stride(from: 0, to: total, by: batch) {
            for n in start..<(start + batch) { pair.connection.event(Self.event(n)) }
            try await waitUntil("events up to \(start + batch) read") { received.value.count == start + batch }
        }
        #expect(received.value == (0..<total).map(Self.event))
        #expect(!LoopbackSocket.isClosedByPeer(pair.client))
        #expect(!pair.finished.value)
        pair.connection.close()
        _ = try await reader.value
        #expect(await eventually { pair.finished.value })
    }

    @Test func aLineOverTheLimitIsAnsweredOnceAndTheNextLineIsReadWhole() async throws {
        let pair = try Pair()
        defer { close(pair.client) }
        let long = String(repeating: "x", count: 3 * LineReader.commandLineBytes)
        SocketIO.sendAll(pair.client, Data("a\n\(long)\nb\r\n".utf8))
        shutdown(pair.client, Int32(SHUT_WR))
        let received = Locked<[String]>([])
        let client = pair.client
        _ = try await offPool { Self.readLines(client, into: received) }
        #expect(received.value == [#"{"ok":false,"line":"a"}"#, #"{"ok":false,"limit":4096}"#, #"{"ok":false,"line":"b"}"#])
        #expect(await eventually { pair.finished.value })
    }
}
