import Foundation

/// Reads the tags and audio properties of a file TagLib cannot open: TagLib 1.13 has no
/// Matroska, so `.mkv` and `.webm` music videos are read through this port. The station
/// gives the scanner one that asks FFmpeg's libavformat (the `Transcoder` target, which
/// this layer does not import); without one, such files are skipped as unreadable.
///
/// Called on the scan's threads, several files at once: an implementation must be safe
/// to call concurrently.
package protocol MediaTagReader: Sendable {
    /// What the file's container declares (no cover), or `nil` when it cannot be read as
    /// media with sound.
    func metadata(of file: URL) -> TrackMetadata?
}
