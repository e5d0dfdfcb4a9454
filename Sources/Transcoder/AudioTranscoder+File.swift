import Foundation
import POSIXFile

extension AudioTranscoder {
    /// Transcodes `input` into the MP3 file `output` in one call (the demo library is
    /// encoded this way), through the same pipeline a station's stream takes.
    ///
    /// The bytes go to a hidden sibling first (`.NAME.part`), renamed to `output` once
    /// whole, so a failure or a crash never leaves a truncated MP3 under the final name.
    /// Blocking, like the streaming API. `gain` multiplies every sample, as for a stream.
    public static func transcode(input: URL, to output: URL, kbps: Int, gain: FrameGain = .unity) throws(TranscodeError) {
        let transcoder = try AudioTranscoder(input: input, kbps: kbps, gain: gain, chunkSize: 256 * 1024)
        let part = output.deletingLastPathComponent()
            .appendingPathComponent("." + output.lastPathComponent + ".part").path
        let descriptor = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: output.path, reason: String(cString: strerror(errno))) }
        var closed = false
        defer {
            if !closed {
                close(descriptor)
                unlink(part)
            }
        }
        while let chunk = try transcoder.nextChunk() {
            let failure = DescriptorWriter.writeAll(chunk, to: descriptor)
            if failure != 0 { throw .cannotWrite(path: output.path, reason: String(cString: strerror(failure))) }
        }
        closed = true
        if close(descriptor) != 0 || rename(part, output.path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(part)
            throw .cannotWrite(path: output.path, reason: reason)
        }
    }
}
