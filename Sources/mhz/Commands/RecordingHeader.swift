import Foundation

/// The WAV header of the file `--audio-output pcm` records into: 16-bit stereo PCM at
/// 44.1 kHz, the format mhz asks mpv for, with a data length larger than any session (as
/// mpv's own header for a stream, 0x7ffff000 bytes), so a reader takes the samples up to
/// the file's end. mpv appends bare samples behind it (`ao-pcm-waveheader=no`).
enum RecordingHeader {
    /// Frames per second.
    static let sampleRate = 44_100
    /// Channels.
    static let channels = 2
    /// Bits per sample.
    static let bits = 16
    /// The data length announced.
    static let dataLength: UInt32 = 0x7fff_f000

    /// The 44 bytes: `RIFF`, `WAVE`, a 16-byte `fmt ` chunk (format 1, PCM), `data`.
    static var bytes: Data {
        var data = Data()
        func put(_ text: String) { data.append(contentsOf: Array(text.utf8)) }
        func put32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func put16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let blockAlign = UInt16(channels * bits / 8)
        put("RIFF")
        put32(36 + dataLength)
        put("WAVE")
        put("fmt ")
        put32(16)
        put16(1)
        put16(UInt16(channels))
        put32(UInt32(sampleRate))
        put32(UInt32(sampleRate) * UInt32(blockAlign))
        put16(blockAlign)
        put16(UInt16(bits))
        put("data")
        put32(dataLength)
        return data
    }
}
