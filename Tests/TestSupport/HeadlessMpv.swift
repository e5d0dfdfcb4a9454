import Foundation

/// The real `mpv` player, headless (`--ao=null`, `--no-video`, no configuration), playing
/// a URL as a listener would, its whole log (`--log-file`, every level) read line by line
/// from a pipe with blocking reads (``PipeReader``).
///
/// FFmpeg's HLS demuxer inside it logs each segment it asks for
/// (`HLS request for url '…/<sequence>.ts'`) and gives up on a live stream when one playlist
/// reload fails (`Failed to reload playlist`): what the live tests look for.
public final class HeadlessMpv: Sendable {
    private let process: Process
    private let log = Locked(Data())
    private let ended = Locked(false)

    /// Starts `mpv` on `url`.
    ///
    /// - Throws: `TestSupportError.toolFailed` when mpv cannot be started.
    public init(playing url: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The log file is the pipe on stderr; the terminal's own output is off.
        process.arguments = ["mpv", "--no-config", "--ao=null", "--no-video", "--no-terminal",
                             "--log-file=/dev/stderr", url.absoluteString]
        let errPipe = ChildLaunch.pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errPipe
        do { try ChildLaunch.run(process) } catch { throw TestSupportError.toolFailed("mpv cannot run: \(error)") }
        let log = self.log
        let ended = self.ended
        PipeReader.drain(errPipe.fileHandleForReading, name: "mpv-log") { chunk in
            log.withLock { $0.append(chunk) }
        } onEnd: {
            ended.withLock { $0 = true }
        }
    }

    /// The log so far.
    public var text: String { String(decoding: log.withLock { $0 }, as: UTF8.self) }

    /// Whether mpv is still running.
    public var isRunning: Bool { process.isRunning }

    /// A segment mpv asked for: the playlist's folder in its URL (a variant's, as
    /// `…/live/1/128`) and its media sequence number.
    public struct SegmentRequest: Sendable, Equatable {
        /// The URL up to the segment's file name.
        public var variant: String
        /// The `N` of `…/N.ts`.
        public var sequence: Int
    }

    /// The segments asked for so far, in order, from each `HLS request for url '…/N.ts'`:
    /// at the start, FFmpeg reads the first segments of every variant to find the streams,
    /// then those of the variant it plays.
    public var segmentRequests: [SegmentRequest] {
        text.split(separator: "\n").compactMap { line -> SegmentRequest? in
            guard let marker = line.range(of: "HLS request for url '") else { return nil }
            let url = line[marker.upperBound...].prefix { $0 != "'" }
            guard url.hasSuffix(".ts"), let slash = url.lastIndex(of: "/"),
                  let sequence = Int(url[url.index(after: slash)...].dropLast(3))
            else { return nil }
            return SegmentRequest(variant: String(url[..<slash]), sequence: sequence)
        }
    }

    /// Waits until `condition` holds of mpv (at most `limit`); throws when mpv ended first
    /// or time ran out, with the log's end.
    public func waitUntil(_ what: String, within limit: Duration = .seconds(60),
                          _ condition: (HeadlessMpv) -> Bool) async throws {
        try await TestSupport.waitUntil("\(what): \(tail)", within: limit) {
            if condition(self) { return true }
            guard process.isRunning else { throw TestSupportError.timeout("mpv ended before \(what): \(tail)") }
            return false
        }
    }

    /// Ends mpv (SIGTERM, then SIGKILL if it lingers) and waits for it and its log's end;
    /// nothing once it has ended.
    public func stop() async {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGTERM) }
        _ = await eventually(within: .seconds(10)) { !process.isRunning }
        kill()
        _ = await eventually(within: .seconds(10)) { ended.withLock { $0 } }
    }

    /// Ends mpv for sure (SIGKILL) and reaps it, for a test's `defer`; nothing once it has
    /// ended.
    public func kill() {
        process.killAndReap()
    }

    /// The log's last lines, for a failure's message.
    private var tail: String {
        text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }
}
