import Foundation
import GRDB
import MusicLibrary
import StationStorage

/// The `sound` table of the station database: each file's measured sound, by the file's
/// identity in the scan cache (`track`: path, size, modification time) and the
/// ``SoundFeature/version`` that measured it. Features are little-endian Float32s; a file
/// that could not be read has none and a `failure` instead, so it is not tried again until
/// it changes. Beside them, its loudness (``Loudness``) and the ``Loudness/version`` that
/// measured it.
///
/// Blocking (SQLite): called on the analysis' own threads.
package struct SoundRecords: Sendable {
    /// What the database knows of one present file.
    package enum Known: Sendable, Equatable {
        /// Measured by this version while the file was as it is: its features and loudness
        /// (`nil` when silent, or where libebur128 is missing).
        case measured([Float], Loudness?)
        /// Found unreadable by this version while the file was as it is.
        case unreadable
        /// Its features are current but its loudness was never measured (a row from before
        /// loudness, or from a machine without libebur128): the features to use meanwhile,
        /// and its identity, to measure it again against.
        case stale([Float], size: Int64, modified: Int64)
        /// Not measured as it is now (new, changed, or measured by another version): its
        /// identity, to measure it against.
        case pending(size: Int64, modified: Int64)
    }

    /// The database.
    package let database: StationDatabase

    /// Records in `database`.
    package init(database: StationDatabase) {
        self.database = database
    }

    /// Removes the rows of files no longer present (or no longer readable by the scan),
    /// then says what is known of every present, readable file, by path.
    ///
    /// - Parameter loudnessAvailable: whether loudness can be measured here; when it cannot,
    ///   a row without loudness counts as measured, so a machine without libebur128 does
    ///   not analyse its whole library again at every start.
    package func survey(loudnessAvailable: Bool = LoudnessMeter.isAvailable) throws(StorageError) -> [String: Known] {
        try database.write { db in
            try db.execute(sql: """
                DELETE FROM sound WHERE path NOT IN (SELECT path FROM track WHERE present = 1 AND readable = 1)
                """)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT t.path, t.size, t.mtime, s.size AS sound_size, s.mtime AS sound_mtime, s.version,
                       s.features, s.failure, s.loudness_version, s.loudness, s.true_peak
                FROM track t LEFT JOIN sound s ON s.path = t.path
                WHERE t.present = 1 AND t.readable = 1
                """)
            var known: [String: Known] = [:]
            while let row = try rows.next() {
                let size: Int64 = row["size"], modified: Int64 = row["mtime"]
                let current = (row["version"] as Int?) == SoundFeature.version
                    && (row["sound_size"] as Int64?) == size && (row["sound_mtime"] as Int64?) == modified
                if current, let blob = row["features"] as Data?, let features = Self.decode(blob) {
                    let loud = (row["loudness_version"] as Int?) == Loudness.version || !loudnessAvailable
                    let loudness = Loudness(integrated: row["loudness"], truePeak: row["true_peak"])
                    known[row["path"]] = !loud ? .stale(features, size: size, modified: modified)
                        : .measured(features, loudness.integrated == nil ? nil : loudness)
                } else if current, (row["failure"] as String?) != nil {
                    known[row["path"]] = .unreadable
                } else {
                    known[row["path"]] = .pending(size: size, modified: modified)
                }
            }
            return known
        }
    }

    /// Records the outcome for the file at `path` as it was (`size`, `modified`): its
    /// features, or why it could not be read. Nothing is written when the scan cache no
    /// longer has the file so (it went or changed meanwhile: it will be measured anew).
    ///
    /// - Returns: whether the row was written.
    @discardableResult
    package func record(path: String, size: Int64, modified: Int64,
                        outcome: Result<SoundAnalysis, SoundAnalysisError>) throws(StorageError) -> Bool {
        let features: Data?, failure: String?, seconds: Double, loudness: Loudness?
        switch outcome {
        case .success(let analysis):
            (features, failure, seconds, loudness) = (Self.encode(analysis.features), nil, analysis.seconds, analysis.loudness)
        case .failure(.unreadable(let reason)):
            (features, failure, seconds, loudness) = (nil, reason, 0, nil)
        case .failure:
            return false
        }
        // Only finite numbers are stored (the meter gives nil for silence, never -inf).
        let integrated = loudness?.integrated.flatMap { $0.isFinite ? $0 : nil }
        let peak = loudness?.truePeak.flatMap { $0.isFinite ? $0 : nil }
        let loudnessVersion = loudness == nil ? 0 : Loudness.version
        return try database.write { db in
            try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO sound (path, size, mtime, version, features, failure, seconds,
                                              loudness, true_peak, loudness_version)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
                WHERE EXISTS (SELECT 1 FROM track WHERE path = ? AND present = 1 AND size = ? AND mtime = ?)
                """).execute(arguments: [path, size, modified, SoundFeature.version, features, failure, seconds,
                                         integrated, peak, loudnessVersion, path, size, modified])
            return db.changesCount > 0
        }
    }

    /// The features as stored: each Float32's bits, little-endian.
    package static func encode(_ features: [Float]) -> Data {
        var data = Data(capacity: features.count * 4)
        for value in features {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// The features of a stored row, `nil` when it is not this version's length.
    package static func decode(_ data: Data) -> [Float]? {
        guard data.count == SoundFeature.count * 4 else { return nil }
        return data.withUnsafeBytes { bytes in
            (0..<SoundFeature.count).map { index in
                Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
            }
        }
    }
}
