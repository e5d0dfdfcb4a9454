import Foundation
import RadioAPI
@testable import Station
import TestSupport
import Testing

/// The station answered in-process (`Station.respond`), as `mhz` asks its embedded station:
/// the same bytes as over HTTP for the same request, except that song and cover links are
/// the files themselves, and the request is observed like one from the network.
@Suite("In-process answers")
struct InProcessAnswerTests {
    @Test func theSameAnswersAsOverHTTPWithFileLinks() async throws {
        let observed = Locked<[String]>([])
        try await StationFixtures.withDemoStation(onRequest: { request in observed.withLock { $0.append(request.path) } }) { station, base in
            // The channel list: byte for byte.
            let overHTTP = try await HTTPFetch.get(base, "/j/app/radio/channels")
            let inProcess = await station.respond(method: "GET", path: "/j/app/radio/channels", query: nil)
            #expect(inProcess == StationReply(status: 200, contentType: "application/json; charset=utf-8", body: overHTTP.body))

            // A list: every song's url is its file, which exists; covers likewise.
            let reply = await station.respond(method: "GET", path: "/j/app/radio/people",
                                              query: "app_name=radio_android&version=100&channel=0&type=n&sid=")
            #expect(reply.status == 200)
            let playlist = try APIDecoder.playlist(reply.body, for: .new)
            #expect(playlist.songs.count == 5)
            for song in playlist.songs {
                let url = try #require(URL(string: song.url))
                #expect(url.isFileURL && FileManager.default.fileExists(atPath: url.path), "\(song.url)")
                #expect(station.mediaFile(sid: song.sid) == url)
                if !song.picture.isEmpty {
                    let cover = try #require(URL(string: song.picture))
                    #expect(cover.isFileURL && FileManager.default.fileExists(atPath: cover.path), "\(song.picture)")
                }
            }
            // Reports and refusals in-band, as over HTTP.
            let sid = try #require(playlist.songs.first?.sid)
            let ack = await station.respond(method: "GET", path: "/j/app/radio/people",
                                            query: "app_name=radio_android&version=100&channel=0&type=e&sid=\(sid)")
            #expect(String(decoding: ack.body, as: UTF8.self) == #"{"r":0}"#)
            let liked = await station.respond(method: "GET", path: "/j/app/radio/people",
                                              query: "app_name=radio_android&version=100&channel=0&type=r&sid=\(sid)")
            let likedList = try APIDecoder.playlist(liked.body, for: .rate)
            #expect(likedList.songs.count == 5 && likedList.songs.allSatisfy { URL(string: $0.url)?.isFileURL == true })
            let refused = await station.respond(method: "GET", path: "/j/app/radio/people",
                                                query: "app_name=radio_android&version=100&channel=0&type=b")
            #expect(String(decoding: refused.body, as: UTF8.self) == #"{"err":"missing_sid","r":1}"#)

            // A login from the form body, as the HTTP route reads it.
            try await Station.addUser(name: "inproc", password: "secret", cost: 4,
                                      dataDirectory: station.configuration.dataDirectory)
            let login = await station.respond(method: "POST", path: "/j/app/login", query: nil,
                                              body: Data("app_name=radio_android&version=100&username=inproc&password=secret".utf8))
            let credentials = try APIDecoder.appLogin(login.body)
            #expect(credentials.userName == "inproc")

            // What the station does not answer in-process.
            let missing = await station.respond(method: "GET", path: "/media/\(sid).wav", query: nil)
            #expect(missing == StationReply(status: 404, contentType: "application/json; charset=utf-8",
                                            body: Data(#"{"err":"not_found","r":1}"#.utf8)))
            #expect(observed.withLock { $0 }.suffix(5) == ["/j/app/radio/people", "/j/app/radio/people",
                                                           "/j/app/radio/people", "/j/app/login", "/media/\(sid).wav"])
        }
    }

    /// mhz asking its embedded station without an account is the machine's owner: its trash
    /// is learned, so the song stays out of every later list (a trash from an anonymous
    /// client over the network is kept to its own answer).
    @Test func theOwnersTrashIsLearned() async throws {
        try await StationFixtures.withDemoStation { station, _ in
            let query = "app_name=radio_android&version=100&channel=0&kbps=64"
            func sids(_ type: String, _ sid: String = "") async throws -> [String] {
                let reply = await station.respond(method: "GET", path: "/j/app/radio/people",
                                                  query: query + "&type=\(type)&sid=\(sid)")
                return try APIDecoder.playlist(reply.body, for: .new).songs.map(\.sid)
            }
            let trashed = try #require(try await sids("n").first)
            var heard = try await sids("b", trashed)
            for _ in 0..<20 { heard += try await sids("n") }
            #expect(heard.count == 21 * 5)
            #expect(!heard.contains(trashed), "the owner's trashed \(trashed) came back")
        }
    }
}
