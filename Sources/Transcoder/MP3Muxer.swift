import CFFmpeg

/// libavformat's `mp3` muxer writing into memory (a ``MuxerContext`` whose sink appends to
/// a byte buffer the transcoder hands out in chunks), every packet pushed through as soon
/// as it is written. Nothing is ever written twice: the output has no seek callback, and
/// the Xing/LAME header, which the muxer would go back to fill in at the trailer, is off
/// (`write_xing` 0). Each byte handed out is final.
final class MP3Muxer {
    /// The tags copied from the input: the ones a player shows, and the genre and track
    /// number a library sorts by. The muxer's ID3v2.4 writer maps them to TIT2, TPE1, TALB,
    /// TDRC, TCON and TRCK.
    static let copiedTags = ["title", "artist", "album", "date", "genre", "track"]
    /// The AVIOContext's buffer; each packet is flushed out of it at once anyway.
    private static let ioBufferSize: Int32 = 32 * 1024

    private let output: MuxerContext
    private let sink = ByteSink()
    private let encoderTimeBase: AVRational

    /// Sets up the muxer for `encoder`'s stream with `tags`, and writes the header (the
    /// ID3v2 tag), so the first chunk carries the tags.
    init(encoder: EncoderContext, tags: [(key: String, value: String)]) throws(TranscodeError) {
        encoderTimeBase = encoder.timeBase
        let sink = self.sink
        let timeBase = encoderTimeBase
        output = try MuxerContext(muxer: "mp3", bufferSize: Self.ioBufferSize, flushesEachPacket: true,
                                  options: [("write_xing", "0")]) { bytes in
            sink.bytes.append(contentsOf: bytes)
            return 0
        } describe: { (context, stream) throws(TranscodeError) in
            for (key, value) in tags { mhz_av_dict_set(&context.pointee.metadata, key, value, 0) }
            try encoder.copyParameters(to: stream.pointee.codecpar)
            stream.pointee.time_base = timeBase
        }
    }

    /// Bytes written and not yet taken.
    var pending: Int { sink.bytes.count }

    /// Bytes written since the start, the ID3v2 tag included.
    var written: Int { sink.taken + sink.bytes.count }

    /// Hands out everything written so far.
    func take() -> [UInt8] {
        defer {
            sink.taken += sink.bytes.count
            sink.bytes.removeAll(keepingCapacity: true)
        }
        return sink.bytes
    }

    /// Writes one encoded packet (its timestamps in the encoder's time base) and pushes it
    /// out at once.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(TranscodeError) {
        try output.write(packet, from: encoderTimeBase)
    }

    /// Writes the trailer (no ID3v1, no Xing header: nothing goes back) and flushes.
    func finish() throws(TranscodeError) {
        try output.writeTrailer()
    }
}

/// Where the output's sink puts the bytes.
private final class ByteSink {
    var bytes: [UInt8] = []
    /// Bytes handed out before those in `bytes`.
    var taken = 0
}
