import Companions
import Downloads

/// A download event as one JSON line, the same for `mhz download --json` and headless
/// stdout: `{"event":"download","id","state","bytes","total","rate","path","title","artist","sid","error"}`
/// (`total`, `sid` and `error` are null when unknown or none).
enum DownloadJSON {
    /// The line (without the newline).
    static func line(_ task: DownloadTask) -> String {
        let record = task.record
        let object: [String: EventValue] = [
            "event": .string(EventName.download.rawValue),
            "id": .number(Double(task.id)),
            "state": .string(task.state.name),
            "bytes": .number(Double(task.bytes)),
            "total": task.total.map { .number(Double($0)) } ?? .null,
            "rate": .number(task.rate.rounded()),
            "path": .string(record.path),
            "title": .string(record.title),
            "artist": .string(record.artist),
            "sid": record.sid.map { .string($0) } ?? .null,
            "error": DownloadText.reason(task).map { .string($0) } ?? .null,
        ]
        return EventJSON.serialize(object)
    }
}
