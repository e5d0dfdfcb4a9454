@testable import Desktop
import Foundation
import Testing
import TestSupport

/// Opening and closing the connection, against a private dbus-daemon and against nothing.
@Suite(.serialized) struct DesktopBusTests {
    @Test func aMissingSocketFailsAtOnceWithATypedError() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-nobus")
        let address = "unix:path=\(directory.path("bus").path)"
        let started = ContinuousClock.now
        #expect(throws: DesktopError.connectionFailed(address: address, errno: ENOENT)) {
            try DesktopBus.open(address: address, timeout: .seconds(60))
        }
        // At once means without waiting out the answer timeout: well under its 60 s.
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func aSocketNobodyListensOnIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-nobus")
        let path = directory.path("bus").path
        // A bound socket that never listens: connect(2) says ECONNREFUSED.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            path.utf8CString.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        #expect(throws: DesktopError.connectionFailed(address: "unix:path=\(path)", errno: ECONNREFUSED)) {
            try DesktopBus.open(address: "unix:path=\(path)")
        }
        // Found through the runtime directory, the same socket is no session bus at all.
        #expect(throws: DesktopError.noSessionBus) {
            try DesktopBus.open(environment: ["XDG_RUNTIME_DIR": directory.url.path])
        }
    }

    @Test func noSessionBusInTheEnvironment() throws {
        #expect(throws: DesktopError.noSessionBus) { try DesktopBus.open(environment: [:]) }
        let directory = try TemporaryDirectory(prefix: "mhz-nobus")
        #expect(throws: DesktopError.noSessionBus) {
            try DesktopBus.open(environment: ["XDG_RUNTIME_DIR": directory.url.path])
        }
    }

    @Test func anAddressThatIsNotDBusIsRefused() {
        // sd-bus tries each address it can parse and reports having reached none.
        #expect(throws: DesktopError.connectionFailed(address: "nonsense", errno: ECONNREFUSED)) {
            try DesktopBus.open(address: "nonsense")
        }
    }

    @Test func opensOnARealBusAndCloses() async throws {
        let daemon = try await PrivateBus()
        defer { daemon.stop() }
        let bus = try DesktopBus.open(address: daemon.address, timeout: .seconds(20))
        #expect(bus.uniqueName.hasPrefix(":1."))
        #expect(bus.address == daemon.address)
        #expect(bus.isOpen)
        #expect(bus.drain())
        bus.close()
        #expect(!bus.isOpen)
        #expect(!bus.drain())
        bus.close()
    }

    @Test func theSessionBusFromTheEnvironmentParameter() async throws {
        let daemon = try await PrivateBus()
        defer { daemon.stop() }
        let bus = try DesktopBus.open(environment: ["DBUS_SESSION_BUS_ADDRESS": daemon.address], timeout: .seconds(20))
        defer { bus.close() }
        #expect(bus.address == daemon.address)
    }

    @Test func theBusGoingAwayClosesTheConnection() async throws {
        let daemon = try await PrivateBus()
        defer { daemon.stop() }
        let bus = try DesktopBus.open(address: daemon.address, timeout: .seconds(20))
        defer { bus.close() }
        daemon.stop()
        #expect(await eventually { !bus.isOpen })
    }
}
