/// What one variant of a live broadcast costs on the wire at most, in bits per second: the
/// `BANDWIDTH` its master playlist declares, which RFC 8216 §4.3.4.2 asks to be at least
/// every segment's size over its length.
///
/// It adds up the bytes of a segment as ``TSSegmentMuxer`` packs ``AACEncoder``'s frames:
///
/// - the audio at ``rateHeadroom`` times the encoder's bit rate (its rate control keeps a
///   segment's frames within a few percent of it: noise, tones and a swept chirp measured
///   at most 1.04 times) and a 7-byte ADTS header per frame;
/// - every 184 bytes of that in a 188-byte packet;
/// - per PES packet a 14-byte header with its PTS, an 8-byte PCR field, and a last packet
///   whose unused bytes are stuffing (184 at most); a PES is flushed when the next frame
///   would take it past `pes_payload_size` (2930 bytes) or it holds half the muxer's
///   delay (0.35 s), and each segment ends one;
/// - one PAT, one PMT and one SDT packet a segment.
///
/// At 2 s segments that is 80, 154 and 229 kbit/s for 64, 128 and 192, some 5–9 % above
/// the dearest segments measured, within the 10 % Apple's HLS authoring guidance asks.
public enum LiveBandwidth {
    /// How far above its bit rate the encoder's audio may run over one segment.
    static let rateHeadroom = 1.05
    /// libavformat's `pes_payload_size` default: the most audio bytes a PES gathers.
    static let pesPayloadSize = 2930.0
    /// A PES header with a PTS (9 + 5 bytes) and the adaptation field of a PCR (8 bytes).
    static let pesOverhead = 22.0
    /// The ADTS header the muxer puts before each raw AAC frame.
    static let adtsHeader = 7.0
    /// The PAT, PMT and SDT at each segment's start.
    static let tablePackets = 3.0

    /// The peak bit rate of the variant at `kbps` cut into segments of `segmentSeconds`.
    public static func peak(kbps: Int, segmentSeconds: Double) -> Int {
        bound(kbps: kbps, segmentSeconds: segmentSeconds, headroom: rateHeadroom)
    }

    /// An upper bound of the variant's average bit rate (`AVERAGE-BANDWIDTH`): the same
    /// sum with the audio at the encoder's bit rate, which it keeps on average.
    public static func average(kbps: Int, segmentSeconds: Double) -> Int {
        bound(kbps: kbps, segmentSeconds: segmentSeconds, headroom: 1)
    }

    /// A segment's bytes over its length with the audio at `headroom` times its bit rate.
    private static func bound(kbps: Int, segmentSeconds: Double, headroom: Double) -> Int {
        let frames = Double(LiveEncoder.sampleRate) / 1024
        // Audio bytes a second, ADTS headers included, and a frame's at that rate.
        let payload = Double(kbps) * 125 * headroom + adtsHeader * frames
        let frame = payload / frames
        let seconds = segmentSeconds.isFinite ? max(segmentSeconds, 0.1) : 0.1
        // A PES closes with more than `pesPayloadSize - frame` bytes, or after half the
        // muxer's delay; the segment's end closes one more.
        let delay = Double(TSSegmentMuxer.maximumDelay) / 1_000_000 / 2
        let pes = (seconds * max(payload / (pesPayloadSize - frame), 1 / delay)).rounded(.up) + 1
        let packetized = (payload * seconds + pes * pesOverhead) * 188 / 184
        let bytes = packetized + pes * 184 + tablePackets * 188
        let rate = (bytes * 8 / seconds).rounded(.up)
        return rate.isFinite && rate < Double(Int.max) ? Int(rate) : Int.max
    }
}
