@testable import Desktop
import Foundation
import Radio
import Testing
import TestSupport

/// Notifications through a real bus to a notification server played by the test.
@Suite(.serialized) struct SongNotifierTests {
    static let first = Track(sid: "1", title: "So What", artist: "Miles Davis", album: "Kind of Blue",
                             length: 545, url: "https://example.com/1.mp3")
    static let second = Track(sid: "2", title: "Naima", artist: "John Coltrane", album: "Giant Steps",
                              length: 261, url: "https://example.com/2.mp3")

    @Test func eachSongReplacesTheNotificationBefore() async throws {
        let daemon = try await PrivateBus()
        defer { daemon.stop() }
        let server = try NotificationResponder(bus: daemon, firstID: 7001)
        defer { server.stop() }
        let bus = try DesktopBus.open(address: daemon.address, timeout: .seconds(20))
        defer { bus.close() }
        let notifier = SongNotifier(bus: bus)
        let cover = URL(fileURLWithPath: "/tmp/mhz covers/2.jpg")

        // Each update once the one before was answered: a Notify sent while another waits
        // for its id is held back and only the newest held back goes (a test of its own).
        notifier.update(RadioSnapshot(track: Self.first, position: 0), coverFile: nil)
        try await Self.settle(notifier)
        // The same song again (its clock moved): nothing new to say.
        notifier.update(RadioSnapshot(track: Self.first, position: 1), coverFile: nil)
        try await Self.settle(notifier)
        notifier.update(RadioSnapshot(track: Self.second), coverFile: nil)
        try await Self.settle(notifier)
        // Its cover arrived after it started: the notification is replaced with one showing it.
        notifier.update(RadioSnapshot(track: Self.second, position: 1), coverFile: cover)
        try await Self.settle(notifier)
        notifier.update(RadioSnapshot(track: Self.second, position: 2), coverFile: cover)
        try await Self.settle(notifier)
        let calls = try await server.waitForCalls(3)
        #expect(calls.count == 3)
        #expect(calls[0] == [.string("mhz"), .uint32(0), .string(""), .string("So What"),
                             .string("Miles Davis\nKind of Blue"), .strings([]), .dictionary([]), .int32(-1)])
        #expect(calls[1] == [.string("mhz"), .uint32(7001), .string(""), .string("Naima"),
                             .string("John Coltrane\nGiant Steps"), .strings([]), .dictionary([]), .int32(-1)])
        #expect(calls[2] == [.string("mhz"), .uint32(7002), .string("/tmp/mhz covers/2.jpg"), .string("Naima"),
                             .string("John Coltrane\nGiant Steps"), .strings([]),
                             .dictionary([BusEntry("image-path", .string("file:///tmp/mhz%20covers/2.jpg"))]),
                             .int32(-1)])
    }

    @Test func notificationsSentWhileOneAwaitsItsIdCollapseToTheNewest() async throws {
        let daemon = try await PrivateBus()
        defer { daemon.stop() }
        let server = try NotificationResponder(bus: daemon, firstID: 500)
        defer { server.stop() }
        let bus = try DesktopBus.open(address: daemon.address, timeout: .seconds(20))
        defer { bus.close() }
        let notifier = SongNotifier(bus: bus)
        var third = Self.second
        third.sid = "3"
        third.title = "Giant Steps"
        // The first one's answer is held until the others are sent: without the hold, a
        // quick answer lets the second go before the third is asked for.
        server.holdAnswers()
        notifier.notify(Self.first, coverFile: nil)
        _ = try await server.waitForCalls(1)
        #expect(notifier.isWaitingForReply)
        notifier.notify(Self.second, coverFile: nil)
        notifier.notify(third, coverFile: nil)
        server.releaseAnswers()
        try await Self.settle(notifier)
        let calls = try await server.waitForCalls(2)
        #expect(calls.count == 2)
        #expect(calls.map { $0[3] } == [.string("So What"), .string("Giant Steps")])
        #expect(calls.map { $0[1] } == [.uint32(0), .uint32(500)])
    }

    /// Waits until no Notify of `notifier` awaits its reply.
    static func settle(_ notifier: SongNotifier) async throws {
        try await waitUntil("a Notify's reply", within: .seconds(20)) { !notifier.isWaitingForReply }
    }

    @Test func withoutANotificationServerNothingHangsAndLaterOnesStillGo() async throws {
        let daemon = try await PrivateBus()
        defer { daemon.stop() }
        let bus = try DesktopBus.open(address: daemon.address, timeout: .seconds(20))
        defer { bus.close() }
        let notifier = SongNotifier(bus: bus)
        let started = ContinuousClock.now
        notifier.notify(Self.first, coverFile: nil)
        notifier.notify(Self.second, coverFile: nil)
        // Nothing hangs on the missing server (the daemon answers ServiceUnknown): a bound
        // for a loaded machine, below the bus's 20 s answer timeout.
        #expect(ContinuousClock.now - started < .seconds(10))
        // The bus daemon answers ServiceUnknown to both; the notifier keeps going.
        try await Self.settle(notifier)
        #expect(bus.isOpen)
        let server = try NotificationResponder(bus: daemon, firstID: 40)
        defer { server.stop() }
        notifier.notify(Self.first, coverFile: nil)
        let calls = try await server.waitForCalls(1)
        // Nothing was ever shown, so nothing is replaced.
        #expect(calls[0][1] == .uint32(0))
        #expect(calls[0][3] == .string("So What"))
    }
}
