import DemoLibrary
import Foundation
import MusicLibrary
import StationStorage

/// Why a station could not be set up or started. Each case carries the path or address it
/// is about plus a short reason, so the composition root can say what and what to do in
/// one line; the station itself never turns these into prose.
public enum StationError: Error, Sendable, Equatable {
    /// The configured music folder exists but could not be listed (permissions, not a
    /// folder, I/O error), or a folder the listener named does not exist.
    case libraryUnreadable(path: String, reason: String)
    /// A music folder the listener named holds no song: no file ending in one of
    /// `extensions` (lowercased, without the dot, sorted) that could be read. Only the
    /// default folder falls back to the demo library.
    case noSongs(path: String, extensions: [String])
    /// The demo library could not be written or tagged at `path`.
    case demoSynthesisFailed(path: String, reason: String)
    /// The server could not listen on `address` (`host:port`), e.g. the port is taken or
    /// the host is not an address of this machine.
    case bindFailed(address: String, reason: String)
    /// ``Station/start()`` or ``Station/run(onListening:)`` was called while the station
    /// was already serving.
    case alreadyRunning
    /// The task calling ``Station/start()`` was cancelled before the server listened; the
    /// server was shut down again.
    case cancelled
    /// The station's database at `path` could not be opened, migrated, read or written.
    case databaseFailed(path: String, reason: String)
    /// A user name that cannot be an account: empty, longer than 64 characters, or holding
    /// control characters.
    case invalidUserName(String)
    /// An account with this name (or e-mail address) exists already.
    case userExists(name: String)
    /// A password that cannot be stored: empty, or longer than bcrypt's 72 bytes (bcrypt
    /// would silently ignore the rest).
    case invalidPassword
    /// The TLS certificate or key file at `path` cannot be read or holds no PEM
    /// certificate or key (``StationTLS``).
    case tlsUnreadable(path: String, reason: String)
    /// The TLS key file `key` does not hold the private key of the certificate in `certificate`.
    case tlsMismatch(certificate: String, key: String)
}

extension StationError {
    /// The station's error for a failure of its database.
    init(database failure: StorageError) {
        self = .databaseFailed(path: failure.path, reason: failure.reason)
    }

    /// The station's error for a library that could not be scanned or indexed.
    init(_ failure: LibraryError) {
        switch failure {
        case .folderUnreadable(let path, let reason): self = .libraryUnreadable(path: path, reason: reason)
        case .storage(let storage): self.init(database: storage)
        }
    }
}
