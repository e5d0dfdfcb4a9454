import Foundation

/// One connection through a ``FaultProxy``: read the request, decide by the mode, forward
/// it and relay the answer, shaping or cutting it as the mode says.
extension FaultProxy {
    /// How one answer's body is cut short.
    enum Cut {
        /// RST after this many body bytes.
        case reset(Int)
        /// FIN after this many body bytes.
        case truncate(Int)

        /// The body bytes relayed before the cut.
        var limit: Int {
            switch self {
            case .reset(let bytes), .truncate(let bytes): max(0, bytes)
            }
        }
    }

    /// What to do with one request that was read.
    enum Plan {
        /// Close unanswered (with an RST when `reset`).
        case drop(reset: Bool)
        /// Answer by itself.
        case answer(status: Int, retryAfter: Int?)
        /// Forward after a delay, cutting the answer's body if asked.
        case forward(delayMilliseconds: Int, cut: Cut?)
    }

    /// Serves one accepted connection to its end, on the connection's own thread.
    func serve(_ client: Int32) {
        var resetClient = false
        defer { release(client, reset: resetClient) }
        if case .drop(let reset) = state.withLock({ mode(for: nil, in: $0) }) {
            record(path: nil, query: "", .dropped) { $0.dropped += 1 }
            resetClient = reset
            return
        }
        var buffer = Data()
        guard let head = SocketIO.readHead(client, buffer: &buffer),
              let request = HTTPHead(head), readBody(client, length: request.contentLength, into: &buffer)
        else { return }
        var held = false
        guard waitOutStall(path: request.path, client: client, held: &held) != nil else { return }
        switch plan(request) {
        case .drop(let reset):
            resetClient = reset
        case .answer(let status, let retryAfter):
            var answer = "HTTP/1.1 \(status) \(HTTPHead.reason(status))\r\n"
            if let retryAfter { answer += "Retry-After: \(retryAfter)\r\n" }
            answer += "Content-Length: 0\r\nConnection: close\r\n\r\n"
            SocketIO.sendAll(client, Data(answer.utf8))
        case .forward(let delay, let cut):
            guard delay <= 0 || pause(milliseconds: delay) else { return }
            resetClient = forward(request, body: buffer, to: client, cut: cut)
        }
    }

    /// Decides (and counts) what the mode of this moment does to a request.
    private func plan(_ request: HTTPHead) -> Plan {
        state.withLock { state -> Plan in
            let plan: Plan
            switch mode(for: request.path, in: state) {
            case .drop(let reset):
                state.counts.dropped += 1
                plan = .drop(reset: reset)
            case .answer(let status, let retryAfter, _) where state.burstLeft > 0:
                state.burstLeft -= 1
                if state.burstLeft == 0 { state.mode = .passThrough }
                state.counts.answered += 1
                plan = .answer(status: status, retryAfter: retryAfter)
            case .latency:
                plan = .forward(delayMilliseconds: state.latency.next(), cut: nil)
            case .resetMidBody(let bytes): plan = .forward(delayMilliseconds: 0, cut: .reset(bytes))
            case .truncateBody(let bytes): plan = .forward(delayMilliseconds: 0, cut: .truncate(bytes))
            default: plan = .forward(delayMilliseconds: 0, cut: nil)
            }
            let action: FaultRecord.Action
            switch plan {
            case .drop: action = .dropped
            case .answer(let status, _): action = .answered(status)
            case .forward:
                action = .forwarded
                state.counts.forwarded += 1
            }
            state.records.append(FaultRecord(path: request.path, query: request.query, action: action, time: .now))
            return plan
        }
    }

    private func record(path: String?, query: String, _ action: FaultRecord.Action, count: (inout FaultCounts) -> Void) {
        state.withLock { state in
            count(&state.counts)
            state.records.append(FaultRecord(path: path, query: query, action: action, time: .now))
        }
    }

    /// Reads the rest of a `length`-byte request body into `buffer`.
    private func readBody(_ client: Int32, length: Int, into buffer: inout Data) -> Bool {
        while buffer.count < length {
            guard SocketIO.receive(client, into: &buffer) else { return false }
        }
        return true
    }

    /// Sends the request upstream and relays the answer; returns whether the client's
    /// socket must be closed with an RST.
    private func forward(_ request: HTTPHead, body: Data, to client: Int32, cut: Cut?) -> Bool {
        guard let upstream = LoopbackSocket.connect(port: upstreamPort) else { return false }
        guard track(upstream) else { return false }
        defer { release(upstream) }
        guard SocketIO.sendAll(upstream, request.closing() + body) else { return false }
        var pending = Data()
        guard let answerHead = SocketIO.readHead(upstream, buffer: &pending), let answer = HTTPHead(answerHead),
              SocketIO.sendAll(client, answer.closing())
        else { return false }
        var sent = 0
        var held = false
        while true {
            if let cut, sent >= cut.limit {
                state.withLock {
                    if case .reset = cut { $0.counts.reset += 1 } else { $0.counts.truncated += 1 }
                }
                if case .reset = cut { return true }
                shutdown(client, Int32(SHUT_RDWR))
                return false
            }
            if pending.isEmpty, !SocketIO.receive(upstream, into: &pending) { return false }
            guard let pacing = waitOutStall(path: request.path, client: client, held: &held) else { return false }
            var piece = pending.count
            var gap = 0
            if case .trickle(let bytes, let every) = pacing { (piece, gap) = (min(piece, max(1, bytes)), every) }
            if let cut { piece = min(piece, cut.limit - sent) }
            guard SocketIO.sendAll(client, Data(pending.prefix(piece))) else { return false }
            pending.removeFirst(piece)
            sent += piece
            if gap > 0, !pause(milliseconds: gap) { return false }
        }
    }
}
