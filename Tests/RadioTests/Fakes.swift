import Foundation
import Synchronization
@testable import Radio
import RadioAPI

/// A station in memory: records every report, answers from a script, and can hold an
/// answer back until released (to prove what does not wait for the network).
final class FakeService: RadioService {
    private struct State {
        var reports: [Report] = []
        var delivered: [Report] = []
        var down = false
        var refuse: Set<String> = []
        var lists: [[Track]] = []
        var held: Set<String> = []
        var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    }
    private let state = Mutex(State())
    let channelList: [ChannelInfo]

    init(channels: [ChannelInfo] = [ChannelInfo(id: "0", name: "Personal")], lists: [[Track]]) {
        channelList = channels
        state.withLock { $0.lists = lists }
    }

    /// Every report that reached the fake, answered or not.
    var reports: [Report] { state.withLock { $0.reports } }
    /// Reports the station accepted (answered), in order.
    var delivered: [Report] { state.withLock { $0.delivered } }
    /// While down, every call fails as unreachable (connection refused).
    func setDown(_ down: Bool) { state.withLock { $0.down = down } }
    /// Reports about this sid are refused in-band (`r:1`), for good.
    func refuse(sid: String) { state.withLock { _ = $0.refuse.insert(sid) } }

    /// Answers to reports of this type wait until `release`.
    func hold(_ type: ReportType) { state.withLock { _ = $0.held.insert(type.rawValue) } }

    func release(_ type: ReportType) {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.held.remove(type.rawValue)
            return s.waiting.removeValue(forKey: type.rawValue) ?? []
        }
        waiters.forEach { $0.resume() }
    }

    func channels() async throws(ServiceFailure) -> [ChannelInfo] {
        if state.withLock({ $0.down }) { throw .unreachable("Connection refused") }
        return channelList
    }

    func send(_ report: Report) async throws(ServiceFailure) -> [Track] {
        let (down, refused) = state.withLock { s -> (Bool, Bool) in
            s.reports.append(report)
            return (s.down, report.sid.map { s.refuse.contains($0) } ?? false)
        }
        if down { throw .unreachable("Connection refused") }
        if refused { throw .rejected("invalid_sid") }
        let key = report.type.rawValue
        if state.withLock({ $0.held.contains(key) }) {
            await withCheckedContinuation { continuation in
                let parked = state.withLock { s -> Bool in
                    guard s.held.contains(key) else { return false }
                    s.waiting[key, default: []].append(continuation)
                    return true
                }
                if !parked { continuation.resume() }
            }
        }
        state.withLock { $0.delivered.append(report) }
        guard report.type.expectsList else { return [] }
        return state.withLock { $0.lists.isEmpty ? [] : $0.lists.removeFirst() }
    }
}

/// A player in memory, shaped like mpv's playlist: one current item and at most one queued
/// after it. Records loads, queued URLs and commands; tests push its events.
final class FakePlayer: AudioPlayer {
    private struct State {
        var loads: [String] = []
        var loadGains: [Double?] = []
        var queueGains: [Double?] = []
        var played: [String] = []
        var starts: [Double] = []
        var queues: [String] = []
        var commands: [String] = []
        var next: Int64 = 1
        var current: AudioPlayerItemID?
        var queued: (id: AudioPlayerItemID, url: String, start: Double)?
        var refused: Set<String> = []
        var livePosition: AudioPlayerPosition?
    }
    private let state = Mutex(State())
    let events: AsyncStream<AudioPlayerEvent>
    private let continuation: AsyncStream<AudioPlayerEvent>.Continuation

    init() { (events, continuation) = AsyncStream.makeStream() }

    /// URLs given to `load`, in order.
    var loads: [String] { state.withLock { $0.loads } }
    /// URLs that became current, by `load` or by `advance`, in order.
    var played: [String] { state.withLock { $0.played } }
    /// The start position of each item in `played`.
    var starts: [Double] { state.withLock { $0.starts } }
    /// URLs given to `queueNext`, in order.
    var queues: [String] { state.withLock { $0.queues } }
    /// The gain given with each of `loads`, in order.
    var loadGains: [Double?] { state.withLock { $0.loadGains } }
    /// The gain given with each of `queues`, in order.
    var queueGains: [Double?] { state.withLock { $0.queueGains } }
    /// The URL queued now, if any.
    var queuedURL: String? { state.withLock { $0.queued?.url } }
    /// The id of the item queued now.
    var queuedItem: AudioPlayerItemID? { state.withLock { $0.queued?.id } }
    /// Control commands (`advance`, `clearQueued`, `pause`, `stop`…), in order.
    var commands: [String] { state.withLock { $0.commands } }

