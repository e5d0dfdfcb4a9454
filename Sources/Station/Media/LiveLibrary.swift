import Foundation
import MusicLibrary
import RadioAPI
import Synchronization

/// The library currently served. Requests take a snapshot per request; a rescan replaces
/// it in one step, so a request never sees half of an old and half of a new library.
///
/// Beside it, how its tracks sound (``SoundTable``, by the library's track positions), which
/// the sound analysis replaces as it measures more: a table is only ever served with the
/// library it was built for (``soundPublisher()`` drops a table made for a library that
/// has been replaced since).
final class LiveLibrary: Sendable {
    /// A library with its channel list already encoded.
    private struct Served {
        var library: Library
        /// `{"channels":[…]}` as the channel route sends it, encoded once per scan, the
        /// channels broadcast live marked `"live":true`.
        var channelListJSON: Data
        /// How the library's tracks sound, as far as they have been measured.
        var sound: SoundTable
        /// Bumped by every ``replace(with:sound:)``.
        var generation: Int

        init(_ library: Library, sound: SoundTable, generation: Int) {
            self.library = library
            let channels = library.catalog.channels.map { channel in
                var listed = channel
                listed.live = LiveHub.broadcasts(channel.id)
                return listed
            }
            channelListJSON = JSONResponse.encode(ChannelList(channels: channels))
            self.sound = sound
            self.generation = generation
        }
    }

    private let current: Mutex<Served>

    /// Starts with the library of the first scan, and how much of its sound is known.
    init(_ library: Library, sound: SoundTable = .empty) {
        current = Mutex(Served(library, sound: sound, generation: 0))
    }

    /// The library now served.
    var snapshot: Library {
        current.withLock { $0.library }
    }

    /// The channel list of the library now served, as the channel route sends it.
    var channelListJSON: Data {
        current.withLock { $0.channelListJSON }
    }

    /// The sound table of the library now served (``SoundTable/empty`` until the analysis
    /// reports).
    var sound: SoundTable {
        current.withLock { $0.sound }
    }

    /// The library now served and its sound table, taken together.
    var snapshotWithSound: (library: Library, sound: SoundTable) {
        current.withLock { ($0.library, $0.sound) }
    }

    /// Serves `library` from now on, with `sound` (built for it) as its sound table.
    func replace(with library: Library, sound: SoundTable = .empty) {
        // The channel list is encoded before the lock is taken: requests keep reading.
        var fresh = Served(library, sound: sound, generation: 0)
        current.withLock { served in
            fresh.generation = served.generation + 1
            served = fresh
        }
    }

    /// Where tables built for the library served now go: each replaces the sound table
    /// while that library is still the one served, and is dropped once it is not.
    func soundPublisher() -> @Sendable (SoundTable) -> Void {
        let generation = current.withLock { $0.generation }
        return { [self] table in
            current.withLock { served in
                if served.generation == generation, table.trackCount == served.library.tracks.count {
                    served.sound = table
                }
            }
        }
    }
}
