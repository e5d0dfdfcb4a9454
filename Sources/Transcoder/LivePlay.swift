import CFFmpeg

/// One song as ``LiveMixer`` plays it: its decoder until the file ends, its own converter
/// to the broadcast's format (so a song's samples wait in a FIFO of their own while another
/// song's are heard, as during a crossfade), which applies its gain (``FrameGain``). Not
/// `Sendable`: the broadcast's thread owns it.
final class LivePlay {
    /// The song as the source gave it.
    let input: LiveInput
    /// Its length from where playing starts, in the broadcast's samples, as the file
    /// declares it; `nil` when it does not.
    let declaredSamples: Int64?
    /// A vote to end it came while it was fading in: it is ended once the fade is over.
    var endRequested = false
    private var decoder: AudioDecoder?
    private let converter: SampleConverter
    /// How many samples it may still play once ended short (``stop(keeping:)``); `nil` for
    /// all it has.
    private var cap: Int64?

    /// Opens `input` and seeks to where playing starts (a seek the file does not allow
    /// plays it from its start).
    init(_ input: LiveInput, format: OutputFormat) throws(TranscodeError) {
        let decoder = try AudioDecoder(path: input.file.path)
        var skipped = 0.0
        if let seconds = input.seekSeconds, decoder.seek(toSeconds: seconds) { skipped = seconds }
        self.input = input
        self.decoder = decoder
        converter = try SampleConverter(output: format, gain: FrameGain(decibels: input.gain))
        // Declared by the file: a length within a year is taken, anything else is not known.
        if let declared = decoder.declaredDuration, declared > skipped, declared < 365 * 86400 {
            declaredSamples = Int64(((declared - skipped) * Double(format.sampleRate)).rounded())
        } else {
            declaredSamples = nil
        }
    }

    /// Whether it was ended short (``stop(keeping:)`` with a limit).
    var isCut: Bool { cap != nil }

    /// Whether its file is decoded to its end: all it will play waits in its FIFO.
    var ended: Bool { decoder == nil }

    /// What it has left to play, once ``ended``; `nil` while it is decoded.
    var remaining: Int64? {
        guard ended else { return nil }
        let available = Int64(converter.available)
        return cap.map { min($0, available) } ?? available
    }

    /// Decodes until `count` samples wait in its FIFO or its file ends; a file that breaks
    /// off mid-way ends there.
    func pump(to count: Int64) throws(TranscodeError) {
        while let decoder, Int64(converter.available) < count {
            let converter = self.converter
            let more: Bool
            do throws(TranscodeError) {
                more = try decoder.step { (frame) throws(TranscodeError) in try converter.push(frame) }
            } catch {
                more = false
            }
            if !more { try stop(keeping: nil) }
        }
    }

    /// Stops decoding: what waits in its FIFO (the resampler's delay drained into it) is
    /// all it plays, or at most `limit` samples of it.
    func stop(keeping limit: Int64?) throws(TranscodeError) {
        if decoder != nil {
            decoder = nil
            try converter.endInput()
        }
        if let limit { cap = min(cap ?? limit, max(0, limit)) }
    }

    /// Moves its next `count` samples into `frame`'s planes (which hold that many), zeros
    /// where it has none left.
    func read(into frame: UnsafeMutablePointer<AVFrame>, count: Int32) throws(TranscodeError) {
        var wanted = count
        if let cap { wanted = Int32(clamping: min(Int64(count), max(0, cap))) }
        let read = wanted > 0 ? try converter.read(into: frame, count: wanted) : 0
        if let cap { self.cap = cap - Int64(read) }
        if read < count {
            for channel in 0..<Int(converter.output.channels) {
                guard let plane = frame.pointee.extended_data[channel] else { continue }
                UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
                    .advanced(by: Int(read)).update(repeating: 0, count: Int(count - read))
            }
        }
    }
}
