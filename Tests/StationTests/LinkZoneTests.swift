import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport

/// Links a station hands out never carry an IPv6 zone: the zone of a link-local `--host`
/// (`fe80::1%eth0`) names an interface of the station's own host (RFC 6874), so a link's
/// host is the address alone.
@Suite("Link zones")
struct LinkZoneTests {
    @Test("the bound root loses its zone, and nothing else: %25 or a bare %, with or without a port, IPv4 and names untouched")
    func withoutZone() {
        #expect(StationRouter.withoutZone("http://[fe80::1%25eth0]:6000") == "http://[fe80::1]:6000")
        #expect(StationRouter.withoutZone("https://[fe80::fc:ff:fe00:1%eth0]:443") == "https://[fe80::fc:ff:fe00:1]:443")
        #expect(StationRouter.withoutZone("http://[fe80::1%25wl%2Dp0]") == "http://[fe80::1]")
        #expect(StationRouter.withoutZone("http://[::1]:6000") == "http://[::1]:6000")
        #expect(StationRouter.withoutZone("http://127.0.0.1:6000") == "http://127.0.0.1:6000")
        #expect(StationRouter.withoutZone("http://radio.local:6000") == "http://radio.local:6000")
        #expect(StationRouter.linkBase(authority: nil, scheme: "http", fallback: { "http://[fe80::1%25eth0]:7" })
            == "http://[fe80::1]:7")
        #expect(StationRouter.linkBase(authority: "[fe80::1]:7", scheme: "http", fallback: { "unused" }) == "http://[fe80::1]:7")
    }

    /// A link-local address of this machine and its interface, from the kernel's list
    /// (`/proc/net/if_inet6`: scope 20 is the link's); `nil` on a machine without one.
    static let linkLocal: (address: String, interface: String)? = {
        guard let table = try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8) else { return nil }
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 6, fields[3] == "20", fields[0].utf8.count == 32 else { continue }
            let hex = Array(fields[0])
            let groups = stride(from: 0, to: 32, by: 4).map { String(hex[$0..<($0 + 4)]) }
            return (groups.joined(separator: ":"), String(fields[5]))
        }
        return nil
    }()

    @Test("the root URL of any host the system resolved builds: wildcards as loopback, IPv6 bracketed with its zone, a name a URL cannot hold escaped")
    func rootOfAnyHost() {
        #expect(Station.rootURL(host: "0.0.0.0", port: 7650).absoluteString == "http://127.0.0.1:7650")
        #expect(Station.rootURL(host: "::", port: 7650, secure: true).absoluteString == "https://[::1]:7650")
        #expect(Station.rootURL(host: "fe80::1%eth0", port: 6000).absoluteString == "http://[fe80::1%25eth0]:6000")
        #expect(Station.rootURL(host: "radio.lan", port: 80).absoluteString == "http://radio.lan:80")
        #expect(Station.rootURL(host: "my radio", port: 80).absoluteString == "http://my%20radio:80")
    }

    @Test("a station bound to a link-local address with its zone hands out song and cover links without the zone",
          .enabled(if: LinkZoneTests.linkLocal != nil, "needs a link-local IPv6 address"))
    func songLinksOverHTTP() async throws {
        let (address, interface) = try #require(Self.linkLocal)
        let data = try await StationFixtures.freshDataDirectory()
        var configuration = StationConfiguration(library: nil, dataDirectory: data.url, host: "\(address)%\(interface)",
                                                 seed: 7, rescanInterval: nil)
        configuration.analysesSound = false
        let station = try await Station(configuration: configuration)
        let root = try await station.start()
        try await withCleanup {
            let port = try #require(root.port)
            // The station's own root keeps the zone: on its host, the zone is meaningful.
            #expect(root.absoluteString == "http://[\(address)%25\(interface)]:\(port)")
            // A Host the station does not echo (it holds a `%`) leaves the links to the bound root.
            let people = "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n"
            let answer = try await HTTPFetch.get(try #require(URL(string: root.absoluteString + people)),
                                                 headers: ["Host": "[\(address)%25\(interface)]:\(port)"])
            let songs = try APIDecoder.playlist(answer.body, for: .new).songs
            #expect(!songs.isEmpty)
            for song in songs {
                #expect(song.url.hasPrefix("http://[\(address)]:\(port)/media/"), "\(song.url)")
                #expect(song.picture.hasPrefix("http://[\(address)]:\(port)/cover/"), "\(song.picture)")
            }
        } cleanup: {
            await station.stop()
        }
        withExtendedLifetime(data) {}
    }
}
