import Foundation
import MusicLibrary

/// The web player `GET /` answers: one HTML document with its style, script and icon (a
/// 32×32 PNG data URI, so a browser asks for no `/favicon.ico`) inline, built once from the
/// three parts below, nothing fetched from another host. It speaks the web
/// family the station serves (docs/PROTOCOL.md §3.3, §5.2, §10) from the browser, as a Douban
/// web client did.
///
/// The stable hooks (for tests and for people who script the page): one `<audio>`;
/// `data-channel="<id>"` on each entry that tunes in a channel; `data-action="toggle|skip|like|
/// trash|rewind|forward|golive"` on the controls; `data-live="<id>"` on each entry that tunes
/// in a channel's live broadcast (docs/PROTOCOL.md §11); `data-field="live"` says how far
/// behind the live edge the sound is (`LIVE` at it, `Not answering` while the station does
/// not answer); `data-field="title|artist|album"` on now playing; `#status` says
/// what the page is waiting for (a login, the station coming back).
enum WebPlayerPage {
    /// The whole document, UTF-8.
    static let body: Data = Data(document.utf8)

    /// A strong validator of ``body``: the same bytes give the same tag, across restarts
    /// and stations, so a browser revalidates with `If-None-Match` and gets a 304.
    static let etag: String = {
        let hash = TrackIdentity.hash(bytes: body)
        return "\"" + String(hash, radix: 16) + "-" + String(body.count, radix: 16) + "\""
    }()

    /// The document: ``markup`` with ``style`` and ``script`` (with ``liveScript`` in it) inline.
    static let document: String =
        markup
            .replacingOccurrences(of: "/*STYLE*/", with: style)
            .replacingOccurrences(of: "/*SCRIPT*/", with: script.replacingOccurrences(of: "/*LIVE*/", with: liveScript))

    /// The HTML, with `/*STYLE*/` and `/*SCRIPT*/` where the other two parts go.
    private static let markup = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>mhz</title>
    <link rel="icon" type="image/png" sizes="32x32" href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAA+0lEQVR42s1XwQ3DIAzMnxE8RBeJ1EkYgVfffLpCxugSjNBI/XUIChVINCKKTSE20kkIId9hbLCni7lOREDAHKADTIJOa0C1RyGNRC7AH8ClvdBDgAqwCNI92GSjSUB06foHecaabJEE6A7EW2isgBHkuyJqbveDMe8JUJ3uHBMTqibAnkBeZsePADiRPANKAYZqQC83f38sX8R5gwBTCnAU4uf75bcjrhGFuCwAKORHgygCSKlXO3nNE5SURD88mNM3eEGjAzAGG3bEvdhAFCGA/QrYg5A9DdkfIhFPMftnxP4diyhI2EsyEUWpiLJcRGMiojUT0ZwOb88/gICcXmMq6BoAAAAASUVORK5CYII=">
    <style>/*STYLE*/</style>
    </head>
    <body>
    <header>
      <h1>mhz</h1>
      <p id="status" role="status" aria-live="polite"></p>
      <div id="account">
        <span id="who"></span>
        <button type="button" id="login-open">Log in</button>
        <button type="button" id="logout" hidden>Log out</button>
      </div>
    </header>
    <form id="login" hidden>
      <h2>Log in to the station</h2>
      <label>Name or e-mail <input name="alias" autocomplete="username" required></label>
      <label>Password <input name="form_password" type="password" autocomplete="current-password" required></label>
      <img id="captcha" alt="The captcha: type the letters it shows" width="220" height="40">
      <label>Letters in the picture <input name="captcha_solution" autocomplete="off" required></label>
      <p id="login-error" role="alert"></p>
      <div class="row">
        <button type="submit">Log in</button>
        <button type="button" id="captcha-new">Another picture</button>
        <button type="button" id="login-cancel">Cancel</button>
      </div>
    </form>
    <noscript><p>The web player needs JavaScript. Any Douban FM client, or mhz in a terminal, plays from this station too.</p></noscript>
    <main>
      <nav aria-labelledby="channels-title">
        <h2 id="channels-title">Channels</h2>
        <ul id="channels"></ul>
        <h2 id="live-title">Live</h2>
        <p id="live-note" hidden></p>
        <ul id="live"></ul>
      </nav>
      <section id="player" aria-labelledby="now-title">
        <h2 id="now-title">Now playing</h2>
        <div id="now">
          <img id="cover" alt="" width="240" height="240">
          <div id="meta">
            <p data-field="title" id="title">Choose a channel</p>
            <p data-field="artist" id="artist"></p>
            <p data-field="album" id="album"></p>
            <p id="reason"></p>
          </div>
        </div>
        <div id="progress">
          <span id="elapsed">0:00</span>
          <div id="bar" role="progressbar" aria-label="Song progress" aria-valuemin="0" aria-valuemax="0" aria-valuenow="0"><div></div></div>
          <span id="length">0:00</span>
          <span id="live-at" data-field="live" hidden></span>
        </div>
        <div id="controls">
          <button type="button" data-action="toggle" aria-keyshortcuts="Space" disabled>Pause</button>
          <button type="button" data-action="skip" aria-keyshortcuts="n" disabled>Skip</button>
          <button type="button" data-action="like" aria-keyshortcuts="l" aria-pressed="false" disabled>♥ Like</button>
          <button type="button" data-action="trash" aria-keyshortcuts="b" disabled>Trash</button>
        </div>
        <div id="live-controls" class="row" hidden>
          <button type="button" data-action="rewind" aria-keyshortcuts="ArrowLeft" aria-label="Back 30 seconds">−30 s</button>
          <button type="button" data-action="forward" aria-keyshortcuts="ArrowRight" aria-label="Ahead 30 seconds">+30 s</button>
          <button type="button" data-action="golive" aria-label="Back to live">Live</button>
        </div>
        <p class="keys">Keys: space pause, n skip, l like, b trash; on a live channel ← and → 30 s back and ahead</p>
        <audio preload="auto"></audio>
      </section>
      <section id="lyrics-box" aria-labelledby="lyrics-title" hidden>
        <h2 id="lyrics-title">Lyrics</h2>
        <ol id="lyrics"></ol>
      </section>
      <section id="visit-box" aria-labelledby="visit-title">
        <h2 id="visit-title">This visit</h2>
        <ol id="visit" reversed></ol>
      </section>
    </main>
    <script>/*SCRIPT*/</script>
    </body>
    </html>

    """#
}
