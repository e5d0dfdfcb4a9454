import MusicLibrary

/// The station's sound table is the space the recommender measures sound in: it has every
/// member ``SoundSpace`` asks for.
extension SoundTable: SoundSpace {}
