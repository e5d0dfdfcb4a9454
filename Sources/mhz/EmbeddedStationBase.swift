import Foundation
import Store

/// Keeps "restart resumes the song" working across the change of how mhz reaches its
/// embedded station.
///
/// The embedded station's songs are its files (`file://…`), which stay where they are from
/// one run to the next. An mhz that served the embedded station over HTTP saved songs as
/// `http://127.0.0.1:<port>/media/<sid>.<ext>` and recorded that root under
/// ``settingKey``; nothing listens there any more. On the first run after, the last saved
/// position is moved from such a URL to the song's file, so it resumes instead of failing;
/// then the record is forgotten. Positions saved against a `--server` are left alone.
enum EmbeddedStationBase {
    /// The `setting` row in which an mhz serving the embedded station over HTTP recorded
    /// its root.
    static let settingKey = "embedded.base_url"

    /// Moves the last saved position from the recorded HTTP root to the file `resolve`
    /// names for its song id, if it was saved there, and forgets the record.
    ///
    /// - Parameter resolve: the file of a song id in the embedded station's library, nil
    ///   for a song it no longer has (the position is then left as it is, and fails to
    ///   load like any vanished song: the radio fetches a fresh list).
    /// - Returns: the position's URL after the move, if one was moved (for the log).
    @discardableResult
    static func adopt(store: MhzDatabase, resolve: (String) -> URL?) throws(StoreError) -> String? {
        guard let previous = try store.setting(settingKey).map(root) else { return nil }
        var moved: String?
        if var last = try store.lastPosition(), let sid = songID(last.url, under: previous), let file = resolve(sid) {
            last.url = file.absoluteString
            // Same sid, same saved_at: the row stays the last position, only its URL changes.
            try store.savePosition(last)
            moved = last.url
        }
        try store.setSetting(settingKey, nil)
        return moved
    }

    /// The song id of a media URL under `root` (`<root>/media/<sid>.<ext>`), else nil.
    static func songID(_ url: String, under root: String) -> String? {
        let prefix = root + "/media/"
        guard url.hasPrefix(prefix) else { return nil }
        let name = url.dropFirst(prefix.count)
        guard !name.contains("/"), let dot = name.lastIndex(of: ".") else { return nil }
        let sid = name[..<dot]
        return sid.isEmpty ? nil : String(sid)
    }

    /// A base URL without trailing slashes, so `http://h:1/` and `http://h:1` compare equal.
    private static func root(_ text: String) -> String {
        var text = text
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
