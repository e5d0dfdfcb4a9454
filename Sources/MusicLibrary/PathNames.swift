/// Title, artist and album read from where a file sits, for files whose tags are missing
/// or incomplete.
///
/// Music folders are commonly laid out as `Artist/Album/NN Title.ext`; loose files are
/// often named `Artist - Title.ext`. Each name the tags leave empty is taken from here.
package struct PathNames: Sendable, Equatable {
    /// The file name without extension and without a leading track number.
    package var title: String
    /// The grandparent folder, else the part before ` - ` in the file name, else empty.
    package var artist: String
    /// The parent folder, else empty.
    package var album: String
    /// The folders above the file, `/`-joined (empty at the library root). Part of the
    /// album id, so equally named albums in different folders stay apart.
    package var folder: String

    /// Derives the names from a `/`-separated path below the library root.
    package init(relativePath: String) {
        var parts = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let fileName = parts.popLast() ?? relativePath
        folder = parts.joined(separator: "/")
        let stem = Self.removingExtension(fileName)
        var title = Self.removingTrackNumber(stem)
        var artist = ""
        var album = ""
        if parts.count >= 2 {
            artist = parts[parts.count - 2]
            album = parts[parts.count - 1]
        } else {
            album = parts.last ?? ""
            // `Artist - Title.ext`: only when no folder names the artist.
            if let dash = title.range(of: " - ") {
                let left = String(title[..<dash.lowerBound]).trimmingWhitespace()
                let right = String(title[dash.upperBound...]).trimmingWhitespace()
                if !left.isEmpty, !right.isEmpty {
                    artist = left
                    title = right
                }
            }
        }
        self.title = title.isEmpty ? stem : title
        self.artist = artist
        self.album = album
    }

    /// The folder part of a `/`-separated relative path (`A/B` for `A/B/c.mp3`), empty for
    /// a file at the root.
    package static func folderPath(of relativePath: String) -> String {
        guard let slash = relativePath.lastIndex(of: "/") else { return "" }
        return String(relativePath[..<slash])
    }

    /// The extension of the last component of a `/`-separated path, as `NSString`'s
    /// `pathExtension` gives it (`a.tar.gz` → `gz`; none for `.hidden` or `name.`), without
    /// bridging to `NSString` for every track of a library.
    package static func fileExtension(of path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `01 Song.mp3` → `01 Song`; a name that is only an extension (`.mp3`) is kept whole.
    package static func removingExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Strips a leading track number and its separator: `01 Song`, `01. Song`, `1 - Song`,
    /// `03_Song`, `2) Song` all become `Song`. Four or more leading digits are a year or a
    /// catalogue number (`1979 Live`) and are kept, as is a name that would become empty.
    /// (A title that really starts with a short number, `99 Luftballons`, loses it; tags win
    /// over the path whenever they are set.)
    package static func removingTrackNumber(_ stem: String) -> String {
        let characters = Array(stem)
        var index = 0
        while index < characters.count, index < 3, characters[index].isASCII, characters[index].isNumber {
            index += 1
        }
        guard index > 0, index < characters.count else { return stem.trimmingWhitespace() }
        // A fourth digit means a year or a catalogue number, not a track number.
        if characters[index].isNumber { return stem.trimmingWhitespace() }
        let separators: Set<Character> = [" ", "-", ".", "_", ")", "\t"]
        guard separators.contains(characters[index]) else { return stem.trimmingWhitespace() }
        while index < characters.count, separators.contains(characters[index]) { index += 1 }
        let rest = String(characters[index...]).trimmingWhitespace()
        return rest.isEmpty ? stem.trimmingWhitespace() : rest
    }
}
