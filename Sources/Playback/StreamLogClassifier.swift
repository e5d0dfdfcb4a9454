/// Reads the few mpv log lines (requested at `warn`) the player acts on. mpv's client API has
/// no property for an HTTP status or a dropped connection, only these lines, so each pattern
/// below quotes what mpv 0.35.1 / ffmpeg 5.1 printed in this project's own runs:
///
/// ```
/// [warn]  ffmpeg: http: HTTP error 404 Not Found
/// [warn]  ffmpeg: http: HTTP error 403 Forbidden
/// [error] stream: Failed to open http://127.0.0.1:18779/404/t.mp3.
/// [error] ffmpeg: http: Stream ends prematurely at 98304, should be 321036
/// [warn]  ffmpeg: http: Will reconnect at 98304 in 0 second(s), error=Input/output error.
/// [warn]  ffmpeg: http: Will reconnect at 98304 in 0 second(s), error=Connection timed out.
/// [error] ffmpeg: tcp: Connection to tcp://127.0.0.1:18779 failed: Connection refused
/// [error] cplayer: Could not open/initialize audio device -> no sound.
/// [error] cplayer: Error opening/initializing the selected video_out (--vo) device.
/// ```
/// (ffmpeg's lines reach mpv as prefix `ffmpeg` or `ffmpeg/<kind>`, with ffmpeg's own
/// component, `http:`, `tcp:`, `tls:`, `hls:`, at the start of the text.)
enum StreamLogClassifier {
    /// What a log line tells the player.
    enum Signal: Sendable, Equatable {
        /// The server answered with this HTTP status (≥ 400).
        case httpStatus(Int)
        /// The network transport had trouble (a drop, a timeout, a reconnect).
        case transportTrouble
        /// The audio output could not be opened.
        case audioOutputFailed(String)
        /// The video output could not be opened.
        case videoOutputFailed(String)
        /// mpv gave up opening this URL (the HTTP status, if any, was logged just before).
        case failedToOpen(url: String)
    }

    /// ffmpeg components whose warnings mean network trouble.
    private static let networkComponents = ["http:", "https:", "tcp:", "tls:", "hls:", "udp:"]

    /// The signal in `message`, or nil for lines the player does not act on.
    static func classify(_ message: MPVLogMessage) -> Signal? {
        let text = message.text
        if message.prefix == "ffmpeg" || message.prefix.hasPrefix("ffmpeg/") {
            if let status = httpStatus(in: text) { return .httpStatus(status) }
            if networkComponents.contains(where: { text.hasPrefix($0) }) { return .transportTrouble }
            return nil
        }
        if message.prefix == "stream", text.hasPrefix("Failed to open ") {
            // "Failed to open %s." — mpv prints the URL as it was given to loadfile.
            var url = text.dropFirst("Failed to open ".count)
            if url.hasSuffix(".") { url = url.dropLast() }
            return .failedToOpen(url: String(url))
        }
        if message.prefix == "cplayer" {
            if text.hasPrefix("Could not open/initialize audio device") { return .audioOutputFailed(text) }
            if text.hasPrefix("Error opening/initializing the selected video_out") { return .videoOutputFailed(text) }
        }
        return nil
    }

    /// The status in "…HTTP error 403 Forbidden" (ffmpeg's `http: HTTP error %d %s`).
    static func httpStatus(in text: String) -> Int? {
        guard let range = text.range(of: "HTTP error ") else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        guard digits.count == 3, let status = Int(digits), status >= 400 else { return nil }
        return status
    }
}