    /// Whether an item is current (playing or loading).
    var isPlaying: Bool { state.withLock { $0.current != nil } }

    /// `load` of this URL throws, as mpv refusing the command would.
    func refuseLoads(of url: String) { state.withLock { _ = $0.refused.insert(url) } }

    func load(_ url: String, startAt: Double) throws(PlayerFailure) -> AudioPlayerItemID {
        try load(url, startAt: startAt, gain: nil)
    }

    func load(_ url: String, startAt: Double, gain: Double?) throws(PlayerFailure) -> AudioPlayerItemID {
        if state.withLock({ $0.refused.contains(url) }) { throw .loadFailed("refused by the fake") }
        return state.withLock { s in
            s.loads.append(url)
            s.loadGains.append(gain)
            s.played.append(url)
            s.starts.append(startAt)
            s.queued = nil
            defer { s.next += 1 }
            s.current = AudioPlayerItemID(s.next)
            return AudioPlayerItemID(s.next)
        }
    }

    func queueNext(_ url: String, startAt: Double) throws(PlayerFailure) -> AudioPlayerItemID {
        try queueNext(url, startAt: startAt, gain: nil)
    }

    func queueNext(_ url: String, startAt: Double, gain: Double?) throws(PlayerFailure) -> AudioPlayerItemID {
        state.withLock { s in
            s.queues.append(url)
            s.queueGains.append(gain)
            defer { s.next += 1 }
            if s.current == nil {
                // As mpv's `append-play`: queued on an idle player, it starts at once.
                s.current = AudioPlayerItemID(s.next)
                s.played.append(url)
                s.starts.append(startAt)
            } else {
                s.queued = (AudioPlayerItemID(s.next), url, startAt)
            }
            return AudioPlayerItemID(s.next)
        }
    }

    func clearQueued() { state.withLock { $0.commands.append("clearQueued"); $0.queued = nil } }

    func advance() throws(PlayerFailure) -> AudioPlayerItemID {
        let next = state.withLock { s -> AudioPlayerItemID? in
            s.commands.append("advance")
            guard let queued = s.queued else { return nil }
            s.played.append(queued.url)
            s.starts.append(queued.start)
            s.current = queued.id
            s.queued = nil
            return queued.id
        }
        guard let next else { throw .loadFailed("nothing queued") }
        return next
    }

    /// The id of the item playing now (the last loaded or advanced to).
    var lastItem: AudioPlayerItemID { state.withLock { $0.current ?? AudioPlayerItemID(0) } }

    /// Moves on to the queued item as mpv does at a natural end: `finished(eof)` for the
    /// current item, and the queued one becomes current. Returns the new current id.
    @discardableResult
    func endNaturally() -> AudioPlayerItemID? {
        let (ended, next) = state.withLock { s -> (AudioPlayerItemID?, AudioPlayerItemID?) in
            let ended = s.current
            s.current = s.queued?.id
            if let queued = s.queued { s.played.append(queued.url); s.starts.append(queued.start) }
            s.queued = nil
            return (ended, s.current)
        }
        if let ended { emit(.finished(ended, .eof)) }
        return next
    }

    func emit(_ event: AudioPlayerEvent) { continuation.yield(event) }

    func pause() { state.withLock { $0.commands.append("pause") } }
    func resume() { state.withLock { $0.commands.append("resume") } }
    func seek(_ target: RadioCommand.Seek) { state.withLock { $0.commands.append("seek \(target)") } }
    func setVolume(_ percent: Int) { state.withLock { $0.commands.append("volume \(percent)") } }
    func stop() { state.withLock { $0.commands.append("stop"); $0.queued = nil; $0.current = nil } }

    /// What `position` answers: set by a test as mpv's `time-pos` would move.
    var livePosition: AudioPlayerPosition? {
        get { state.withLock { $0.livePosition } }
        set { state.withLock { $0.livePosition = newValue } }
    }

    var position: AudioPlayerPosition? { livePosition }
}
