import Foundation
import Transcoder

/// Encodes 16-bit PCM samples as a canonical WAVE file: ``WAVHeader``'s 44 bytes, then the
/// samples, little-endian. TagLib later adds its `ID3 ` and `LIST` chunks after these.
package enum WAVWriter {
    /// The bytes of a WAVE file holding `samples` (interleaved when `channels` > 1).
    ///
    /// - Parameters:
    ///   - samples: signed 16-bit PCM, fewer than 2 GiB of them (the demo's songs are
    ///     seconds long).
    ///   - sampleRate: samples per second per channel.
    ///   - channels: 1 for mono.
    package static func data(samples: [Int16], sampleRate: Int, channels: Int = 1) -> Data {
        let dataLength = UInt32(clamping: samples.count * 2)
        var bytes = WAVHeader.bytes(sampleRate: sampleRate, channels: channels, bitsPerSample: 16, dataLength: dataLength)
        bytes.reserveCapacity(WAVHeader.length + Int(dataLength))
        samples.withUnsafeBufferPointer { buffer in
            // Linux and macOS on x86-64 and arm64 are little-endian, as WAVE requires; the
            // conversion keeps big-endian hosts correct too.
            if Int16(littleEndian: 1) == 1 {
                bytes.append(contentsOf: UnsafeRawBufferPointer(buffer))
            } else {
                for sample in buffer {
                    withUnsafeBytes(of: sample.littleEndian) { bytes.append(contentsOf: $0) }
                }
            }
        }
        return bytes
    }
}
