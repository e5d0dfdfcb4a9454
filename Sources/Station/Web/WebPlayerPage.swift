/// The web player: `GET /` answers its HTML, which links its stylesheet and its scripts, each
/// a file of its own under `/web/` (Sources/Station/Web/Page: player.html, player.css,
/// player.js and player-live.js, its live channels' part, built into the binary by the
/// EmbedWebPage plugin as ``WebPageFiles``); its icon
/// is a 32×32 PNG data URI in the HTML, so a browser asks for no `/favicon.ico`. Nothing is
/// fetched from another host, and nothing is written into the files as they are served: what
/// the script needs from the station it asks for as JSON. It speaks the web family the
/// station serves (docs/PROTOCOL.md §3.3, §5.2, §10) from the browser, as a Douban web client
/// did.
///
/// The stable hooks (for tests and for people who script the page): one `<audio>`;
/// `data-channel="<id>"` on each entry that tunes in a channel; `data-action="toggle|skip|like|
/// trash|rewind|forward|golive"` on the controls; `data-live="<id>"` on each entry that tunes
/// in a channel's live broadcast (docs/PROTOCOL.md §11); `data-field="live"` says how far
/// behind the live edge the sound is (`LIVE` at it, `Not answering` while the station does
/// not answer); `data-field="title|artist|album"` on now playing; `#status` says
/// what the page is waiting for (a login, the station coming back).
enum WebPlayerPage {
    /// The HTML document, at `/`.
    static let document = WebAsset(path: "/", contentType: "text/html; charset=utf-8", text: WebPageFiles.playerHtml)
    /// Its stylesheet.
    static let style = WebAsset(path: "/web/player.css", contentType: "text/css; charset=utf-8", text: WebPageFiles.playerCss)
    /// Its script.
    static let script = WebAsset(path: "/web/player.js", contentType: "text/javascript; charset=utf-8", text: WebPageFiles.playerJs)
    /// Its script's live channels (loaded before ``script``, it only declares).
    static let liveScript = WebAsset(path: "/web/player-live.js", contentType: "text/javascript; charset=utf-8",
                                     text: WebPageFiles.playerLiveJs)

    /// Every file of the page, each at its path.
    static let assets: [WebAsset] = [document, style, liveScript, script]
}
