import Logging
import MusicLibrary
import Transcoder

extension Station {
    /// The file extensions a library folder's songs may have (lowercased, without the dot,
    /// sorted): audio files and music videos. What a "no songs" line says was looked for.
    public static var songExtensions: [String] {
        LibraryTrack.songExtensions.sorted()
    }

    /// Sends FFmpeg's own warnings and errors (a damaged frame skipped, a duration
    /// estimated) to `logger` at `notice`, prefixed `ffmpeg: `, instead of the standard
    /// error FFmpeg writes them to by itself; from the first transcode on, as FFmpeg is
    /// loaded then. Every failure reaches the station as an error regardless.
    ///
    /// Process-wide, and for a process without libmpv only: libmpv reads FFmpeg's log
    /// through a callback of its own, which this replaces (see `FFmpegLog`). `mhz serve`
    /// calls it; the radio, which plays through libmpv, does not.
    public static func routeFFmpegLog(to logger: Logger) {
        FFmpegLog.route { line in logger.notice("ffmpeg: \(line)") }
    }
}
