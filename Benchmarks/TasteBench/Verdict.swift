/// What a simulated listener does with one song, and so what the benchmark counts.
///
/// "Loved" is a song the listener gives a red heart (`r`, unless it carries one already)
/// and plays to its end (`e`); "neutral" is played to its end without a heart; "skipped"
/// (`s`) and "trashed" (`b`) are the dislikes. Douban FM's promise was about the songs
/// not disliked: nine in ten of those its personal channel picks.
package enum Verdict: String, Sendable, Hashable, CaseIterable {
    /// A red heart and played through.
    case loved
    /// Played through without a heart.
    case neutral
    /// Skipped.
    case skipped
    /// Trashed: never to be played again.
    case trashed

    /// Skipped or trashed.
    package var isDisliked: Bool { self == .skipped || self == .trashed }

    /// How much the listener wants it: the oracle picks the lowest rank first.
    package var rank: Int {
        switch self {
        case .loved: 0
        case .neutral: 1
        case .skipped: 2
        case .trashed: 3
        }
    }
}
