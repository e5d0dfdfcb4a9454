import CAubio

/// aubio's half of one track's analysis: the objects that read each hop of samples (a
/// phase vocoder for the magnitude spectrum, spectral descriptors, MFCCs, a beat tracker
/// and an onset detector) and the buffers they share. One per track, made fresh, so a file
/// analysed twice gives the same numbers; freed in `deinit`.
///
/// aubio's objects keep state from hop to hop (the vocoder's overlap, the flux's last
/// spectrum, the beat tracker's history): hops must come in order, each one ``hopSize``
/// samples. Not `Sendable`: one thread at a time.
final class AubioFrames {
    /// Samples per analysis window: the FFT's length.
    static let windowSize = 1024
    /// Samples between two windows.
    static let hopSize = 512
    /// MFCC coefficients kept.
    static let coefficientCount = 13
    /// Mel bands the MFCCs are computed from (aubio's Slaney filter bank has 40).
    static let bandCount = 40

    /// The sample rate the hops are at.
    let sampleRate: Int
    /// The bins of each magnitude spectrum: `windowSize / 2 + 1`.
    let binCount = windowSize / 2 + 1

    private let input: UnsafeMutablePointer<fvec_t>
    private let spectrum: UnsafeMutablePointer<cvec_t>
    private let descriptor: UnsafeMutablePointer<fvec_t>
    private let coefficients: UnsafeMutablePointer<fvec_t>
    private let beat: UnsafeMutablePointer<fvec_t>
    private let onset: UnsafeMutablePointer<fvec_t>
    private let vocoder: OpaquePointer
    private let centroidDescriptor: OpaquePointer
    private let rolloffDescriptor: OpaquePointer
    private let fluxDescriptor: OpaquePointer
    private let mfcc: OpaquePointer
    private let tempo: OpaquePointer
    private let onsets: OpaquePointer

    /// Sets up the objects for hops at `sampleRate`.
    ///
    /// - Throws: `.unavailable` when aubio cannot be loaded or refuses a setting (a NULL
    ///   object; aubio's own words are silenced, see CAubio.h).
    init(sampleRate: Int) throws(SoundAnalysisError) {
        guard mhz_aubio_available() != 0 else {
            throw .unavailable(reason: String(cString: mhz_aubio_load_error()))
        }
        self.sampleRate = sampleRate
        let window = UInt32(Self.windowSize), hop = UInt32(Self.hopSize), rate = UInt32(sampleRate)
        // Made in one go and checked together: a partial set is freed by the owners below.
        let buffers = (mhz_new_fvec(hop), mhz_new_cvec(window), mhz_new_fvec(1),
                       mhz_new_fvec(UInt32(Self.coefficientCount)), mhz_new_fvec(2), mhz_new_fvec(1))
        let objects = (mhz_new_aubio_pvoc(window, hop), mhz_new_aubio_specdesc("centroid", window),
                       mhz_new_aubio_specdesc("rolloff", window), mhz_new_aubio_specdesc("specflux", window),
                       mhz_new_aubio_mfcc(window, UInt32(Self.bandCount), UInt32(Self.coefficientCount), rate),
                       mhz_new_aubio_tempo("default", window, hop, rate),
                       mhz_new_aubio_onset("default", window, hop, rate))
        guard let input = buffers.0, let spectrum = buffers.1, let descriptor = buffers.2,
              let coefficients = buffers.3, let beat = buffers.4, let onset = buffers.5,
              let vocoder = objects.0, let centroid = objects.1, let rolloff = objects.2, let flux = objects.3,
              let mfcc = objects.4, let tempo = objects.5, let onsets = objects.6
        else {
            mhz_del_fvec(buffers.0); mhz_del_cvec(buffers.1); mhz_del_fvec(buffers.2)
            mhz_del_fvec(buffers.3); mhz_del_fvec(buffers.4); mhz_del_fvec(buffers.5)
            mhz_del_aubio_pvoc(objects.0); mhz_del_aubio_specdesc(objects.1); mhz_del_aubio_specdesc(objects.2)
            mhz_del_aubio_specdesc(objects.3); mhz_del_aubio_mfcc(objects.4); mhz_del_aubio_tempo(objects.5)
            mhz_del_aubio_onset(objects.6)
            throw .unavailable(reason: "aubio could not set up its analysis")
        }
        (self.input, self.spectrum, self.descriptor, self.coefficients, self.beat, self.onset)
            = (input, spectrum, descriptor, coefficients, beat, onset)
        (self.vocoder, centroidDescriptor, rolloffDescriptor, fluxDescriptor, self.mfcc, self.tempo, self.onsets)
            = (vocoder, centroid, rolloff, flux, mfcc, tempo, onsets)
        mhz_aubio_objects_made()
    }

