import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The routes of ``DoubanTestServer``: Douban's answers as docs/PROTOCOL.md records them, as
/// literal JSON so the client's decoders are checked against text they did not write.
extension DoubanTestServer {
    static func addRoutes(to router: Router<BasicRequestContext>, state: Locked<State>) {
        func route(_ method: HTTPRequest.Method, _ path: String,
                   _ answer: @escaping @Sendable (Call, Locked<State>) -> Response) {
            router.on(RouterPath(path), method: method) { request, _ in
                let call = state.withLock { $0.calls.last { $0.path == request.uri.path } }
                if let scripted = state.withLock({ state -> Scripted? in
                    guard var queue = state.scripts[request.uri.path], !queue.isEmpty else { return nil }
                    let next = queue.removeFirst()
                    state.scripts[request.uri.path] = queue
                    return next
                }) {
                    return try await respond(scripted)
                }
                guard let call else { return Response(status: .internalServerError) }
                return answer(call, state)
            }
        }
        route(.get, "/j/app/radio/channels") { _, _ in json(channels) }
        route(.get, "/j/app/radio/people") { call, state in appPlaylist(call, state: state) }
        // A station without the list of liked songs: a web server's 404 page. Routed so a
        // test can script the list's pages.
        route(.get, "/j/app/radio/liked_songs") { _, _ in
            Response(status: .notFound, headers: [.contentType: "text/html"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: "<html><body><h1>Not Found</h1></body></html>")))
        }
        route(.post, "/j/app/login") { call, _ in appLogin(call) }
        route(.get, "/j/new_captcha") { _, _ in
            json("\"\(Account.captchaID)\"", cookies: ["bid=\(Account.browserID); path=/"])
        }
        route(.get, "/misc/captcha") { call, _ in
            guard call.parameter("id") == Account.captchaID else { return Response(status: .notFound) }
            // The start of a JPEG: enough for a file to be recognisable, not a real image.
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0xFF, 0xD9]
            return Response(status: .ok, headers: [.contentType: "image/jpeg"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: jpeg)))
        }
        route(.post, "/j/login") { call, _ in webLogin(call) }
        route(.get, "/j/v2/playlist") { call, state in webPlaylist(call, state: state) }
        route(.get, "/partner/logout") { call, state in
            guard call.parameter("ck") == Account.check, call.parameter("source") == "radio",
                  call.parameter("no_login") == "y", call.cookies["dbcl2"] != nil
            else { return Response(status: .ok) }
            state.withLock { $0.webLoggedOut = true }
            let gone = "expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/"
            return json("", cookies: ["dbcl2=\"\"; \(gone)", "ck=\"\"; \(gone)"])
        }
        route(.get, "/media/:file") { _, state in
            let seconds = state.value.mediaSeconds
            return Response(status: .ok, headers: [.contentType: "audio/wav"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: silentWAV(seconds: seconds))))
        }
    }

    /// How a playlist names a song's audio: under the base set with `serveMedia(from:)`, else
    /// on the host the request was sent to.
    static func mediaURL(_ call: Call, state: Locked<State>) -> @Sendable (String) -> String {
        let base = state.value.mediaBase ?? "http://\(call.headers["host"] ?? "127.0.0.1")"
        return { sid in "\(base)/media/\(sid).wav" }
    }

    static let channels = #"{"channels":[{"name":"私人兆赫","seq_id":0,"abbr_en":"My","channel_id":0,"name_en":"Personal Radio"},{"name":"华语","seq_id":1,"abbr_en":"CH","channel_id":"1","name_en":"Chinese"}]}"#

    static func song(_ sid: String, _ title: String, url: String, subtype: String = "", like: String = "0",
                     length: Int = 30) -> String {
        #"{"album":"/subject/\#(sid)/","picture":"","ssid":"e1b2","artist":"Test Artist","url":"\#(url)","company":"","title":"\#(title)","rating_avg":4.1,"length":\#(length),"subtype":"\#(subtype)","public_time":"2013","sid":"\#(sid)","aid":"\#(sid)","kbps":"64","albumtitle":"Test Album","like":\#(like)}"#
    }

    static func appPlaylist(_ call: Call, state: Locked<State>) -> Response {
        let media = mediaURL(call, state: state)
        let length = state.value.songLength
        func song(_ sid: String, _ title: String, url: String, subtype: String = "", like: String = "0") -> String {
            Self.song(sid, title, url: url, subtype: subtype, like: like, length: length)
        }
        guard let type = call.parameter("type"), ["n", "p", "e", "s", "b", "r", "u"].contains(type) else {
            return json(#"{"r":1,"err":"invalid_type"}"#)
        }
        let credentials = call.parameter("token") != nil || call.parameter("user_id") != nil
        if credentials {
            guard state.value.sessionsValid, call.parameter("token") == Account.token,
                  call.parameter("user_id") == Account.userID, call.parameter("expire") == Account.expire
            else { return json(#"{"r":1,"err":"expired"}"#) }
        }
        if type != "n", (call.parameter("sid") ?? "").isEmpty { return json(#"{"r":1,"err":"missing_sid"}"#) }
        if type == "e" { return json(#"{"r":0}"#) }
        if call.parameter("channel") == "-3", !credentials {
            return json(#"{"r":0,"warning":"user_is_ananymous","is_show_quick_start":1,"song":[]}"#)
        }
        let songs = credentials
            ? [song("201", "Logged One", url: media("201"), like: "1"), song("202", "Logged Two", url: media("202")),
               song("203", "Logged Three", url: media("203"))]
            : [song("da60222_43", "An Advertisement", url: media("ad"), subtype: "T"),
               song("101", "Anonymous One", url: media("101")), song("102", "Anonymous Two", url: media("102")),
               song("103", "Anonymous Three", url: media("103"))]
        let logout = credentials ? "" : #","logout":1"#
        return json(#"{"r":0,"version_max":100\#(logout),"song":[\#(songs.joined(separator: ","))]}"#)
    }

    static func appLogin(_ call: Call) -> Response {
        guard call.field("app_name")?.isEmpty == false, call.field("version") == "100" else {
            return json(#"{"r":1,"err":"wrong_version"}"#)
        }
        if let email = call.field("email"), email != Account.email { return json(#"{"r":1,"err":"invalidate_email"}"#) }
        if let name = call.field("username"), name != Account.name { return json(#"{"r":1,"err":"invalid_user_name"}"#) }
        guard call.field("email") != nil || call.field("username") != nil else {
            return json(#"{"r":1,"err":"invalidate_email"}"#)
        }
        guard call.field("password") == Account.password else { return json(#"{"r":1,"err":"wrong_password"}"#) }
        return json(#"{"user_id":"\#(Account.userID)","err":"ok","token":"\#(Account.token)","expire":"\#(Account.expire)","r":0,"user_name":"\#(Account.name)","email":"\#(Account.email)"}"#)
    }

    static func webLogin(_ call: Call) -> Response {
        guard call.cookies["bid"] == Account.browserID, call.field("captcha_id") == Account.captchaID,
              call.field("captcha_solution") == Account.captchaSolution
        else { return json(#"{"err_no":1011,"r":1,"err_msg":"验证码不正确"}"#) }
        // 1012 is this server's own number for a wrong password; no source records Douban's.
        guard [Account.email, Account.name].contains(call.field("alias") ?? ""),
              call.field("form_password") == Account.password
        else { return json(#"{"err_no":1012,"r":1,"err_msg":"帐号和密码不匹配"}"#) }
        let later = "expires=Wed, 21 Oct 2037 07:28:00 GMT; path=/"
        return json(
            #"{"user_info":{"ck":"\#(Account.check)","play_record":{"fav_chls_count":2,"liked":58,"banned":44,"played":1715},"is_new_user":0,"uid":"\#(Account.name)","third_party_info":null,"url":"http:\/\/www.douban.com\/people\/\#(Account.name)\/","is_dj":false,"id":"\#(Account.userID)","is_pro":false,"name":"\#(Account.name)"},"r":0}"#,
            cookies: ["dbcl2=\"\(Account.sessionCookie)\"; \(later); httponly", "ck=\(Account.check); \(later)",
                      "fmNlogin=\"y\"; path=/"])
    }

    static func webPlaylist(_ call: Call, state: Locked<State>) -> Response {
        let media = mediaURL(call, state: state)
        let length = state.value.songLength
        func song(_ sid: String, _ title: String, url: String, subtype: String = "", like: String = "0") -> String {
            Self.song(sid, title, url: url, subtype: subtype, like: like, length: length)
        }
        let current = state.value
        let loggedIn = call.cookies["dbcl2"] == "\"\(Account.sessionCookie)\"" && current.sessionsValid
            && !current.webLoggedOut
        if call.parameter("type") == "e" { return json("\"ok\"") }
        if !loggedIn, call.parameter("channel") == "-3" {
            return json(#"{"r":0,"warning":"user_is_ananymous","is_show_quick_start":1,"song":[]}"#)
        }
        if loggedIn {
            let songs = [song("301", "Web Logged One", url: media("301")), song("302", "Web Logged Two", url: media("302"))]
            return json(#"{"r":0,"is_show_quick_start":0,"version_max":102,"song":[\#(songs.joined(separator: ","))]}"#)
        }
        let songs = [song("401", "Web Anonymous One", url: media("401")), song("402", "Web Anonymous Two", url: media("402"))]
        return json(#"{"warning":"user_is_ananymous","r":0,"is_show_quick_start":0,"version_max":102,"song":[\#(songs.joined(separator: ","))]}"#)
    }

    static func json(_ text: String, cookies: [String] = []) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func respond(_ scripted: Scripted) async throws -> Response {
        switch scripted {
        case .status(let code, let body, let extra):
            var headers: HTTPFields = [:]
            for (name, value) in extra { if let field = HTTPField.Name(name) { headers[field] = value } }
            return Response(status: .init(code: code), headers: headers,
                            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        case .bytes(let data, let contentType):
            return Response(status: .ok, headers: [.contentType: contentType],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        case .huge(let count):
            let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 1 << 20)
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: ResponseBody(contentLength: count) { writer in
                                var left = count
                                while left > 0 {
                                    let n = min(left, chunk.readableBytes)
                                    try await writer.write(chunk.getSlice(at: 0, length: n)!)
                                    left -= n
                                }
                                try await writer.finish(nil)
                            })
        }
    }

    /// A mono 8 kHz 16-bit WAV of silence.
    static func silentWAV(seconds: Int) -> [UInt8] {
        let rate: UInt32 = 8000
        let dataSize = rate * 2 * UInt32(seconds)
        var bytes: [UInt8] = []
        func word(_ v: UInt32) { bytes += withUnsafeBytes(of: v.littleEndian, Array.init) }
        func half(_ v: UInt16) { bytes += withUnsafeBytes(of: v.littleEndian, Array.init) }
        bytes += Array("RIFF".utf8); word(36 + dataSize); bytes += Array("WAVEfmt ".utf8)
        word(16); half(1); half(1); word(rate); word(rate * 2); half(2); half(16)
        bytes += Array("data".utf8); word(dataSize)
        bytes += [UInt8](repeating: 0, count: Int(dataSize))
        return bytes
    }
}
