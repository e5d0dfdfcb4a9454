import Synchronization

/// What the station remembers about each listener's feedback: the songs they trashed
/// (`b`, never to be played to them again) and the songs they gave a red heart (`r`,
/// cleared by `u`). Keyed by listener: the `user_id` of a request with credentials, else
/// ``anonymous``, which all anonymous clients share.
///
/// In memory for now, so it lasts as long as the station; accounts will move it into the
/// station's database.
final class ListenerMemory: Sendable {
    /// The key of requests that carry no credentials.
    static let anonymous = "anonymous"

    /// One listener's feedback.
    struct Feedback: Sendable, Equatable {
        /// Trashed song ids.
        var trashed: Set<String> = []
        /// Liked song ids, oldest like first (the red-heart channel's natural order).
        var liked: [String] = []

        /// Whether `sid` carries a red heart.
        func likes(_ sid: String) -> Bool { liked.contains(sid) }
    }

    private let listeners = Mutex<[String: Feedback]>([:])

    /// Creates an empty memory.
    init() {}

    /// Records a trash: the song never comes back to this listener.
    func trash(_ sid: String, for listener: String) {
        listeners.withLock { _ = $0[listener, default: Feedback()].trashed.insert(sid) }
    }

    /// Records a red heart; liking an already liked song changes nothing.
    func like(_ sid: String, for listener: String) {
        listeners.withLock { all in
            if !all[listener, default: Feedback()].liked.contains(sid) {
                all[listener, default: Feedback()].liked.append(sid)
            }
        }
    }

    /// Removes a red heart, if there was one.
    func unlike(_ sid: String, for listener: String) {
        listeners.withLock { all in
            all[listener]?.liked.removeAll { $0 == sid }
        }
    }

    /// A copy of one listener's feedback (empty for a listener never seen).
    func feedback(for listener: String) -> Feedback {
        listeners.withLock { $0[listener] ?? Feedback() }
    }
}
