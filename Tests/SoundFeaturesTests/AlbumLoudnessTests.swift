import Foundation
import MusicLibrary
import Testing
import TestSupport
@testable import SoundFeatures

/// Each track's and album's loudness as the analysis publishes them with the sound table,
/// against FFmpeg's `ebur128` over each file and over the album played through (the files
/// joined end to end): an independent measure of what the table claims.
@Suite("Album loudness")
struct AlbumLoudnessTests {
    /// An album of tones whose levels are `volumes` (amplitudes) and lengths `seconds`.
    private static func album(_ volumes: [Double], seconds: [Double]) -> @Sendable (URL) throws -> Void {
        { music in
            for (index, volume) in volumes.enumerated() {
                try SoundSamples.tone(music.appendingPathComponent("Album/\(index + 1) Tone.flac"),
                                      frequency: 440 + 110 * index, seconds: seconds[index], volume: volume)
            }
        }
    }

    /// FFmpeg's measure of `files` joined end to end (the concat filter, no gaps).
    private static func playedThrough(_ files: [URL], into folder: URL) throws -> LoudnessProbe.Measurement {
        let joined = folder.appendingPathComponent("album.flac")
        var arguments = ["-nostdin", "-loglevel", "error", "-y"]
        for file in files { arguments += ["-i", file.path] }
        arguments += ["-filter_complex", "concat=n=\(files.count):v=0:a=1", joined.path]
        try MediaFactory.run("ffmpeg", arguments)
        return try LoudnessProbe.measure(joined)
    }

    /// The analysis run over `make`'s album, its last published table and the library.
    private static func analysed(_ library: AnalysedLibrary) async throws -> (Library, SoundTable) {
        let scanned = try library.scan()
        let analysis = library.analysis()
        analysis.schedule(scanned, publish: library.publish)
        await analysis.idle()
        let table = try #require(library.published.value.last)
        #expect(table.loudness.measuredCount == scanned.tracks.count)
        return (scanned, table)
    }

    @Test("each track's published loudness is FFmpeg's; the album's is the album played through, within 0.5 LU",
          arguments: [
              // Mastered alike within a few dB, of different lengths.
              ([1.0, 0.7, 0.5], [3.0, 4.0, 5.0]),
              // One track 26 dB below the rest: played through, the relative gate drops its blocks.
              ([1.0, 0.5, 0.05], [4.0, 3.0, 4.0]),
          ])
    func albumPlayedThrough(volumes: [Double], seconds: [Double]) async throws {
        let library = try await AnalysedLibrary(Self.album(volumes, seconds: seconds))
        defer { library.remove() }
        let (scanned, table) = try await Self.analysed(library)
        let files = scanned.tracks.sorted { $0.relativePath < $1.relativePath }.map(\.file)
        let folder = library.folder.url
        let album = try await offPool { try Self.playedThrough(files, into: folder) }
        var peaks: [Double] = []
        for (position, track) in scanned.tracks.enumerated() {
            let reference = try await offPool { try LoudnessProbe.measure(track.file) }
            let measured = try #require(table.loudness.track(at: position))
            let level = try #require(measured.integrated), peak = try #require(measured.truePeak)
            #expect(abs(level - reference.integrated) < 0.3, "\(track.relativePath): \(level) vs ffmpeg \(reference.integrated)")
            peaks.append(peak)
            let albumLevel = try #require(table.loudness.album(at: position))
            #expect(abs(try #require(albumLevel.integrated) - album.integrated) < 0.5,
                    "album \(String(describing: albumLevel.integrated)) vs ffmpeg over the album \(album.integrated)")
        }
        let last = try #require(table.loudness.album(at: scanned.tracks.count - 1))
        #expect(last.truePeak.map { abs($0 - (peaks.max() ?? 0)) < 1e-4 } == true, "\(last) vs \(peaks)")
    }

    @Test("a silent track has no loudness and does not count for its album")
    func silentTrack() async throws {
        let library = try await AnalysedLibrary { music in
            try SoundSamples.tone(music.appendingPathComponent("Album/1 Tone.flac"), frequency: 440, seconds: 3)
            try SoundSamples.make(music.appendingPathComponent("Album/2 Silence.flac"), source: "anullsrc=r=44100:cl=mono", seconds: 3)
        }
        defer { library.remove() }
        let scanned = try library.scan()
        let analysis = library.analysis()
        analysis.schedule(scanned, publish: library.publish)
        await analysis.idle()
        let table = try #require(library.published.value.last)
        let tone = try #require(scanned.tracks.firstIndex { $0.relativePath.hasSuffix("Tone.flac") })
        let silence = try #require(scanned.tracks.firstIndex { $0.relativePath.hasSuffix("Silence.flac") })
        #expect(table.loudness.measuredCount == 1)
        #expect(table.loudness.track(at: silence) == nil)
        let level = try #require(table.loudness.track(at: tone)?.integrated)
        for position in [silence, tone] {
            let album = try #require(table.loudness.album(at: position)?.integrated)
            #expect(abs(album - level) < 1e-3, "album \(album), its one sounding track \(level)")
        }
    }
}
