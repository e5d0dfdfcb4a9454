import Station

/// One line per station failure, for the CLI: what happened and what to do.
enum StationErrorText {
    static func describe(_ error: StationError) -> String {
        switch error {
        case .libraryUnreadable(let path, let reason):
            "cannot read the music folder \(path) (\(reason)): check --library"
        case .noSongs(let path, let extensions):
            LibraryText.noSongs(path: path, extensions: extensions)
        case .demoSynthesisFailed(let path, let reason):
            "cannot create the demo library in \(path) (\(reason)): check that the data directory is writable"
        case .bindFailed(let address, let reason):
            "the station cannot listen on \(address) (\(reason)): choose another --host/--port"
        case .alreadyRunning:
            "the station is already running"
        case .cancelled:
            "the station was stopped while starting"
        case .databaseFailed(let path, let reason):
            "cannot use the station database \(path) (\(reason)): check that the data directory is writable"
        case .invalidUserName(let name):
            "\"\(name)\" cannot be a user name: use 1 to 64 printable characters"
        case .userExists(let name):
            "a user named \(name) exists already: choose another name"
        case .invalidPassword:
            "the password must be 1 to 72 bytes long"
        case .tlsUnreadable(let path, let reason):
            "cannot use \(path) for TLS (\(reason)): check --tls-cert and --tls-key"
        case .tlsMismatch(let certificate, let key):
            "the key \(key) is not the private key of the certificate \(certificate): check --tls-cert and --tls-key"
        }
    }
}
