import Foundation
import MusicLibrary
import RadioAPI
import Synchronization

/// The library currently served. Requests take a snapshot per request; a rescan replaces
/// it in one step, so a request never sees half of an old and half of a new library.
final class LiveLibrary: Sendable {
    /// A library with its channel list already encoded.
    private struct Served {
        var library: Library
        /// `{"channels":[…]}` as the channel route sends it, encoded once per scan.
        var channelListJSON: Data

        init(_ library: Library) {
            self.library = library
            channelListJSON = JSONResponse.encode(ChannelList(channels: library.catalog.channels))
        }
    }

    private let current: Mutex<Served>

    /// Starts with the library of the first scan.
    init(_ library: Library) {
        current = Mutex(Served(library))
    }

    /// The library now served.
    var snapshot: Library {
        current.withLock { $0.library }
    }

    /// The channel list of the library now served, as the channel route sends it.
    var channelListJSON: Data {
        current.withLock { $0.channelListJSON }
    }

    /// Serves `library` from now on.
    func replace(with library: Library) {
        let served = Served(library)
        current.withLock { $0 = served }
    }
}
