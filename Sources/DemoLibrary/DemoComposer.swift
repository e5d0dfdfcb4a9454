import SeededRandom

/// Writes the score of a demo piece: a chord progression, a melody built from four-bar
/// phrases (A A' B A, the shape of countless folk and pop tunes), a bass line on the chord
/// roots and, for some pieces, a hi-hat. Deterministic: the piece's seed decides every
/// choice.
///
/// The melody walks the scale mostly by steps and lands on a chord tone at each bar's
/// first beat, which is what makes a random line sound like a tune rather than noise.
package struct DemoComposer {
    /// One note: when it starts and how long it lasts (in beats), which MIDI pitch, how loud.
    package struct Note: Sendable, Equatable {
        /// Start, in beats from the beginning.
        var start: Double
        /// Length in beats.
        var length: Double
        /// MIDI note number.
        var pitch: Int
        /// Loudness, 0…1.
        var velocity: Double
    }

    /// A finished score.
    package struct Score: Sendable, Equatable {
        /// The melody.
        var lead: [Note]
        /// The bass line.
        var bass: [Note]
        /// Beat positions of hi-hat ticks.
        var hiHats: [Double]
        /// Length of the music in beats (the last notes' release rings on past it).
        var beats: Double
    }

    /// Chord progressions as scale-degree roots, one chord per bar.
    private static let progressions: [[Int]] = [[0, 4, 5, 3], [0, 3, 4, 0], [0, 5, 3, 4], [5, 3, 0, 4], [0, 2, 3, 4]]
    /// Bar rhythms (note lengths in beats) for 4/4 and 3/4.
    private static let rhythms: [Int: [[Double]]] = [
        4: [[1, 1, 1, 1], [2, 1, 1], [1, 1, 2], [0.5, 0.5, 1, 2], [1.5, 0.5, 1, 1], [0.5, 0.5, 0.5, 0.5, 1, 1], [3, 1]],
        3: [[1, 1, 1], [2, 1], [1, 2], [0.5, 0.5, 1, 1], [1.5, 0.5, 1], [3]],
    ]

    private let piece: DemoPiece
    private var random: SplitMix64

    /// Prepares to compose `piece`.
    package init(piece: DemoPiece) {
        self.piece = piece
        random = SplitMix64(seed: piece.seed)
    }

    /// The number of bars: whole four-bar phrases, as close to the target length as the
    /// 20–60 s bounds allow.
    package static func barCount(for piece: DemoPiece) -> Int {
        let barSeconds = Double(piece.beatsPerBar) * 60 / piece.tempo
        // The release tail after the last bar adds about a second.
        var bars = max(4, Int((piece.targetSeconds / barSeconds / 4).rounded()) * 4)
        while Double(bars) * barSeconds + 1.5 > 58 { bars -= 4 }
        while Double(bars) * barSeconds < 21 { bars += 4 }
        return bars
    }

    /// Composes the score.
    package mutating func compose() -> Score {
        let beatsPerBar = piece.beatsPerBar
        let bars = Self.barCount(for: piece)
        let progression = random.pick(Self.progressions)
        let phraseA = melodyPhrase(progression: progression, startDegree: piece.scale.count)
        var phraseA2 = phraseA
        phraseA2[3] = melodyBar(chord: progression[3], position: degreeOfLastNote(phraseA[2]) ?? piece.scale.count)
        // The B phrase starts an octave up, for contrast.
        let phraseB = melodyPhrase(progression: progression.reversed(), startDegree: piece.scale.count * 2)
        let form = [phraseA, phraseA2, phraseB, phraseA]

        var lead: [Note] = []
        var bass: [Note] = []
        for bar in 0..<bars {
            let barStart = Double(bar * beatsPerBar)
            let chord = (bar / 4) % 4 == 2 ? Array(progression.reversed())[bar % 4] : progression[bar % 4]
            let isLastBar = bar == bars - 1
            if isLastBar {
                // End on the tonic, held for the whole bar.
                lead.append(Note(start: barStart, length: Double(beatsPerBar), pitch: pitch(degree: piece.scale.count),
                                 velocity: 0.9))
            } else {
                for note in form[(bar / 4) % 4][bar % 4] {
                    lead.append(Note(start: barStart + note.start, length: note.length, pitch: note.pitch,
                                     velocity: note.velocity))
                }
            }
            bass += bassBar(chord: isLastBar ? 0 : chord, start: barStart)
        }
        let beats = Double(bars * beatsPerBar)
        let hiHats = piece.hiHat ? stride(from: 0.0, to: beats, by: 0.5).map { $0 } : []
        return Score(lead: lead, bass: bass, hiHats: hiHats, beats: beats)
    }

    // MARK: - Melody

    /// Four bars of melody over the progression; note starts are relative to each bar.
    private mutating func melodyPhrase(progression: [Int], startDegree: Int) -> [[Note]] {
        var position = startDegree
        var bars: [[Note]] = []
        for chord in progression {
            let bar = melodyBar(chord: chord, position: position)
            position = degreeOfLastNote(bar) ?? position
            bars.append(bar)
        }
        return bars
    }

    /// One bar: a rhythm, the first note on a chord tone near `position`, then steps.
    private mutating func melodyBar(chord: Int, position start: Int) -> [Note] {
        let rhythm = random.pick(Self.rhythms[piece.beatsPerBar] ?? Self.rhythms[4]!)
        let count = piece.scale.count
        let range = (count - 2)...(count * 2 + 2)
        var position = start
        var beat = 0.0
        var notes: [Note] = []
        for (index, length) in rhythm.enumerated() {
            if index == 0 {
                let tones = [chord, chord + 2, chord + 4].flatMap { [$0, $0 + count, $0 + 2 * count] }
                position = tones.filter { range.contains($0) }.min { abs($0 - position) < abs($1 - position) } ?? position
            } else {
                position = min(max(position + random.pick([-2, -1, -1, 1, 1, 2, 0, 3]), range.lowerBound), range.upperBound)
            }
            // An occasional rest inside the bar lets the tune breathe; never on the downbeat.
            let rests = index > 0 && random.index(below: 10) == 0
            if !rests {
                let accent = index == 0 ? 0.95 : 0.75
                notes.append(Note(start: beat, length: length, pitch: pitch(degree: position), velocity: accent))
            }
            beat += length
        }
        return notes
    }

    private func degreeOfLastNote(_ bar: [Note]) -> Int? {
        guard let last = bar.last else { return nil }
        let count = piece.scale.count
        return (0..<(count * 3)).min { abs(pitch(degree: $0) - last.pitch) < abs(pitch(degree: $1) - last.pitch) }
    }

    /// The MIDI pitch of a scale degree counted from one octave below the tonic.
    private func pitch(degree: Int) -> Int {
        let count = piece.scale.count
        let octave = degree >= 0 ? degree / count : (degree - count + 1) / count
        let step = degree - octave * count
        return piece.tonic - 12 + 12 * octave + piece.scale[step]
    }

    // MARK: - Bass

    private func bassBar(chord: Int, start: Double) -> [Note] {
        let root = pitch(degree: chord) - 12
        let fifth = root + 7
        let beats = Double(piece.beatsPerBar)
        switch piece.bassPattern {
        case .whole:
            return [Note(start: start, length: beats, pitch: root, velocity: 0.8)]
        case .rootFifth:
            let half = (beats / 2).rounded(.down)
            return [Note(start: start, length: half, pitch: root, velocity: 0.85),
                    Note(start: start + half, length: beats - half, pitch: fifth, velocity: 0.7)]
        case .pulse:
            let cycle = [root, root + 12, root, fifth]
            return (0..<piece.beatsPerBar).map {
                Note(start: start + Double($0), length: 0.9, pitch: cycle[$0 % cycle.count], velocity: $0 == 0 ? 0.9 : 0.7)
            }
        }
    }
}
