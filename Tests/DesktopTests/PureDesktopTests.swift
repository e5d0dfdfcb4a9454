@testable import Desktop
import Foundation
import Radio
import Testing

/// Where the session bus is, and what a song's notification says: pure functions.
@Suite struct PureDesktopTests {
    @Test func theSessionAddressComesFromTheEnvironment() {
        #expect(SessionBusAddress.resolve(environment: [:]) == nil)
        #expect(SessionBusAddress.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]) == "unix:path=/run/user/1000/bus")
        #expect(SessionBusAddress.resolve(environment: ["XDG_RUNTIME_DIR": "/tmp/a b,c"]) == "unix:path=/tmp/a%20b%2cc/bus")
        #expect(SessionBusAddress.resolve(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:abstract=x",
                                                        "XDG_RUNTIME_DIR": "/run/user/1000"]) == "unix:abstract=x")
        #expect(SessionBusAddress.resolve(environment: ["DBUS_SESSION_BUS_ADDRESS": ""]) == nil)
    }

    @Test func aSongsNotificationArguments() {
        let song = MPRISPropertiesTests.song
        let cover = URL(fileURLWithPath: "/tmp/covers/1402.jpg")
        #expect(SongNotification(track: song, coverFile: cover).arguments(replacing: 12) == [
            .string("mhz"), .uint32(12), .string("/tmp/covers/1402.jpg"), .string("Blue in Green"),
            .string("Miles Davis\nKind of Blue"), .strings([]),
            .dictionary([BusEntry("image-path", .string("file:///tmp/covers/1402.jpg"))]), .int32(-1),
        ])
        var single = song
        single.album = ""
        #expect(SongNotification(track: single, coverFile: nil).arguments(replacing: 0) == [
            .string("mhz"), .uint32(0), .string(""), .string("Blue in Green"), .string("Miles Davis"), .strings([]),
            .dictionary([]), .int32(-1),
        ])
    }
}
