/// One listener on one library: what the station served it, beside the references.
package struct TasteRun: Sendable {
    /// The library.
    package var library: TasteLibrary
    /// The listener.
    package var listener: Listener
    /// The `variety=` sent on every request, if any.
    package var variety: Double?
    /// The songs the station served, in order, with the verdicts.
    package var station: [Heard]
    /// The shuffle's runs (several seeds: its windows are averaged).
    package var shuffles: [[Heard]]
    /// The oracle's run.
    package var oracle: [Heard]
    /// The station's first list.
    package var firstList: [SongTruth]
    /// Songs the station answered in lists, and how many carried a `reason`.
    package var songsAnswered: Int, songsWithReason: Int
    /// Reports the client sent.
    package var reports: Int
    /// Seconds the station's run took (start, accounts and logins, every report; not the library).
    package var seconds: Double

    /// A run.
    package init(library: TasteLibrary, listener: Listener, variety: Double?, station: [Heard], shuffles: [[Heard]],
                 oracle: [Heard], firstList: [SongTruth], songsAnswered: Int, songsWithReason: Int, reports: Int,
                 seconds: Double) {
        self.library = library
        self.listener = listener
        self.variety = variety
        self.station = station
        self.shuffles = shuffles
        self.oracle = oracle
        self.firstList = firstList
        self.songsAnswered = songsAnswered
        self.songsWithReason = songsWithReason
        self.reports = reports
        self.seconds = seconds
    }

    /// `listener × library`, with the variety when one was sent.
    package var title: String {
        "\(listener.kind.rawValue) × \(library.name)" + (variety.map { " (variety \(TasteReport.number($0)))" } ?? "")
    }

    /// The share of the library the listener loves at the start.
    package var baseRate: Double { listener.lovedBaseRate(in: library) }

    /// Songs the station served, per window.
    package var stationWindows: [WindowStats] { TasteStats.windows(station) }
    /// The shuffles' windows, averaged.
    package var shuffleWindows: [WindowStats] { TasteStats.mean(shuffles.map { TasteStats.windows($0) }) }
    /// The oracle's windows.
    package var oracleWindows: [WindowStats] { TasteStats.windows(oracle) }

    /// A stretch of the station's run, the shuffles' (averaged) and the oracle's.
    package func stretch(_ first: Int, _ last: Int) -> (station: WindowStats, shuffle: WindowStats, oracle: WindowStats) {
        (TasteStats.stretch(station, first, last),
         TasteStats.mean(shuffles.map { [TasteStats.stretch($0, first, last)] }).first
             ?? TasteStats.stretch([], first, last),
         TasteStats.stretch(oracle, first, last))
    }

    /// Distinct artists per window of 20, averaged over the run's full windows.
    package func meanArtists(_ windows: [WindowStats]) -> Double {
        let full = windows.filter { $0.last - $0.first + 1 == TasteStats.windowSize }
        guard !full.isEmpty else { return windows.first?.artists ?? 0 }
        return full.map(\.artists).reduce(0, +) / Double(full.count)
    }

    /// Songs to pass `share` not disliked, for the station, the shuffles (median) and the oracle.
    package func songsToPass(_ share: Double, after: Int = 0) -> (station: Int?, shuffle: Int?, oracle: Int?) {
        (TasteStats.songsToPass(station, share: share, after: after),
         TasteStats.median(shuffles.map { TasteStats.songsToPass($0, share: share, after: after) }),
         TasteStats.songsToPass(oracle, share: share, after: after))
    }
}
