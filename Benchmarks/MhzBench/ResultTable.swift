/// The one table mhz-bench prints: a row per measure with mhz, the reference measured in
/// the same run, their ratio, and where the target stands. Markdown, so a run can
/// be read as it is; BENCHMARKS.md's table takes its rows, each naming the run it came from.
struct ResultTable {
    /// One measure.
    struct Row {
        /// What was measured, and how often.
        var measure: String
        /// mhz's number.
        var mhz: String
        /// The reference's number and what the reference is.
        var reference: String
        /// mhz / reference, or why there is none (a tool not found).
        var ratio: String
        /// The target for this measure and whether it was met, if it has one.
        var target: String = ""
    }

    /// The rows in the order they were measured.
    private(set) var rows: [Row] = []

    /// Adds a row.
    mutating func add(_ measure: String, mhz: String, reference: String, ratio: String, target: String = "") {
        rows.append(Row(measure: measure, mhz: mhz, reference: reference, ratio: ratio, target: target))
    }

    /// Adds the rows of `other` after these.
    mutating func append(_ other: ResultTable) {
        rows += other.rows
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
