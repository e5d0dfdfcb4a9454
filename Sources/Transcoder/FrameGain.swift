import CFFmpeg
import Foundation

/// A constant gain applied to audio on its way to an encoder: what brings a song to a
/// station's level before it is encoded. The number comes from whoever levels (the
/// Transcoder knows nothing of loudness); this only multiplies.
///
/// No limiter: whoever chose the gain capped it so the song's true peak stays below the
/// ceiling it wants, so samples past full scale are not expected. Where the output is
/// 16-bit one would wrap around, so those are clamped; float samples pass full scale as
/// they are (the encoder takes them).
public struct FrameGain: Sendable, Equatable {
    /// The gain in dB (0 for ``unity``).
    public let decibels: Double
    /// The linear factor each sample is multiplied by: `10^(dB/20)`.
    public let factor: Float

    /// The gains taken: beyond them a number is a bug, not a level (200 dB would turn any
    /// noise into full scale).
    public static let range: ClosedRange<Double> = -60...60

    /// No change: the samples pass untouched (the output is the same, byte for byte, as
    /// without a gain).
    public static let unity = FrameGain(decibels: 0)

    /// A gain of `decibels`, held within ``range``; a number that is not finite is no gain.
    public init(decibels: Double) {
        let held = decibels.isFinite ? min(max(decibels, Self.range.lowerBound), Self.range.upperBound) : 0
        self.decibels = held
        factor = Float(pow(10, held / 20))
    }

    /// Whether the samples pass untouched.
    public var isUnity: Bool { factor == 1 }

    /// Whether ``apply(to:samples:channels:format:)`` can scale samples of `format`: the
    /// float and 16-bit formats, planar or packed (what the station's encoders take).
    static func applies(to format: AVSampleFormat) -> Bool {
        [AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S16].contains(format)
    }

    /// Multiplies `samples` samples per channel in `planes` (an `AVFrame`'s `extended_data`:
    /// one plane per channel for a planar format, one interleaved plane otherwise) by
    /// ``factor``, in place. Does nothing for unity or a format ``applies(to:)`` refuses.
    func apply(to planes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, samples: Int, channels: Int,
               format: AVSampleFormat) {
        guard !isUnity, let planes, samples > 0, channels > 0 else { return }
        let planar = format == AV_SAMPLE_FMT_FLTP || format == AV_SAMPLE_FMT_S16P
        let planeCount = planar ? channels : 1
        let perPlane = planar ? samples : samples * channels
        for index in 0..<planeCount {
            guard let plane = planes[index] else { continue }
            switch format {
            case AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT:
                scale(UnsafeMutableRawPointer(plane).bindMemory(to: Float.self, capacity: perPlane), count: perPlane)
            case AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S16:
                scale(UnsafeMutableRawPointer(plane).bindMemory(to: Int16.self, capacity: perPlane), count: perPlane)
            default:
                return
            }
        }
    }

    /// One plane of float samples (a loop the compiler vectorises).
    func scale(_ values: UnsafeMutablePointer<Float>, count: Int) {
        let factor = self.factor
        for index in 0..<count { values[index] *= factor }
    }

    /// One plane of 16-bit samples, rounded and clamped to the format's range.
    func scale(_ values: UnsafeMutablePointer<Int16>, count: Int) {
        let factor = self.factor
        for index in 0..<count {
            let scaled = (Float(values[index]) * factor).rounded()
            values[index] = Int16(min(max(scaled, Float(Int16.min)), Float(Int16.max)))
        }
    }
}
