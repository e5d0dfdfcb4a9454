import Foundation
import Testing
import TestSupport
@testable import HTTP

/// HTTPClient.download against Hummingbird's Range-capable file server: the exact request
/// headers, the bytes in the file, and what is refused.
@Suite(.serialized)
struct FileDownloadTests {
    let folder: TemporaryDirectory
    let body: Data

    init() throws {
        folder = try TemporaryDirectory(prefix: "mhz-http-download")
        // Bytes that are not all alike, so an offset error shows.
        body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        try body.write(to: folder.path("blob.bin"))
    }

    func open(_ name: String, with prefix: Data = Data()) throws -> Int32 {
        let path = folder.path(name).path
        FileManager.default.createFile(atPath: path, contents: prefix)
        let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        return fd
    }

    @Test func firstAPlainGETThenARangeForTheRestAndTheFileIsWhole() async throws {
        let server = try await StaticFileServer(root: folder.url)
        defer { server.stop() }
        let client = HTTPClient(configuration: HTTPConfiguration(retry: .never))
        let fd = try open("out.bin")
        defer { close(fd) }
        let whole = try await client.download(FileDownload(request: HTTPRequest(url: server.url("blob.bin")),
                                                           descriptor: fd, resumeOffset: 0))
        #expect(whole.status == 200 && whole.wroteFile && whole.written == Int64(body.count))
        #expect(whole.expectedLength == Int64(body.count))
        let resumedFD = try open("resumed.bin", with: body.prefix(123_456))
        defer { close(resumedFD) }
        let rest = try await client.download(FileDownload(request: HTTPRequest(url: server.url("blob.bin")),
                                                          descriptor: resumedFD, resumeOffset: 123_456))
        #expect(rest.status == 206)
        #expect(rest.written == Int64(body.count - 123_456))
        #expect(rest.fileLength(resumedFrom: 123_456) == Int64(body.count))
        #expect(rest.expectedLength == Int64(body.count))
        #expect(!rest.restartedFromZero)
        let requests = server.recorder.all
        #expect(requests.map(\.path) == ["/blob.bin", "/blob.bin"])
        #expect(requests[0].headers["range"] == nil)
        #expect(requests[1].headers["range"] == "bytes=123456-")
        // Byte offsets must be the file's: no compressed transfer is offered.
        #expect(requests.allSatisfy { $0.headers["accept-encoding"] == nil })
        #expect(FileManager.default.contents(atPath: folder.path("out.bin").path) == body)
        #expect(FileManager.default.contents(atPath: folder.path("resumed.bin").path) == body)
    }

    @Test func aFullDiskStopsTheTransferWithENOSPC() async throws {
        let server = try await StaticFileServer(root: folder.url)
        defer { server.stop() }
        // /dev/full: "writes to it fail with ENOSPC" (full(4)).
        let fd = Glibc.open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let client = HTTPClient(configuration: HTTPConfiguration(retry: .never))
        await #expect(throws: HTTPError.fileWrite(errno: ENOSPC)) {
            try await client.download(FileDownload(request: HTTPRequest(url: server.url("blob.bin")), descriptor: fd,
                                                   resumeOffset: 0))
        }
    }

    @Test func aMissingFileIsAnswerNotAFileAndNothingIsWritten() async throws {
        let server = try await StaticFileServer(root: folder.url)
        defer { server.stop() }
        let fd = try open("missing.bin", with: Data("kept".utf8))
        defer { close(fd) }
        let client = HTTPClient(configuration: HTTPConfiguration(retry: .never))
        let answer = try await client.download(FileDownload(request: HTTPRequest(url: server.url("nothing.bin")),
                                                            descriptor: fd, resumeOffset: 4))
        #expect(answer.status == 404)
        #expect(!answer.wroteFile && answer.written == 0)
        #expect(FileManager.default.contents(atPath: folder.path("missing.bin").path) == Data("kept".utf8))
    }

    @Test func contentRangeIsParsedStrictly() {
        #expect(ContentRange("bytes 100-199/1000") == ContentRange("bytes 100-199/1000"))
        #expect(ContentRange("bytes 100-199/1000")?.first == 100)
        #expect(ContentRange("bytes 100-199/1000")?.total == 1000)
        #expect(ContentRange("bytes 0-9/*")?.total == nil)
        #expect(ContentRange("bytes */1000") == nil)
        #expect(ContentRange("bytes 200-100/1000") == nil)
        #expect(ContentRange("bytes 0-1000/1000") == nil)
        #expect(ContentRange("items 0-1/2") == nil)
    }

    @Test func aByteRangeIsAskedWithItsEndAndContinuedInsideIt() async throws {
        let server = try await StaticFileServer(root: folder.url)
        defer { server.stop() }
        let client = HTTPClient(configuration: HTTPConfiguration(retry: .never))
        // Bytes 1000...60999 of the resource, 20 000 of which are already in the file.
        let fd = try open("range.bin", with: body[1000..<21_000])
        defer { close(fd) }
        let result = try await client.download(FileDownload(request: HTTPRequest(url: server.url("blob.bin")),
                                                            descriptor: fd, resumeOffset: 20_000, byteRange: 1000...60_999))
        #expect(result.status == 206 && result.wroteFile && !result.sliced)
        #expect(result.written == 40_000)
        #expect(result.fileLength(resumedFrom: 20_000) == 60_000)
        #expect(server.recorder.all.map { $0.headers["range"] } == ["bytes=21000-60999"])
        #expect(FileManager.default.contents(atPath: folder.path("range.bin").path) == body[1000...60_999])
    }

    @Test func aServerIgnoringRangesHasTheByteRangeCutOutOfItsWholeAnswer() async throws {
        let server = try FaultyMediaServer(root: folder.url)
        defer { server.stop() }
        server.script("/blob.bin") { _, _ in .ignoreRange }
        let client = HTTPClient(configuration: HTTPConfiguration(retry: .never))
        let fd = try open("sliced.bin", with: body[5000..<5100])
        defer { close(fd) }
        let result = try await client.download(FileDownload(request: HTTPRequest(url: URL(string: server.url("blob.bin"))!),
                                                            descriptor: fd, resumeOffset: 100, byteRange: 5000...104_999))
        #expect(result.status == 200 && result.wroteFile && result.sliced && !result.restartedFromZero)
        #expect(result.written == 99_900)
        #expect(result.fileLength(resumedFrom: 100) == 100_000)
        #expect(server.requests.map(\.rangeStart) == [5100])
        // Exactly the range: not the 300 000 bytes the server sent.
        #expect(FileManager.default.contents(atPath: folder.path("sliced.bin").path) == body[5000...104_999])
    }

    @Test func aPartialAnswerReachingPastTheByteRangeIsRefused() async throws {
        let server = try FaultyMediaServer(root: folder.url)
        defer { server.stop() }
        // Answers 206 from byte 7000 to the end when 7000...7999 was asked.
        server.script("/blob.bin") { _, _ in .misplacedRange(start: 7000) }
        let client = HTTPClient(configuration: HTTPConfiguration(retry: .never))
        let fd = try open("past.bin")
        defer { close(fd) }
        await #expect(throws: HTTPError.rangeMismatch(answered: "bytes 7000-299999/300000")) {
            _ = try await client.download(FileDownload(request: HTTPRequest(url: URL(string: server.url("blob.bin"))!),
                                                       descriptor: fd, resumeOffset: 0, byteRange: 6000...6999))
        }
    }
}
