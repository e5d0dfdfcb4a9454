import Recommender
import StationStorage
import Testing
import TestSupport

/// The profiles of web browsers without an account (`bid:<id>`): anyone can name a browser
/// id, so only ``ListenerProfiles/browserCapacity`` of them stay in memory.
@Suite("Browser profiles")
struct BrowserProfilesTests {
    @Test("a client naming a new browser id with every request keeps at most browserCapacity of them in memory")
    func boundedBrowsers() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-browser-profiles")
        defer { data.remove() }
        let profiles = try ListenerProfiles(database: try StationDatabase(directory: data.url), logger: .init(label: "test"))
        _ = try await profiles.profile(for: ListenerProfiles.key(userID: "1"))
        _ = try await profiles.profile(for: ListenerProfiles.anonymous)
        let flood = ListenerProfiles.browserCapacity + 88
        for index in 0..<flood {
            _ = try await profiles.profile(for: ListenerProfiles.key(browserID: "invented\(index)"))
            #expect(profiles.browsersInMemory == min(index + 1, ListenerProfiles.browserCapacity))
        }
        #expect(profiles.browsersInMemory == ListenerProfiles.browserCapacity)
        #expect(ListenerProfiles.key(browserID: "Xr3h8V5aLkQ") == "bid:Xr3h8V5aLkQ")
    }
}
