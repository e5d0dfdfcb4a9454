/// What a listener feels about songs by their traits, at one time: what it loves, skips and
/// trashes, and what it does with every other song. A song with a trashed trait is trashed
/// whatever else it has; then a loved trait wins over a skipped one.
package struct Taste: Sendable, Equatable {
    /// Traits of the songs it loves.
    package var loves: Set<Trait> = []
    /// Traits of the songs it skips.
    package var skips: Set<Trait> = []
    /// Traits of the songs it trashes.
    package var trashes: Set<Trait> = []
    /// What it does with a song none of the sets name.
    package var otherwise: Verdict = .neutral

    /// A taste.
    package init(loves: Set<Trait> = [], skips: Set<Trait> = [], trashes: Set<Trait> = [], otherwise: Verdict = .neutral) {
        self.loves = loves
        self.skips = skips
        self.trashes = trashes
        self.otherwise = otherwise
    }

    /// The verdict on a song with these traits.
    package func verdict(for traits: [Trait]) -> Verdict {
        if traits.contains(where: trashes.contains) { return .trashed }
        if traits.contains(where: loves.contains) { return .loved }
        if traits.contains(where: skips.contains) { return .skipped }
        return otherwise
    }
}
