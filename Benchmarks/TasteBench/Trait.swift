/// One thing about a song that a listener's taste can name: who made it, its genre, its
/// era (a decade, or a year in a library that spans only a few), or its kind of sound.
package enum Trait: Hashable, Sendable, Comparable {
    /// The artist tag.
    case artist(String)
    /// The genre tag.
    case genre(String)
    /// The first year of the era the song's year falls in (``TasteLibrary/eraWidth``).
    case era(Int)
    /// The kind of sound.
    case sound(SoundClass)

    /// How the trait reads in a listener's description, in a library whose eras are
    /// `eraWidth` years long: a decade reads `1960s`, a single year `2004`.
    package func words(eraWidth: Int) -> String {
        switch self {
        case .artist(let name): name
        case .genre(let name): "genre \(name)"
        case .era(let year): eraWidth == 1 ? "\(year)" : "\(year)s"
        case .sound(let kind): "\(kind.rawValue) sound"
        }
    }

    /// Artists, then genres, eras and sounds, each in the order of their values.
    package static func < (lhs: Trait, rhs: Trait) -> Bool {
        func key(_ trait: Trait) -> (Int, String) {
            switch trait {
            case .artist(let name): (0, name)
            case .genre(let name): (1, name)
            case .era(let year): (2, String(year))
            case .sound(let kind): (3, kind.rawValue)
            }
        }
        return key(lhs) < key(rhs)
    }
}
