import Synchronization

/// The library currently served. Requests take a snapshot per request; a rescan replaces
/// it in one step, so a request never sees half of an old and half of a new library.
final class LiveLibrary: Sendable {
    private let current: Mutex<Library>

    /// Starts with the library of the first scan.
    init(_ library: Library) {
        current = Mutex(library)
    }

    /// The library now served.
    var snapshot: Library {
        current.withLock { $0 }
    }

    /// Serves `library` from now on.
    func replace(with library: Library) {
        current.withLock { $0 = library }
    }
}
