import Foundation
import Store

/// Keeps "restart resumes the song" working with the embedded station.
///
/// Why: the embedded station binds a new ephemeral port on every run, and the song URLs it
/// hands out carry that port (`http://127.0.0.1:<port>/media/<sid>.mp3`). The position saved
/// in one run names the previous run's port, where nothing listens any more: reloaded as it
/// is, the song would fail and be lost. So every embedded run records its base URL, and the
/// next one moves the last saved position from the old base onto its own before the radio
/// starts. Positions saved against a `--server` are left alone: their URLs do not change.
enum EmbeddedStationBase {
    /// The `setting` row holding the last embedded run's base URL.
    static let settingKey = "embedded.base_url"

    /// Records `base` as the embedded station's root for this run and rebases the last saved
    /// position if it was saved against the previous run's root.
    ///
    /// - Returns: the position's URL after the move, if one was moved (for the log).
    @discardableResult
    static func adopt(_ base: URL, store: MhzDatabase) throws(StoreError) -> String? {
        let current = root(base.absoluteString)
        let previous = try store.setting(settingKey).map(root)
        var moved: String?
        if let previous, previous != current, var last = try store.lastPosition(),
           let rebased = rebase(last.url, from: previous, to: current) {
            last.url = rebased
            // Same sid, same saved_at: the row stays the last position, only its URL changes.
            try store.savePosition(last)
            moved = rebased
        }
        try store.setSetting(settingKey, current)
        return moved
    }

    /// `url` with the root `from` replaced by `to`; nil unless `url` lies under `from`.
    static func rebase(_ url: String, from: String, to: String) -> String? {
        guard url.hasPrefix(from + "/") else { return nil }
        return to + url.dropFirst(from.count)
    }

    /// A base URL without trailing slashes, so `http://h:1/` and `http://h:1` compare equal.
    private static func root(_ text: String) -> String {
        var text = text
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
