import Foundation
import Testing
import TestSupport
import Transcoder

/// Inputs and outputs that cannot work fail with their `TranscodeError`, before any byte.
@Suite struct TranscodeErrorTests {
    @Test("A missing file cannot be opened, in FFmpeg's words")
    func missing() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let input = directory.path("absent.ogg")
        #expect(throws: TranscodeError.cannotOpen(path: input.path, reason: "No such file or directory")) {
            try AudioTranscoder(input: input, kbps: 128)
        }
    }

    @Test("A text file named .ogg is refused: FFmpeg takes it for Ogg by its name, and finds no page in it")
    func textFile() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let input = directory.path("notes.ogg")
        try Data(String(repeating: "These are not the songs you are looking for.\n", count: 50).utf8).write(to: input)
        #expect(throws: TranscodeError.cannotOpen(path: input.path, reason: "End of file")) {
            try AudioTranscoder(input: input, kbps: 128)
        }
    }

    @Test("A picture has no audio stream")
    func picture() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let input = directory.path("cover.png")
        try MediaTools.picture(at: input)
        #expect(throws: TranscodeError.noAudioStream(path: input.path)) {
            try AudioTranscoder(input: input, kbps: 128)
        }
    }

    @Test("A bit rate MP3 does not have is refused before the input is opened", arguments: [0, 31, 100, 321])
    func bitrate(_ kbps: Int) throws {
        #expect(throws: TranscodeError.unsupportedBitrate(kbps: kbps)) {
            try AudioTranscoder(input: URL(fileURLWithPath: "/nonexistent.ogg"), kbps: kbps)
        }
    }

    @Test("An output in a missing directory cannot be written, and the error says why")
    func unwritable() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let input = directory.path("in.wav")
        try MediaTools.tone(at: input, seconds: 1)
        let output = directory.path("missing/out.mp3")
        #expect(throws: TranscodeError.cannotWrite(path: output.path, reason: "No such file or directory")) {
            try AudioTranscoder.transcode(input: input, to: output, kbps: 128)
        }
        #expect(try directory.contents() == ["in.wav"])
    }
}
