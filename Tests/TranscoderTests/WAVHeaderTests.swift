import Foundation
import Testing
@testable import Transcoder

/// The one WAVE header mhz writes, for the demo library's songs and for the recording of
/// `--audio-output pcm`.
@Suite("WAV header")
struct WAVHeaderTests {
    @Test("the recording's header: 44 bytes, stereo 16-bit at 44.1 kHz, mpv's stream length")
    func recordingHeader() {
        let bytes = WAVHeader.bytes(sampleRate: 44_100, channels: 2, bitsPerSample: 16, dataLength: 0x7fff_f000)
        let expected: [UInt8] = Array("RIFF".utf8) + [0x24, 0xF0, 0xFF, 0x7F] + Array("WAVEfmt ".utf8)
            + [16, 0, 0, 0, 1, 0, 2, 0, 0x44, 0xAC, 0, 0, 0x10, 0xB1, 0x02, 0, 4, 0, 16, 0]
            + Array("data".utf8) + [0x00, 0xF0, 0xFF, 0x7F]
        #expect(Array(bytes) == expected)
        #expect(bytes.count == WAVHeader.length)
    }

    @Test("a mono header counts its samples; a data length at the format's limit saturates the RIFF size")
    func sizes() {
        let mono = Array(WAVHeader.bytes(sampleRate: 22_050, channels: 1, bitsPerSample: 16, dataLength: 1_000))
        #expect(mono[4..<8] == [0x0C, 0x04, 0, 0])  // 36 + 1000
        #expect(mono[22..<24] == [1, 0] && mono[28..<32] == [0x44, 0xAC, 0, 0] && mono[32..<34] == [2, 0])
        #expect(mono[40..<44] == [0xE8, 0x03, 0, 0])
        let huge = Array(WAVHeader.bytes(sampleRate: 44_100, channels: 2, bitsPerSample: 16, dataLength: .max - 10))
        #expect(huge[4..<8] == [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(huge[40..<44] == [0xF5, 0xFF, 0xFF, 0xFF])
    }
}
