import Foundation
import Radio
import RadioAPI
import TestSupport
import Testing
@testable import StationLink
@testable import mhz

/// `mhz download --liked`: every page of `/j/app/radio/liked_songs` from a station that has
/// it (the real `mhz serve`), the red-heart channel from one that does not (a 404, or a web
/// page in its place), with the exact requests each sends.
struct LikedSongsDownloadTests {
    typealias Account = DoubanTestServer.Account

    @Test func everyPageOfTheRealStationsLikedSongsNewestFirstThenTheBuiltClientDownloadsThemAll() async throws {
        let station = try await ServedStation(songs: 5)
        let seam = try await Seam(base: station.url)
        // Nobody logged in: the list needs a login, as the red-heart channel does.
        await #expect(throws: ServiceFailure.needsLogin(channel: Channel.redHeartID)) {
            try await seam.client(.app).likedSongs(count: 2, excluding: [])
        }
        let session = try await seam.logIn(.app, prompter: ScriptedPrompter(accountName: ServedStation.user,
                                                                           passwordText: ServedStation.password))
        let credentials = try #require(session.app)
        let client = try seam.client(.app)

        // Five songs of the personal channel, liked in this order.
        var sids: [String] = []
        var report = Report(type: .new, channel: "0")
        for _ in 0..<20 where sids.count < 5 {
            for track in try await client.send(report) where !sids.contains(track.sid) { sids.append(track.sid) }
            report = Report(type: .playing, channel: "0", sid: sids.last, playedTime: 0)
        }
        try #require(sids.count == 5)
        for sid in sids { _ = try await client.send(Report(type: .rate, channel: "0", sid: sid, playedTime: 0)) }

