import SeededRandom

/// A simulated listener listening: the client tunes in, and for every song that starts the
/// listener's verdict is drawn and acted on, until `songs` songs have started.
package enum TasteSession {
    /// What a session heard, and the client that heard it (its counters and first list).
    package struct Outcome {
        /// Every song, in order, with its verdict.
        package var heard: [Heard]
        /// The client at the end.
        package var client: SimulatedClient
    }

    /// Listens to `songs` songs of `station` as `listener` would, with verdicts drawn from
    /// `seed`'s verdict stream (the references draw from the same stream). The last song's
    /// verdict is counted but not reported: nothing follows it.
    /// - Throws: ``TasteError``: the station failed, or answered a song the library's truth
    ///   does not know.
    package static func listen(to station: TasteStation, as listener: Listener, in library: TasteLibrary, songs: Int,
                               seed: UInt64) throws(TasteError) -> Outcome {
        var client = SimulatedClient(station: station)
        var verdicts = SplitMix64(seed: References.verdictSeed(seed))
        var song = try client.start()
        var heard: [Heard] = []
        while true {
            guard let truth = library.truth(title: song.title, artist: song.artist) else {
                throw .unknownSong("\(song.title) by \(song.artist) (sid \(song.sid))")
            }
            let verdict = listener.verdict(truth, in: library, at: heard.count, random: &verdicts)
            heard.append(Heard(truth, verdict))
            if heard.count >= songs { return Outcome(heard: heard, client: client) }
            song = try client.listen(verdict)
        }
    }
}
