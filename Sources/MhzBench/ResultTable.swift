/// The one table mhz-bench prints: a row per measure with mhz, the reference measured in
/// the same run, their ratio, and where the target stands. Markdown, so a run can
/// be pasted into BENCHMARKS.md as it is.
struct ResultTable {
    /// One measure.
    struct Row {
        var measure: String
        var mhz: String
        var reference: String
        var ratio: String
        var target: String = ""
    }

    private(set) var rows: [Row] = []

    /// Adds a row.
    mutating func add(_ measure: String, mhz: String, reference: String, ratio: String, target: String = "") {
        rows.append(Row(measure: measure, mhz: mhz, reference: reference, ratio: ratio, target: target))
    }

    /// The table as Markdown.
    var markdown: String {
        var lines = ["| measure | mhz | reference | ratio (mhz / reference) | target |", "| --- | --- | --- | --- | --- |"]
        for row in rows {
            lines.append("| \(row.measure) | \(row.mhz) | \(row.reference) | \(row.ratio) | \(row.target) |")
        }
        return lines.joined(separator: "\n")
    }
}
