import Foundation

/// Reads the PCM of a 16-bit WAVE file by walking its RIFF chunks (TagLib adds `ID3 ` and
/// `LIST` chunks, so the data chunk is not found at a fixed offset).
struct WAVFile {
    /// Samples per second.
    var sampleRate: Int
    /// Channel count.
    var channels: Int
    /// Bits per sample.
    var bitsPerSample: Int
    /// The samples, interleaved.
    var samples: [Int16]

    /// Parses a file.
    init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        func u32(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 | Int(data[at + 2]) << 16 | Int(data[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
        func id(_ at: Int) -> String { String(decoding: data[at..<at + 4], as: UTF8.self) }
        guard data.count >= 12, id(0) == "RIFF", id(8) == "WAVE" else { throw WAVError.notWAVE }
        var offset = 12
        var format: (rate: Int, channels: Int, bits: Int)?
        var pcm: [Int16]?
        while offset + 8 <= data.count {
            let size = u32(offset + 4)
            let body = offset + 8
            switch id(offset) {
            case "fmt ": format = (u32(body + 4), u16(body + 2), u16(body + 14))
            case "data":
                let end = min(body + size, data.count)
                pcm = stride(from: body, to: end - 1, by: 2).map { Int16(bitPattern: UInt16(u16($0))) }
            default: break
            }
            offset = body + size + (size & 1)  // chunks are word-aligned
        }
        guard let format, let pcm else { throw WAVError.missingChunk }
        sampleRate = format.rate
        channels = format.channels
        bitsPerSample = format.bits
        samples = pcm
    }

    /// Length in seconds.
    var seconds: Double { Double(samples.count) / Double(sampleRate * channels) }

    /// Root mean square level as a fraction of full scale.
    var rms: Double {
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(max(1, samples.count))).squareRoot() / 32768
    }

    /// Zero crossings per second in consecutive windows: a crude pitch contour. One steady
    /// sine gives the same number in every window; a melody does not.
    func crossingRates(window seconds: Double) -> [Int] {
        let size = Int(Double(sampleRate) * seconds)
        return stride(from: 0, to: samples.count - size, by: size).map { start in
            var count = 0
            for index in (start + 1)..<(start + size) where (samples[index - 1] < 0) != (samples[index] < 0) {
                count += 1
            }
            return Int((Double(count) / seconds).rounded())
        }
    }
}

enum WAVError: Error {
    case notWAVE
    case missingChunk
}