    deinit {
        mhz_del_aubio_onset(onsets)
        mhz_del_aubio_tempo(tempo)
        mhz_del_aubio_mfcc(mfcc)
        mhz_del_aubio_specdesc(fluxDescriptor)
        mhz_del_aubio_specdesc(rolloffDescriptor)
        mhz_del_aubio_specdesc(centroidDescriptor)
        mhz_del_aubio_pvoc(vocoder)
        mhz_del_fvec(onset)
        mhz_del_fvec(beat)
        mhz_del_fvec(coefficients)
        mhz_del_fvec(descriptor)
        mhz_del_cvec(spectrum)
        mhz_del_fvec(input)
    }

    /// What aubio read from one hop.
    struct Hop {
        /// Mean square of the samples (`aubio_level_lin`).
        var power: Float
        /// Zero crossings per sample (`aubio_zero_crossing_rate`).
        var zeroCrossings: Float
        /// Whether the beat tracker placed a beat in this hop.
        var isBeat: Bool
        /// The beat tracker's tempo estimate (bpm) now.
        var tempo: Float
        /// Whether the onset detector found an onset in this hop.
        var isOnset: Bool
    }

    /// Feeds the next ``hopSize`` samples to every object.
    func process(_ samples: UnsafePointer<Float>) -> Hop {
        input.pointee.data.update(from: samples, count: Self.hopSize)
        mhz_aubio_pvoc_do(vocoder, input, spectrum)
        mhz_aubio_tempo_do(tempo, input, beat)
        mhz_aubio_onset_do(onsets, input, onset)
        let isBeat = beat.pointee.data[0] != 0
        return Hop(power: mhz_aubio_level_lin(input), zeroCrossings: mhz_aubio_zero_crossing_rate(input),
                   isBeat: isBeat, tempo: isBeat ? mhz_aubio_tempo_get_bpm(tempo) : 0,
                   isOnset: onset.pointee.data[0] != 0)
    }

    /// The magnitude spectrum of the last hop's window (``binCount`` values).
    var magnitudes: UnsafePointer<Float> { UnsafePointer(spectrum.pointee.norm) }

    /// The spectral centroid of the last window, in Hz.
    func centroid() -> Float { describe(centroidDescriptor) * binWidth }

    /// The frequency below which 95 % of the last window's energy lies, in Hz.
    func rolloff() -> Float { describe(rolloffDescriptor) * binWidth }

    /// The magnitude the last window gained over the one before, summed over the bins
    /// (aubio's `specflux`). Keeps the window for the next call: call it for every hop.
    func flux() -> Float { describe(fluxDescriptor) }

    /// The last window's MFCCs (``coefficientCount`` values, valid until the next call).
    func cepstrum() -> UnsafePointer<Float> {
        mhz_aubio_mfcc_do(mfcc, spectrum, coefficients)
        return UnsafePointer(coefficients.pointee.data)
    }

    /// Hz per bin: aubio's centroid and roll-off are bin numbers.
    private var binWidth: Float { Float(sampleRate) / Float(Self.windowSize) }

    private func describe(_ descriptor: OpaquePointer) -> Float {
        mhz_aubio_specdesc_do(descriptor, spectrum, self.descriptor)
        return self.descriptor.pointee.data[0]
    }
}
