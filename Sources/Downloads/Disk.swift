import Foundation

/// The few file-system calls the fetchers share, with their failures in the downloads
/// layer's words.
enum Disk {
    /// `mkdir -p`: 0, or the `errno` of the step that failed (so a read-only disk says so).
    static func makeDirectories(_ path: String) -> Int32 {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o755) != 0, errno != EEXIST { return errno }
        }
        return 0
    }

    /// The length of the file at `path`, or nil when there is none.
    static func size(of path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// The length of the open file `descriptor`.
    static func size(of descriptor: Int32) -> Int64 {
        var info = stat()
        _ = fstat(descriptor, &info)
        return Int64(info.st_size)
    }

    /// A file-system failure at `path` as a task's reason.
    static func error(errno code: Int32, path: String) -> DownloadError {
        switch code {
        case ENOSPC, EDQUOT, EFBIG: .diskFull(path: path)
        case EROFS, EACCES, EPERM: .notWritable(path: path)
        default: .fileSystem(path: path, detail: String(cString: strerror(code)))
        }
    }
}
