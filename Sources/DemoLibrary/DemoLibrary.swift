import Foundation
import MusicLibrary
import StationStorage
import Transcoder

/// The library the station serves when no music folder is usable: nine short, audible
/// pieces in three genres, synthesized on first use into the station's data directory,
/// encoded to MP3 (``bitrate``) and tagged through TagLib like any other music.
///
/// Each track is written to a hidden temporary file, tagged, and only then renamed into
/// place, so a file under its final name is always complete. An interrupted first run
/// leaves at most a hidden temporary file (skipped by the scanner, removed by a later run
/// once it is an hour old) and the missing tracks are synthesized again. Two stations
/// synthesizing into one folder at once both succeed: temporary names are unique and the
/// renames replace equal files.
package struct DemoLibrary: Sendable {
    /// The folder holding the demo tracks.
    package let directory: URL
    /// The demo tracks' MP3 bit rate: mono 22 050 Hz synthesized tones lose nothing a
    /// listener hears at 64 kbit/s, and a client asking for 64, 128 or 192 is served the
    /// file as it is (a station never re-encodes an MP3 upward).
    package static let bitrate = 64

    /// Creates the demo library handle for a folder; nothing is written until ``ensure()``.
    package init(directory: URL) {
        self.directory = directory
    }

    /// The final location of a piece's file.
    package func file(for piece: DemoPiece) -> URL {
        directory.appendingPathComponent(piece.relativePath)
    }

    /// Synthesizes whatever is missing; files already in place are left untouched.
    ///
    /// - Throws: ``StorageError`` naming the file or folder that could not be written or
    ///   tagged.
    package func ensure() throws(StorageError) {
        for piece in Self.pieces {
            let target = file(for: piece)
            // Stations before the demo library was MP3 wrote WAV files under the same names.
            try? FileManager.default.removeItem(at: target.deletingPathExtension().appendingPathExtension("wav"))
            if FileManager.default.fileExists(atPath: target.path) { continue }
            try synthesize(piece, to: target)
        }
    }

    /// Renders, writes, tags and publishes one piece.
    private func synthesize(_ piece: DemoPiece, to target: URL) throws(StorageError) {
        let folder = target.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StorageError(path: folder.path, reason: StorageError.reason(of: error))
        }
        removeLeftovers(in: folder)
        // Hidden (the scanner skips dot files). The samples go to a WAV file first, which
        // libavcodec encodes to MP3 beside it (ending in `.mp3`: TagLib picks the file type
        // from the extension); only the MP3 stays.
        let stem = ".partial-\(UUID().uuidString.prefix(8))-"
        let pcm = folder.appendingPathComponent(stem + "pcm.wav")
        let temporary = folder.appendingPathComponent(stem + target.lastPathComponent)
        let samples = DemoSynthesizer(piece: piece).render()
        defer { try? FileManager.default.removeItem(at: pcm) }
        do {
            try WAVWriter.data(samples: samples, sampleRate: DemoSynthesizer.sampleRate).write(to: pcm)
        } catch {
            throw StorageError(path: pcm.path, reason: StorageError.reason(of: error))
        }
        do throws(TranscodeError) {
            try AudioTranscoder.transcode(input: pcm, to: temporary, kbps: Self.bitrate)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw StorageError(path: temporary.path, reason: "MP3 encoding failed: \(error)")
        }
        let saved = TagLibFile.open(temporary.path) { file in
            file.setTags(title: piece.title, artist: piece.artist, album: piece.album, genre: piece.genre,
                         year: piece.year)
            return file.save()
        }
        guard saved == true else {
            try? FileManager.default.removeItem(at: temporary)
            throw StorageError(path: temporary.path, reason: "taglib_file_save failed")
        }
        // rename(2) is atomic within a file system: the final name appears complete or not at all.
        guard rename(temporary.path, target.path) == 0 else {
            let failure = StorageError.errno(target.path, "rename")
            try? FileManager.default.removeItem(at: temporary)
            throw failure
        }
    }

    /// How old a temporary file must be before it counts as left over. Writing one takes
    /// well under a second; younger ones may belong to another station (a second process,
    /// a parallel test) synthesizing into the same folder right now.
    package static let leftoverAge: TimeInterval = 3600

    /// Removes temporary files an interrupted run left in a folder.
    private func removeLeftovers(in folder: URL) {
        let manager = FileManager.default
        let names = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(".partial-") {
            let path = folder.appendingPathComponent(name).path
            let modified = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            if let modified, Date().timeIntervalSince(modified) > Self.leftoverAge {
                try? manager.removeItem(atPath: path)
            }
        }
    }
}
