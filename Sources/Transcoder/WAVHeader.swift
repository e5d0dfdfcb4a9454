import Foundation

/// The 44-byte header of a canonical WAVE file of integer PCM: `RIFF`, `WAVE`, a 16-byte
/// `fmt ` chunk (format 1, PCM) and the `data` chunk's header, every number little-endian
/// (the Microsoft RIFF/WAVE layout every decoder reads). The demo library's songs and the
/// recording of `--audio-output pcm` both begin with it.
package enum WAVHeader {
    /// The header's length in bytes.
    package static let length = 44

    /// The header of `dataLength` bytes of interleaved samples.
    ///
    /// - Parameters:
    ///   - sampleRate: frames per second.
    ///   - channels: samples per frame (1 for mono).
    ///   - bitsPerSample: 16 for the PCM mhz writes.
    ///   - dataLength: the bytes of samples that follow; the RIFF size that counts them with
    ///     the rest of the header saturates at the format's 4 GiB.
    package static func bytes(sampleRate: Int, channels: Int, bitsPerSample: Int, dataLength: UInt32) -> Data {
        let blockAlign = channels * bitsPerSample / 8
        var bytes = Data(capacity: length)
        bytes.append(contentsOf: Array("RIFF".utf8))
        // The RIFF size counts everything after its field: "WAVE", the fmt chunk (8 + 16) and
        // the data chunk (8 + its samples).
        let (riffSize, overflow) = dataLength.addingReportingOverflow(4 + 24 + 8)
        append(overflow ? UInt32.max : riffSize, to: &bytes)
        bytes.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16), to: &bytes)
        append(UInt16(1), to: &bytes)  // WAVE_FORMAT_PCM
        append(UInt16(truncatingIfNeeded: channels), to: &bytes)
        append(UInt32(truncatingIfNeeded: sampleRate), to: &bytes)
        append(UInt32(truncatingIfNeeded: sampleRate * blockAlign), to: &bytes)  // byte rate
        append(UInt16(truncatingIfNeeded: blockAlign), to: &bytes)
        append(UInt16(truncatingIfNeeded: bitsPerSample), to: &bytes)
        bytes.append(contentsOf: Array("data".utf8))
        append(dataLength, to: &bytes)
        return bytes
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