        let before = station.requests.count
        let listing = try #require(try await LikedSongs.all(client: client, limit: nil, pageSize: 2))
        #expect(listing.complete)
        let liked = listing.tracks
        #expect(liked.map(\.sid) == sids.reversed())
        #expect(liked.allSatisfy { $0.url.hasSuffix("/media/\($0.sid).flac") }, "\(liked.map(\.url))")
        let identity = "app_name=radio_android&version=100&user_id=\(credentials.userID)&expire=\(credentials.expire)"
            + "&token=\(credentials.token)"
        let newest = sids.reversed().map { $0 }
        #expect(Array(station.requests.dropFirst(before)) == [
            "/j/app/radio/liked_songs?\(identity)&count=2&format=original",
            "/j/app/radio/liked_songs?\(identity)&count=2&exclude=\(newest[0])%7C\(newest[1])&format=original",
            "/j/app/radio/liked_songs?\(identity)&count=2&exclude=\(newest[0...3].joined(separator: "%7C"))&format=original",
            // A page shorter than asked need not be the last (a station may give fewer than
            // asked): the end is a page with nothing new.
            "/j/app/radio/liked_songs?\(identity)&count=2&exclude=\(newest.joined(separator: "%7C"))&format=original",
        ])
        // With a limit, the last page asks only for what is missing.
        let three = station.requests.count
        #expect(try await LikedSongs.all(client: client, limit: 3, pageSize: 2)?.tracks.map(\.sid) == Array(newest[0...2]))
        #expect(Array(station.requests.dropFirst(three)) == [
            "/j/app/radio/liked_songs?\(identity)&count=2&format=original",
            "/j/app/radio/liked_songs?\(identity)&count=1&exclude=\(newest[0])%7C\(newest[1])&format=original",
        ])

        // The built client, as a listener runs it: one page holds them all, no red-heart list,
        // and each song's original.
        let run = station.requests.count
        let download = try await BuiltMhz.run(["download", "--liked", "--json", "--server", station.url.absoluteString,
                                             "--data-dir", seam.data.url.path], home: seam.data.url)
        #expect(download.status == 0, "\(download.stderr)")
        let requests = Array(station.requests.dropFirst(run))
        #expect(requests.filter { $0.hasPrefix("/j/") } == [
            "/j/app/radio/liked_songs?\(identity)&count=500&format=original",
            "/j/app/radio/liked_songs?\(identity)&count=500&exclude=\(newest.joined(separator: "%7C"))&format=original",
        ])
        #expect(Set(requests.filter { $0.hasPrefix("/media/") }) == Set(sids.map { "/media/\($0).flac" }))
        #expect(Set(StationQualityTests.completed(download.stdout))
            == Set((1...5).map { seam.data.path("downloads/Tone - Song \($0).flac").path }))
        #expect(try await station.stop() == 0)
    }

    /// The fake station has no liked_songs route (a 404): the built client falls back to the
    /// red-heart channel's lists, `n` then `p` until three answers bring nothing new.
    @Test func aStationWithoutTheListGetsTheRedHeartChannelInstead() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.app)
        let download = try await BuiltMhz.run(["download", "--liked", "--json", "--server", seam.server.baseURL.absoluteString,
                                             "--data-dir", seam.data.url.path], home: seam.data.url)
        #expect(download.status == 0, "\(download.stderr)")
        let identity = "app_name=radio_android&version=100&user_id=\(Account.userID)&expire=\(Account.expire)&token=\(Account.token)"
        let api = seam.server.calls.filter { $0.path.hasPrefix("/j/app/radio/") }.map { "\($0.path)?\($0.rawQuery)" }
        #expect(api == [
            "/j/app/radio/liked_songs?\(identity)&count=500&format=original",
            "/j/app/radio/people?\(identity)&channel=-3&type=n&sid=&format=original",
        ] + Array(repeating: "/j/app/radio/people?\(identity)&channel=-3&type=p&sid=203&pt=0.0&format=original", count: 3))
        #expect(Set(seam.server.calls.filter { $0.path.hasPrefix("/media/") }.map(\.path))
            == ["/media/201.wav", "/media/202.wav", "/media/203.wav"])
        #expect(StationQualityTests.completed(download.stdout).count == 3)
    }

    /// Each page's request names the songs already read, so it grows: paging stops before
    /// a request would pass 8 KiB, keeps what it read, and says so in one line.
    @Test func pagingStopsBeforeTheRequestGrowsTooLongAndKeepsWhatItRead() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.app)
        let long = String(repeating: "7", count: 4_100)
        let page = (1...2).map { #"{"sid":"\#($0)\#(long)","title":"Long \#($0)","artist":"a","url":"http://127.0.0.1/\#($0).wav"}"# }
        seam.server.script("/j/app/radio/liked_songs", [.bytes(Data(#"{"r":0,"songs":[\#(page.joined(separator: ","))]}"#.utf8)),
                                                        .bytes(Data(#"{"r":0,"songs":[]}"#.utf8))])
        let listing = try #require(try await LikedSongs.all(client: try seam.client(.app), limit: nil, pageSize: 2))
        #expect(listing == LikedSongs.Listing(tracks: listing.tracks, complete: false))
        #expect(listing.tracks.map(\.sid) == ["1\(long)", "2\(long)"])
        // The next page would exclude both sids, 8 205 bytes with the `|` between them: not sent.
        #expect(seam.server.calls(to: "/j/app/radio/liked_songs").count == 1)
        #expect(LikedSongs.notice(listing) == "downloading the 2 most recently liked songs: the station pages its list by the "
            + "songs already read, and asking past them would take a request longer than a station accepts")
        #expect(LikedSongs.notice(LikedSongs.Listing(tracks: [], complete: true)) == nil)
    }

    /// A web page where the list would be (a captive portal, a site's own 404 page, with
    /// status 200 or 404) is a station without the list too.
    @Test(arguments: [200, 404])
    func aWebPageInPlaceOfTheListIsNoList(status: Int) async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.app)
        seam.server.script("/j/app/radio/liked_songs", [.status(status, body: "<!DOCTYPE html><html><body>Not here</body></html>",
                                                                headers: ["Content-Type": "text/html"])])
        #expect(try await LikedSongs.all(client: try seam.client(.app), limit: nil) == nil)
        #expect(seam.server.calls(to: "/j/app/radio/liked_songs").count == 1)
    }
}
