import Settings
import Foundation
import Logging
import Radio
import Store

/// Opens `mhz.sqlite` for a command. A damaged file (cut short, overwritten, not a
/// database) does not stop mhz: it is moved aside, kept for whoever wants to look, and a new
/// one is made; the listener reads one line saying so, on stderr and in the log, and
/// `replaced` reports it so a player can also show it (the terminal UI clears stderr's line).
enum DatabaseOpening {
    /// The database at `paths.database`, a new one in place of a damaged one; `replaced`
    /// hears of the replacement.
    static func open(_ paths: Paths, replaced: (RadioError) -> Void = { _ in }) throws(CLIError) -> MhzDatabase {
        let path = paths.database
        do {
            return try MhzDatabase(path: path)
        } catch .damaged(_, let reason) {
            let kept: URL
            do {
                kept = try MhzDatabase.setAside(path: path, stamp: Int(time(nil)))
            } catch {
                throw .runtime("\(path.path) is damaged (\(reason)) and cannot be moved aside: \(StoreText.words(error)) — "
                    + "move it away by hand")
            }
            let line = "\(path.lastPathComponent) was damaged (\(reason)): kept as \(kept.lastPathComponent) "
                + "and started anew — saved positions, unsent reports and the download list begin empty"
            FileHandle.standardError.write(Data("mhz: \(line)\n".utf8))
            Logger(label: "mhz").error("\(line)")
            replaced(.databaseReplaced(kept: kept.lastPathComponent, reason: reason))
            do {
                return try MhzDatabase(path: path)
            } catch {
                throw .runtime("\(StoreText.words(error)) — check the data directory")
            }
        } catch {
            throw .runtime("\(StoreText.words(error)) — check the data directory")
        }
    }
}
