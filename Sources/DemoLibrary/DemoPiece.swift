/// The recipe of one demo track: its tags, and the musical choices the composer and the
/// synthesizer follow (scale, key, tempo, metre, sounds, accompaniment), plus a seed for
/// the melody itself. Fixed in source, so every machine synthesizes the same demo library.
package struct DemoPiece: Sendable {
    /// Title tag.
    package var title: String
    /// Artist tag; also the first folder of the file's path.
    package var artist: String
    /// Album tag; also the second folder of the file's path.
    package var album: String
    /// Genre tag: the demo's channels.
    package var genre: String
    /// Year tag.
    package var year: Int
    /// Seeds the melody, rhythm and chord choices.
    package var seed: UInt64
    /// The scale as semitones above the tonic within one octave.
    package var scale: [Int]
    /// The MIDI note number of the melody's tonic (60 = middle C).
    package var tonic: Int
    /// Beats per minute.
    package var tempo: Double
    /// Beats per bar: 4, or 3 for a waltz.
    package var beatsPerBar: Int
    /// Roughly how long the piece should last; the composer rounds to whole phrases and
    /// keeps the result within 20–60 s.
    package var targetSeconds: Double
    /// The melody's sound.
    package var lead: Timbre
    /// The bass line's sound.
    package var bass: Timbre
    /// How the bass line moves.
    package var bassPattern: BassPattern
    /// Whether a noise hi-hat ticks on every half beat.
    package var hiHat: Bool
    /// Feedback of a three-quarter-beat echo, `0` for none.
    package var echo: Double

    /// The file's path below the demo library folder, in the `Artist/Album/NN Title.mp3`
    /// layout the scanner also understands without tags.
    package var relativePath: String {
        "\(artist)/\(album)/01 \(title).mp3"
    }

    /// Scales, as semitones above the tonic.
    package enum Scales {
        /// Do re mi sol la: no semitone steps, so any two notes sound well together.
        static let majorPentatonic = [0, 2, 4, 7, 9]
        /// La do re mi sol: the same notes in a darker order.
        static let minorPentatonic = [0, 3, 5, 7, 10]
        /// The major (Ionian) scale.
        static let major = [0, 2, 4, 5, 7, 9, 11]
        /// The Dorian mode: minor with a bright sixth.
        static let dorian = [0, 2, 3, 5, 7, 9, 10]
    }

    /// The bass line's movement within a bar.
    package enum BassPattern: Sendable {
        /// The chord's root held for the whole bar.
        case whole
        /// Root for the first half of the bar, fifth for the rest.
        case rootFifth
        /// One note per beat: root, octave, root, fifth, …
        case pulse
    }

    /// How a voice sounds: the strength of its partials and its amplitude envelope.
    package struct Timbre: Sendable {
        /// Amplitude of partial 1, 2, 3, … relative to the fundamental.
        var harmonics: [Double]
        /// Seconds from silence to full level.
        var attack: Double
        /// Seconds from full level down to ``sustain``.
        var decay: Double
        /// Level held while the note lasts, 0…1.
        var sustain: Double
        /// Seconds from the note's end to silence.
        var release: Double
        /// When set, the note dies away exponentially with this time constant (seconds)
        /// instead of holding ``sustain``: a plucked string.
        var pluck: Double?

        /// A soft, round pad: fundamental plus a little octave and twelfth.
        static let pad = Timbre(harmonics: [1, 0.35, 0.12], attack: 0.25, decay: 0.4, sustain: 0.75, release: 0.8)
        /// A glassy bell-like lead with a quick attack and a long tail.
        static let glass = Timbre(harmonics: [1, 0, 0.45, 0, 0.2, 0, 0.1], attack: 0.01, decay: 0.6,
                                  sustain: 0.35, release: 0.9)
        /// A square wave (odd partials only): the sound of 8-bit consoles.
        static let square = Timbre(harmonics: [1, 0, 1.0 / 3, 0, 1.0 / 5, 0, 1.0 / 7], attack: 0.005,
                                   decay: 0.05, sustain: 0.7, release: 0.03)
        /// A bright sawtooth-like lead (all partials, falling off as 1/n).
        static let saw = Timbre(harmonics: [1, 0.5, 1.0 / 3, 0.25, 0.2, 1.0 / 6], attack: 0.008, decay: 0.08,
                                sustain: 0.6, release: 0.05)
        /// A plucked string: many partials, dying away.
        static let pluckedString = Timbre(harmonics: [1, 0.6, 0.4, 0.25, 0.15, 0.08], attack: 0.004, decay: 0,
                                          sustain: 1, release: 0.12, pluck: 0.45)
        /// A warm, round bass.
        static let roundBass = Timbre(harmonics: [1, 0.4, 0.1], attack: 0.02, decay: 0.2, sustain: 0.8,
                                      release: 0.15)
        /// A buzzy pulse bass for the chiptune pieces.
        static let pulseBass = Timbre(harmonics: [1, 0.7, 0.5, 0.35, 0.25], attack: 0.004, decay: 0.05,
                                      sustain: 0.8, release: 0.02)
        /// A plucked upright-style bass.
        static let pluckedBass = Timbre(harmonics: [1, 0.5, 0.2], attack: 0.006, decay: 0, sustain: 1,
                                        release: 0.1, pluck: 0.6)
    }
}
