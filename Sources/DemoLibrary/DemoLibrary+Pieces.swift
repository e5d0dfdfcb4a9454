extension DemoLibrary {
    /// The demo pieces: three genres (so the demo has three genre channels besides the
    /// personal one), three pieces each, every one with its own title, artist, album, key,
    /// tempo and sound. Names are invented; one piece has Chinese tags to carry non-Latin
    /// text through TagLib, the scanner and the JSON, as Douban's catalogue would.
    ///
    /// Changing a piece changes the demo only for new data directories: existing files are
    /// reused by name.
    package static let pieces: [DemoPiece] = [
        // Ambient: slow, soft pads and glass over whole-note bass, with echo.
        DemoPiece(title: "Harbor Lights at Dusk", artist: "Mira Okafor", album: "Low Tide Letters",
                  genre: "Ambient", year: 2019, seed: 0xA1B2_0001, scale: DemoPiece.Scales.majorPentatonic,
                  tonic: 62, tempo: 72, beatsPerBar: 4, targetSeconds: 34, lead: .pad, bass: .roundBass,
                  bassPattern: .whole, hiHat: false, echo: 0.35),
        DemoPiece(title: "Slow Glass", artist: "The Quiet Orbit", album: "Night Shift Skies",
                  genre: "Ambient", year: 2021, seed: 0xA1B2_0002, scale: DemoPiece.Scales.minorPentatonic,
                  tonic: 64, tempo: 80, beatsPerBar: 4, targetSeconds: 30, lead: .glass, bass: .roundBass,
                  bassPattern: .whole, hiHat: false, echo: 0.4),
        DemoPiece(title: "Moss and Static", artist: "Lena Vasquez", album: "Field Recordings No. 3",
                  genre: "Ambient", year: 2017, seed: 0xA1B2_0003, scale: DemoPiece.Scales.dorian,
                  tonic: 60, tempo: 76, beatsPerBar: 4, targetSeconds: 38, lead: .pad, bass: .pluckedBass,
                  bassPattern: .rootFifth, hiHat: false, echo: 0.3),
        // Chiptune: fast square and saw leads, pulse bass, hi-hats.
        DemoPiece(title: "Pixel Parade", artist: "8-Bit Orchard", album: "Cartridge Summer",
                  genre: "Chiptune", year: 2015, seed: 0xC41B_0004, scale: DemoPiece.Scales.major,
                  tonic: 67, tempo: 144, beatsPerBar: 4, targetSeconds: 26, lead: .square, bass: .pulseBass,
                  bassPattern: .pulse, hiHat: true, echo: 0),
        DemoPiece(title: "Turbo Snail", artist: "Nova Kid", album: "Level Select",
                  genre: "Chiptune", year: 2016, seed: 0xC41B_0005, scale: DemoPiece.Scales.minorPentatonic,
                  tonic: 65, tempo: 132, beatsPerBar: 4, targetSeconds: 24, lead: .saw, bass: .pulseBass,
                  bassPattern: .rootFifth, hiHat: true, echo: 0),
        DemoPiece(title: "Save Point", artist: "Bit Tuner", album: "Continue Screen",
                  genre: "Chiptune", year: 2018, seed: 0xC41B_0006, scale: DemoPiece.Scales.majorPentatonic,
                  tonic: 69, tempo: 150, beatsPerBar: 4, targetSeconds: 28, lead: .square, bass: .pulseBass,
                  bassPattern: .pulse, hiHat: false, echo: 0.15),
        // Folk: plucked strings, one waltz, mid tempo.
        DemoPiece(title: "Willow Road", artist: "Ada Finch", album: "Kitchen Table Songs",
                  genre: "Folk", year: 2012, seed: 0xF01C_0007, scale: DemoPiece.Scales.majorPentatonic,
                  tonic: 62, tempo: 104, beatsPerBar: 4, targetSeconds: 30, lead: .pluckedString,
                  bass: .pluckedBass, bassPattern: .rootFifth, hiHat: false, echo: 0),
        DemoPiece(title: "The Ferryman's Waltz", artist: "Copper Kettle Band", album: "River Crossings",
                  genre: "Folk", year: 2014, seed: 0xF01C_0008, scale: DemoPiece.Scales.major,
                  tonic: 60, tempo: 120, beatsPerBar: 3, targetSeconds: 32, lead: .pluckedString,
                  bass: .roundBass, bassPattern: .rootFifth, hiHat: false, echo: 0.1),
        DemoPiece(title: "月光小路", artist: "林溪", album: "山谷来信",
                  genre: "Folk", year: 2020, seed: 0xF01C_0009, scale: DemoPiece.Scales.majorPentatonic,
                  tonic: 64, tempo: 92, beatsPerBar: 4, targetSeconds: 36, lead: .glass, bass: .pluckedBass,
                  bassPattern: .whole, hiHat: false, echo: 0.2),
    ]
}
