import Foundation
import Hummingbird
import MusicLibrary

/// Serves cover images to Hummingbird's `FileMiddleware` at `/cover/<16 hex>.<ext>`, the
/// songs' `picture` URLs. Like ``MediaFileProvider``, no part of a request path becomes a
/// file system path: only names the ``CoverStore`` makes and a track of the current
/// library uses are served, from the store's folder, and the covers the station draws for
/// albums without one (``DrawnCover``).
struct CoverFileProvider: FileProvider {
    /// The absolute path of the image in the cover store.
    typealias FileIdentifier = String
    /// Size and date, as for media.
    typealias FileAttributes = MediaFileProvider.FileAttributes

    /// The library served: only covers its tracks use are served.
    let library: LiveLibrary
    /// Where the images are kept.
    let covers: CoverStore
    private let fileIO = FileIO()

    /// Creates a provider over the library being served and its cover store.
    init(library: LiveLibrary, covers: CoverStore) {
        self.library = library
        self.covers = covers
    }

    /// Maps `/<name>` (the path after `/cover`) to the stored image, or `nil` for anything
    /// else.
    func getFileIdentifier(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        let name = String(path.dropFirst())
        if let albumID = DrawnCover.albumID(inFileName: name) {
            // Drawn on first request, for an album of the library that has no cover.
            guard let track = library.snapshot.tracks.first(where: { $0.aid == albumID && $0.cover.isEmpty }) else {
                return nil
            }
            return DrawnCover.file(for: track, in: covers)?.path
        }
        guard library.snapshot.hasCover(name), let file = covers.file(named: name) else { return nil }
        return file.path
    }

    /// Reads the image's size and date; `nil` (404) when it is missing.
    func getAttributes(id: String) async throws -> FileAttributes? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: id),
              (attributes[.type] as? FileAttributeType) == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue
        else { return nil }
        let date = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
        return FileAttributes(size: size, modificationDate: date)
    }

    /// The whole image.
    func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        try await fileIO.loadFile(path: id, context: context)
    }

    /// A byte range of the image.
    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await fileIO.loadFile(path: id, range: range, context: context)
    }

    /// Content-Types by extension, for the middleware.
    static var mediaTypes: [String: MediaType] {
        CoverStore.mediaTypes.compactMapValues { MediaType(from: $0) }
    }
}
