import Foundation
import Radio
import RadioAPI
import TerminalUI
import TestSupport
import Testing
@testable import mhz

/// The bad-input corpus of issue 3, through the whole seam: whatever comes back (or does
/// not), the adapter throws its typed failure, the front end's one line says what and
/// what to do, nothing crashes and nothing waits past the timeout.
struct BadAnswerTests {
    /// One bad answer, what it must become, and the words the listener reads.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let answers: [DoubanTestServer.Scripted]
        let failure: ServiceFailure
        let words: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "HTML error page",
             answers: [.bytes(Data("<html><body><h1>502 Bad Gateway</h1></body></html>".utf8), contentType: "text/html")],
             failure: .malformed("not JSON: <html><body><h1>502 Bad Gateway</h1></body></html>"),
             words: "Station sent an answer mhz cannot read (not JSON: <html><body><h1>502 Bad Gateway</h1></body></html>) — check that --server and --api (app or web) match the station."),
        Case(name: "truncated JSON", answers: [.bytes(Data(#"{"r":0,"song":[{"sid":"1","url":"#.utf8))],
             failure: .malformed("invalid JSON at top level"),
             words: "Station sent an answer mhz cannot read (invalid JSON at top level) — check that --server and --api (app or web) match the station."),
        Case(name: "wrong types", answers: [.bytes(Data(#"{"r":0,"song":[{"sid":"1","url":"u","like":[1]}]}"#.utf8))],
             failure: .malformed("wrong type at .song[0].like: expected a flag"),
             words: "Station sent an answer mhz cannot read (wrong type at .song[0].like: expected a flag) — check that --server and --api (app or web) match the station."),
        Case(name: "empty body", answers: [.bytes(Data())], failure: .malformed("empty answer"),
             words: "Station sent an answer mhz cannot read (empty answer) — check that --server and --api (app or web) match the station."),
        Case(name: "invalid UTF-8", answers: [.bytes(Data([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x7D]))],
             failure: .malformed("not UTF-8"),
             words: "Station sent an answer mhz cannot read (not UTF-8) — check that --server and --api (app or web) match the station."),
        Case(name: "50 MB body", answers: [.huge(count: 50 << 20)], failure: .malformed("answer larger than 8 MB"),
             words: "Station sent an answer mhz cannot read (answer larger than 8 MB) — check that --server and --api (app or web) match the station."),
        Case(name: "429", answers: Array(repeating: .status(429), count: 3), failure: .busy(429),
             words: "Station is limiting requests (HTTP 429) — mhz waits and tries again; nothing to do."),
        Case(name: "500", answers: [.status(500, body: "Internal Server Error")], failure: .httpStatus(500),
             words: "Station failed (HTTP 500) — the server is having trouble; retrying."),
        Case(name: "502", answers: Array(repeating: .status(502), count: 3), failure: .busy(502),
             words: "Station is busy (HTTP 502) — the server is having trouble; retrying."),
        Case(name: "502 with an HTML page",
             answers: Array(repeating: .status(502, body: "<html><head><title>502 Bad Gateway</title></head><body>"
                 + "<center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>",
                 headers: ["Content-Type": "text/html"]), count: 3),
             failure: .busy(502),
             words: "Station is busy (HTTP 502) — the server is having trouble; retrying."),
        Case(name: "503", answers: Array(repeating: .status(503), count: 3), failure: .busy(503),
             words: "Station is busy (HTTP 503) — the server is having trouble; retrying."),
        Case(name: "in-band error", answers: [.bytes(Data(#"{"r":1,"err":"wrong_version"}"#.utf8))],
             failure: .rejected("wrong_version"),
             words: "Station refused the request (wrong_version) — try another channel, or log in again with `mhz login`."),
    ]

    @Test(arguments: cases)
    func eachBadAnswerIsTypedAndWorded(_ bad: Case) async throws {
        for family in [APIFamily.app, .web] {
            let seam = try await Seam()
            defer { seam.server.stop() }
            let path = family == .app ? "/j/app/radio/people" : "/j/v2/playlist"
            seam.server.script(path, bad.answers)
            let started = ContinuousClock.now
            var caught: ServiceFailure?
            let client = try seam.client(family)
            do {
                _ = try await client.send(Report(type: .new, channel: "0", history: []))
            } catch {
                caught = error
            }
            #expect(caught == bad.failure, "\(family)")
            #expect(ErrorText.describe(.service(try #require(caught))) == bad.words)
            #expect(ContinuousClock.now - started < .seconds(30), "no hang")
            // Transient statuses were retried (three attempts), the rest asked once.
            let expected = RetryPolicyCount.attempts(for: bad.failure)
            #expect(seam.server.calls(to: path).count == expected, "\(family)")
        }
    }

    /// A like answered 503 is tried once here: a try whose answer was lost would have been
    /// recorded, so feedback is tried again only by the radio's outbox, later.
    @Test(arguments: [APIFamily.app, .web])
    func aFeedbackReportIsNotRetriedByTheHTTPLayer(_ family: APIFamily) async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let path = family == .app ? "/j/app/radio/people" : "/j/v2/playlist"
        seam.server.script(path, Array(repeating: .status(503), count: 3))
        let client = try seam.client(family)
        await #expect(throws: ServiceFailure.busy(503)) {
            _ = try await client.send(Report(type: .rate, channel: "0", sid: "7", history: []))
        }
        #expect(seam.server.calls(to: path).map { $0.parameter("type") } == ["r"])
    }

    @Test(arguments: [APIFamily.app, .web])
    func aRefusedConnectionIsUnreachable(_ family: APIFamily) async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let own = try seam.runtime(family)
        // Nothing listens on the discard port on loopback.
        let runtime = RadioRuntime(paths: own.paths, config: own.config, family: family,
                                   baseURL: URL(string: "http://127.0.0.1:9")!, sessionKey: "x", station: nil,
                                   http: own.http)
        let started = ContinuousClock.now
        await #expect {
            try await runtime.stationClient(logger: seam.log.logger).send(Report(type: .new, channel: "0"))
        } throws: { error in
            guard case .unreachable(let detail) = error as? ServiceFailure else { return false }
            return detail.contains("127.0.0.1 port 9")
                && ErrorText.describe(.service(.unreachable(detail)))
                == "Station unreachable (\(detail)) — check --server or your network; retrying."
        }
        #expect(ContinuousClock.now - started < .seconds(30), "no hang")
        #expect(seam.server.calls.isEmpty)
    }

    @Test(arguments: [APIFamily.app, .web])
    func aServerThatNeverAnswersTimesOut(_ family: APIFamily) async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let silent = try SilentListener()
        let timing = try seam.runtime(family, timeout: 1)
        let runtime = RadioRuntime(paths: timing.paths, config: timing.config, family: family, baseURL: silent.url,
                                   sessionKey: "x", station: nil, http: timing.http)
        let started = ContinuousClock.now
        await #expect {
            try await runtime.stationClient(logger: seam.log.logger).send(Report(type: .new, channel: "0"))
        } throws: { error in
            guard case .unreachable(let detail) = error as? ServiceFailure else { return false }
            let words = ErrorText.describe(.service(.unreachable(detail)))
            return (CurlTiming.milliseconds(in: detail) ?? .max) < 5000
                && words == "Station unreachable (\(detail)) — check --server or your network; retrying."
        }
        // Three attempts of one second and two short pauses; the upper bound says "no hang".
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .seconds(3) && elapsed < .seconds(30), "\(elapsed)")
        #expect(silent.drainConnections() == 3, "one connection per attempt")
    }

    @Test func theCommandLineWordsTheSameFailures() {
        let server = "http://127.0.0.1:9"
        let command = StationAsker.command(server: server)
        #expect(ErrorText.describe(.malformed("empty answer"), for: command) ==
            "http://127.0.0.1:9 sent an answer mhz cannot read (empty answer): check that --server and --api (app or web) match the station")
        #expect(ErrorText.describe(.httpStatus(500), for: command) ==
            "http://127.0.0.1:9 failed (HTTP 500): try again later")
        #expect(ErrorText.describe(.httpStatus(404), for: command) ==
            "http://127.0.0.1:9 answered HTTP 404: check --server and --api (app or web)")
        #expect(ErrorText.describe(.busy(503), for: command) == "http://127.0.0.1:9 is busy (HTTP 503): wait a moment, then try again")
        #expect(ErrorText.describe(.expired, for: command) == "login session expired: log in again with `mhz login`")
        #expect(ErrorText.describe(.busy(429), for: command) ==
            "http://127.0.0.1:9 is limiting requests (HTTP 429): wait a minute, then try again")
        #expect(ErrorText.describe(.httpStatus(403), for: command) ==
            "http://127.0.0.1:9 refused access (HTTP 403): log in again with `mhz login`; if you are logged in, "
            + "it may be limiting requests: wait a few minutes")
        #expect(ErrorText.describe(.rejected("wrong_version"), for: command) ==
            "http://127.0.0.1:9 refused the request (wrong_version): check --server and --api (app or web), "
            + "or log in again with `mhz login`")
        #expect(ErrorText.describe(.unreachable("Connection refused"), for: command) ==
            "http://127.0.0.1:9 unreachable (Connection refused): check --server and your network, then try again")
    }

    /// A failure talking to the station is worded once: what happened reads the same on
    /// the command line (named by its URL), on the radio's status line and in the login
    /// dialog (named "Station"); only the advice follows who tries again.
    @Test func aStationFailureReadsTheSameWhoeverAsked() throws {
        let server = "http://fm.example"
        let failures: [ServiceFailure] = [.unreachable("Connection refused"), .untrusted("self-signed certificate"),
                                          .busy(408), .busy(429), .busy(503), .httpStatus(401), .httpStatus(403),
                                          .httpStatus(404), .httpStatus(500), .malformed("not JSON"), .rejected("wrong_version")]
        for failure in failures {
            let radio = ErrorText.describe(failure, for: .radio(loginKey: nil))
            let what = try #require(radio.components(separatedBy: " — ").first)
            #expect(what.hasPrefix("Station "), "\(radio)")
            let command = ErrorText.describe(failure, for: .command(server: server))
            #expect(command.hasPrefix(server + what.dropFirst("Station".count) + ": "), "\(command) / \(radio)")
        }
        for failure: ServiceFailure in [.unreachable("Connection refused"), .untrusted("self-signed certificate"),
                                        .busy(408), .busy(429), .busy(503), .malformed("not JSON")] {
            let radio = ErrorText.describe(failure, for: .radio(loginKey: nil))
            let dialog = ErrorText.describe(login: .service(failure))
            #expect(dialog.components(separatedBy: " — ").first == radio.components(separatedBy: " — ").first,
                    "\(dialog) / \(radio)")
        }
    }

    @Test func forbiddenMayMeanALapsedLoginOrRateLimiting() {
        #expect(ErrorText.describe(.service(.httpStatus(403))) == "Station refused access (HTTP 403) — log in again "
            + "with `mhz login`; if you are logged in, it may be limiting requests: wait a few minutes.")
        #expect(ErrorText.describe(.service(.busy(408))) == "Station timed out waiting for the request (HTTP 408) — "
            + "retrying; check your network if it keeps happening.")
    }
}

/// How many requests the seam makes for a failure with the seam's quick retry policy:
/// a "not now" status is retried by the HTTP layer, nothing else is.
enum RetryPolicyCount {
    static func attempts(for failure: ServiceFailure) -> Int {
        if case .busy = failure { return Seam.quickRetry.maxRetries + 1 }
        return 1
    }
}
