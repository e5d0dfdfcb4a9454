import Foundation

/// Encodes 16-bit PCM samples as a canonical WAVE file: a RIFF header, a `fmt ` chunk and
/// a `data` chunk, all little-endian (the Microsoft RIFF/WAVE layout every decoder reads).
/// TagLib later adds its `ID3 ` and `LIST` chunks after these.
package enum WAVWriter {
    /// The bytes of a WAVE file holding `samples` (interleaved when `channels` > 1).
    ///
    /// - Parameters:
    ///   - samples: signed 16-bit PCM.
    ///   - sampleRate: samples per second per channel.
    ///   - channels: 1 for mono.
    package static func data(samples: [Int16], sampleRate: Int, channels: Int = 1) -> Data {
        let bytesPerSample = 2
        let dataSize = samples.count * bytesPerSample
        var bytes = Data(capacity: 44 + dataSize)
        bytes.append(ascii: "RIFF")
        // The RIFF size counts everything after this field: "WAVE", the fmt chunk (8 + 16)
        // and the data chunk (8 + payload).
        bytes.append(littleEndian: UInt32(4 + 24 + 8 + dataSize))
        bytes.append(ascii: "WAVE")
        bytes.append(ascii: "fmt ")
        bytes.append(littleEndian: UInt32(16))
        bytes.append(littleEndian: UInt16(1))  // WAVE_FORMAT_PCM
        bytes.append(littleEndian: UInt16(channels))
        bytes.append(littleEndian: UInt32(sampleRate))
        bytes.append(littleEndian: UInt32(sampleRate * channels * bytesPerSample))  // byte rate
        bytes.append(littleEndian: UInt16(channels * bytesPerSample))  // block align
        bytes.append(littleEndian: UInt16(16))  // bits per sample
        bytes.append(ascii: "data")
        bytes.append(littleEndian: UInt32(dataSize))
        samples.withUnsafeBufferPointer { buffer in
            // Linux and macOS on x86-64 and arm64 are little-endian, as WAVE requires; the
            // conversion keeps big-endian hosts correct too.
            if Int16(littleEndian: 1) == 1 {
                bytes.append(contentsOf: UnsafeRawBufferPointer(buffer))
            } else {
                for sample in buffer { bytes.append(littleEndian: UInt16(bitPattern: sample)) }
            }
        }
        return bytes
    }
}

extension Data {
    /// Appends the ASCII bytes of a chunk identifier.
    package mutating func append(ascii text: StaticString) {
        text.withUTF8Buffer { append($0.baseAddress!, count: $0.count) }
    }

    /// Appends an integer in little-endian byte order.
    package mutating func append<T: FixedWidthInteger>(littleEndian value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
