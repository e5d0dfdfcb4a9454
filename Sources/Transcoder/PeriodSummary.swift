import CFFmpeg

/// What deciding a join needs of one period: its audio's codec, sample rate and channels,
/// and where its timestamps start and end (read from every packet: demuxing only).
struct PeriodSummary {
    /// The audio codec.
    let codec: AVCodecID
    /// Samples per second.
    let sampleRate: Int32
    /// Channels.
    let channels: Int32
    /// The time base of `start` and `end`.
    let timeBase: AVRational
    /// The first packet's timestamp; nil when no packet has one.
    let start: Int64?
    /// Where the last packet ends (its timestamp plus its duration); nil when no packet
    /// has a timestamp.
    let end: Int64?

    /// Reads `input`'s audio packets to their end.
    init(_ input: PeriodInput) throws(TranscodeError) {
        let parameters = input.parameters.pointee
        codec = parameters.codec_id
        sampleRate = parameters.sample_rate
        channels = parameters.ch_layout.nb_channels
        timeBase = input.timeBase
        let none = cffmpeg_nopts_value()
        var start: Int64?, end: Int64?
        while let packet = try input.nextPacket() {
            let pts = packet.pointee.pts
            guard pts != none else { continue }
            if start == nil { start = pts }
            end = max(end ?? pts, pts + max(0, packet.pointee.duration))
        }
        self.start = start
        self.end = end
    }

    /// Whether the decoder of `other`'s audio decodes this period's as it is.
    func sameCodec(as other: PeriodSummary) -> Bool {
        codec == other.codec && sampleRate == other.sampleRate && channels == other.channels
    }

    /// Whether this period goes on from `previous` as one stream with `first`: the first
    /// period's codec, and a first timestamp where `previous` ended.
    func continues(_ previous: PeriodSummary, first: PeriodSummary) -> Bool {
        guard sameCodec(as: first), let start, let end = previous.end else { return false }
        let gap = Self.seconds(start, timeBase) - Self.seconds(end, previous.timeBase)
        return abs(gap) <= PeriodJoiner.tolerance
    }

    private static func seconds(_ value: Int64, _ base: AVRational) -> Double {
        Double(value) * Double(base.num) / Double(base.den)
    }
}
