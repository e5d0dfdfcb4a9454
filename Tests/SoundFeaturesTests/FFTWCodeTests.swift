import Foundation
import Testing
import TestSupport
@testable import SoundFeatures

/// FFTW's code after the analysis has made its objects: the planner's first pass calls the
/// registration function of every codelet, all over libfftw3f's code, and mhz drops those
/// pages from its resident set once (CAubio's `mhz_aubio_objects_made`). What the
/// transforms run afterwards comes back, which is under half of the code.
@Suite("FFTW's code pages")
struct FFTWCodeTests {
    /// One mapping's size and resident part, in kB, as /proc/self/smaps gives them.
    private struct Mapping {
        var size = 0
        var resident = 0
    }

    /// The executable mappings of the library whose path contains `library`, summed.
    private func code(of library: String) throws -> Mapping {
        // /proc files say their size is 0: read to the end rather than by the size.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? file.close() }
        let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        var total = Mapping(), counting = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), !first.hasSuffix(":"), fields.count >= 5 {
                // "address perms offset dev inode [path]" opens each mapping's block.
                counting = fields[1].contains("x") && fields.count >= 6 && fields[5].contains(library)
            } else if counting, fields.count >= 2, let kB = Int(fields[1]) {
                if first == "Size:" { total.size += kB }
                if first == "Rss:" { total.resident += kB }
            }
        }
        return total
    }

    @Test("after the objects are made and a song is analysed, under half of FFTW's code stays resident")
    func plannerPagesAreDropped() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-fftw")
        defer { folder.remove() }
        let song = folder.path("tone.flac")
        try await offPool { try SoundSamples.tone(song, frequency: 440, seconds: 2) }
        let analysis = try await offPool { try SoundAnalyzer.analyze(song) }
        #expect(analysis.seconds > 1.9)

        let fftw = try code(of: "libfftw3f")
        // libfftw3f.so.3 of Debian 12 has 1.8 MiB of code; the planner alone touched all of it.
        #expect(fftw.size > 1_024, "libfftw3f is mapped, with its code: \(fftw.size) kB")
        #expect(fftw.resident * 2 < fftw.size, "\(fftw.resident) of \(fftw.size) kB of FFTW's code resident")
    }
}
