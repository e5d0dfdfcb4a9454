import Foundation

/// What the UI knows about the cover: the file it was told to show, the drawing under
/// way and the last one finished. Plain values and no threads, so `TerminalApp` can keep
/// it under its lock and the rules can be tested alone.
///
/// The rules: at most one drawing runs at a time (a resize drag must not start a chafa
/// per step); a drawing is only shown while it is for the current file and size; and the
/// area is kept free only while a cover may still come, so a file that cannot be drawn
/// gives back the plain layout instead of a hole.
struct CoverState: Sendable {
    /// One drawing: which file, at which size.
    struct Request: Sendable, Equatable {
        /// The image file.
        var file: URL
        /// Cells across.
        var columns: Int
        /// Cells down.
        var rows: Int
    }

    /// The file to show; nil when the song has no cover.
    private(set) var file: URL?
    /// The drawing started and not yet finished.
    private(set) var inFlight: Request?
    /// The last drawing finished, with its art (nil when it failed).
    private(set) var finished: (request: Request, art: CoverArt?)?
    /// Bumped whenever what is drawn may change: a new file or a drawing finished.
    private(set) var revision = 0

    /// Takes `file` as the cover to show. The old art stops showing at once, so a song
    /// without a cover does not keep the last one's.
    mutating func show(_ file: URL?) {
        guard file != self.file else { return }
        self.file = file
        revision &+= 1
    }

    /// The drawing to start now for a cover in `area`, marked as under way; nil when none
    /// is needed (no file, no area, this one already drawn) or another one still runs.
    mutating func start(for area: CoverArea?) -> Request? {
        guard let request = request(for: area), inFlight == nil, finished?.request != request else { return nil }
        inFlight = request
        return request
    }

    /// Records the end of `request`'s drawing.
    mutating func finish(_ request: Request, art: CoverArt?) {
        if inFlight == request { inFlight = nil }
        finished = (request, art)
        revision &+= 1
    }

    /// The art to draw in `area`: the finished drawing when it is for the current file
    /// and this size.
    func art(for area: CoverArea?) -> CoverArt? {
        guard let request = request(for: area), let finished, finished.request == request else { return nil }
        return finished.art
    }

    /// Whether the screen should keep `area` free: a file is set and its last drawing,
    /// at any size, did not fail — a failure (chafa missing, a broken file) is not worth
    /// a blank block while another size is tried.
    func reserves(_ area: CoverArea?) -> Bool {
        guard let file, area != nil else { return false }
        if let finished, finished.request.file == file, finished.art == nil { return false }
        return true
    }

    private func request(for area: CoverArea?) -> Request? {
        guard let file, let area else { return nil }
        return Request(file: file, columns: area.columns, rows: area.rows)
    }
}
