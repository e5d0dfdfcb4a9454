import Foundation

/// The benchmark's Markdown: a summary row per run, a table per run with its windows of 20
/// songs (station, shuffle, oracle side by side), the variety dial, and a line per target.
package enum TasteReport {
    /// `0.834` → `83 %`.
    package static func percent(_ share: Double) -> String { String(format: "%.0f %%", share * 100) }

    /// `0.5` → `0.5`, `1.0` → `1`.
    package static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }

    /// A song count, or `never`.
    package static func songs(_ value: Int?) -> String { value.map(String.init) ?? "never" }

    /// One row per run, over all its songs.
    package static func summary(_ runs: [TasteRun]) -> String {
        var lines = ["| listener × library | songs | not disliked: mhz / shuffle / oracle | loved: mhz / shuffle / oracle "
                         + "| artists per 20: mhz / shuffle / oracle | songs to pass 90 %: mhz / shuffle / oracle |",
                     "| --- | ---: | --- | --- | --- | --- |"]
        for run in runs {
            let all = run.stretch(1, run.station.count)
            let pass = run.songsToPass(0.9)
            lines.append("| \(run.title) | \(run.station.count) "
                + "| \(percent(all.station.notDisliked)) / \(percent(all.shuffle.notDisliked)) / \(percent(all.oracle.notDisliked)) "
                + "| \(percent(all.station.loved)) / \(percent(all.shuffle.loved)) / \(percent(all.oracle.loved)) "
                + "| " + [run.stationWindows, run.shuffleWindows, run.oracleWindows]
                    .map { String(format: "%.1f", run.meanArtists($0)) }.joined(separator: " / ")
                + " | \(songs(pass.station)) / \(songs(pass.shuffle)) / \(songs(pass.oracle)) |")
        }
        return lines.joined(separator: "\n")
    }

    /// The run's windows of 20 songs, station, shuffle and oracle side by side.
    package static func detail(_ run: TasteRun) -> String {
        var lines = ["#### \(run.title)", "",
                     "\(run.library.name): \(run.library.summary). Listener: \(run.listener.description). "
                         + "Base rate of loved songs: \(percent(run.baseRate)). "
                         + "\(run.station.count) songs, \(run.reports) reports, " + String(format: "%.1f s", run.seconds)
                         + "; shuffle: mean of \(run.shuffles.count) runs.",
                     "",
                     "| songs | not disliked: mhz | shuffle | oracle | loved: mhz | shuffle | oracle "
                         + "| artists: mhz | shuffle | oracle |",
                     "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        let shuffle = run.shuffleWindows, oracle = run.oracleWindows
        for (index, window) in run.stationWindows.enumerated() {
            let s = shuffle.indices.contains(index) ? shuffle[index] : window
            let o = oracle.indices.contains(index) ? oracle[index] : window
            var label = "\(window.first)–\(window.last)"
            if let change = run.listener.changeAt, window.first == change + 1 { label += " (taste changed)" }
            lines.append("| \(label) | \(percent(window.notDisliked)) | \(percent(s.notDisliked)) | \(percent(o.notDisliked)) "
                + "| \(percent(window.loved)) | \(percent(s.loved)) | \(percent(o.loved)) "
                + "| \(number(window.artists)) | " + String(format: "%.1f", s.artists) + " | \(number(o.artists)) |")
        }
        let pass = run.songsToPass(0.9)
        lines.append("| songs to pass 90 % not disliked (20 in a row) | \(songs(pass.station)) | \(songs(pass.shuffle)) "
            + "| \(songs(pass.oracle)) | | | | | | |")
        if let change = run.listener.changeAt {
            let back = run.songsToPass(0.8, after: change)
            func after(_ value: Int?) -> String { value.map { String($0 - change) } ?? "never" }
            lines.append("| songs after the change to be back at 80 % (20 in a row) | \(after(back.station)) "
                + "| \(after(back.shuffle)) | \(after(back.oracle)) | | | | | | |")
        }
        return lines.joined(separator: "\n")
    }

    /// The variety dial: per value, the station's shares over all songs for the same listener.
    package static func dial(_ runs: [TasteRun]) -> String? {
        let dialed = runs.filter { $0.variety != nil }.sorted { $0.variety! < $1.variety! }
        guard !dialed.isEmpty else { return nil }
        var lines = ["| variety= | listener × library | not disliked | loved | artists per 20 | songs to pass 90 % |",
                     "| ---: | --- | ---: | ---: | ---: | ---: |"]
        for run in dialed {
            let all = TasteStats.stretch(run.station, 1, run.station.count)
            lines.append("| \(number(run.variety!)) | \(run.listener.kind.rawValue) × \(run.library.name) "
                + "| \(percent(all.notDisliked)) | \(percent(all.loved)) "
                + "| " + String(format: "%.1f", run.meanArtists(run.stationWindows))
                + " | \(songs(TasteStats.songsToPass(run.station, share: 0.9))) |")
        }
        return lines.joined(separator: "\n")
    }
}
