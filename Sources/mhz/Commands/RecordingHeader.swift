import Foundation
import Transcoder

/// The WAV header of the file `--audio-output pcm` records into: 16-bit stereo PCM at
/// 44.1 kHz, the format mhz asks mpv for, with a data length larger than any session (as
/// mpv's own header for a stream, 0x7ffff000 bytes), so a reader takes the samples up to
/// the file's end. mpv appends bare samples behind it (`ao-pcm-waveheader=no`).
enum RecordingHeader {
    /// Frames per second.
    static let sampleRate = 44_100
    /// Channels.
    static let channels = 2
    /// The data length announced.
    static let dataLength: UInt32 = 0x7fff_f000

    /// The 44 bytes (``WAVHeader``).
    static var bytes: Data {
        WAVHeader.bytes(sampleRate: sampleRate, channels: channels, bitsPerSample: 16, dataLength: dataLength)
    }
}
