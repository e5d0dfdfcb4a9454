import StationStorage

/// Why a music library could not be scanned or indexed. Each case names the path it is
/// about; the station turns it into its own error, the command line into words.
public enum LibraryError: Error, Sendable, Equatable {
    /// The music folder exists but could not be listed (permissions, not a folder, I/O).
    case folderUnreadable(path: String, reason: String)
    /// The scan cache in the station's database could not be read or written.
    case storage(StorageError)
}
