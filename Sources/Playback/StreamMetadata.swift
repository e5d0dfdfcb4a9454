/// The tags mpv reports for the playing item (its `metadata` property): container tags such
/// as ID3 or Vorbis comments, and for internet radio the ICY headers and stream title.
public struct StreamMetadata: Sendable, Equatable {
    /// Every tag as mpv spells it (ID3 keys are upper case in mp3s, e.g. `TITLE`; Vorbis
    /// keys keep the file's case; ICY ones are `icy-title`, `icy-name`, …).
    public var tags: [String: String]

    /// Wraps tags.
    public init(tags: [String: String]) { self.tags = tags }

    /// The value of `key`, compared case-insensitively (formats disagree about case).
    public func value(_ key: String) -> String? {
        if let exact = tags[key] { return exact }
        let lowered = key.lowercased()
        return tags.first { $0.key.lowercased() == lowered }?.value
    }

    /// What is playing now: the ICY stream title of a radio station if there is one (it
    /// changes with every song), else the `title` tag.
    public var title: String? { value("icy-title") ?? value("title") }

    /// The `artist` tag.
    public var artist: String? { value("artist") }

    /// The `album` tag.
    public var album: String? { value("album") }
}
