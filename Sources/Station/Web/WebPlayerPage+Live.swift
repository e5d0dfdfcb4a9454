extension WebPlayerPage {
    /// The live channels' part of the page's script (docs/PROTOCOL.md §11). The one `<audio>`
    /// plays `/live/<id>.m3u8` where the browser plays HLS itself; the moment heard is the
    /// live edge (now) less how far behind it the audio is, and now playing is the song of
    /// `aired.json` whose [start, end) holds it. Chromium's native HLS offers no `seekable`
    /// range of a live playlist, starts one three segments from its end whatever its
    /// `EXT-X-START`, and has no `getStartDate()`: so live, the distance behind is what it
    /// holds ahead of what it plays; back 30 s plays the look-back as a finished playlist
    /// (`?begintime=…&endtime=<the newest segment's end>`), whose first segment's date
    /// (read from the media playlist) plus `currentTime` is the moment heard; at its end
    /// the next stretch is loaded, and close to the edge the live playlist again. The page
    /// reads the master playlist once per channel for the listener id the station hands out
    /// (its variants' URIs carry `listener=<id>`), and names it in the master playlist the
    /// `<audio>` plays, so the browser's polls carry it, and in its votes to
    /// `/live/<id>/feedback`: the station counts a vote only from a listener polling.
    static let liveScript = #"""
    const HLS = "application/vnd.apple.mpegurl";
    const live = { id: null, listener: "", aired: [], song: null, away: false, timer: 0, oldest: 0, from: 0, pausedAt: 0 };

    function tuneLive(id) {
      if (!audio.canPlayType(HLS)) { tune(id); say("This browser cannot play live HLS: here are the channel's songs instead."); return; }
      leaveLive();
      // Answers still coming for a channel left are dropped (report() compares channels).
      state.channel = "live:" + id;
      state.song = null;
      live.id = id;
      for (const b of document.querySelectorAll("[data-channel], [data-live]")) b.setAttribute("aria-current", String(b.dataset.live === id));
      for (const b of document.querySelectorAll("[data-action]")) b.disabled = false;
      $("#live-controls").hidden = false;
      $("#live-at").hidden = false;
      $("#reason").textContent = "";
      // Live has no cover: the radio's last one goes, its alt text with it (an image
      // without a source but with an alt shows as a broken one).
      $("#cover").removeAttribute("src");
      $("#cover").alt = "";
      say("Tuning in live…");
      load();
      aired();
      live.timer = setInterval(aired, 2000);
    }

    function leaveLive() {
      if (!live.id) return;
      clearInterval(live.timer);
      live.id = null;
      live.listener = "";
      live.song = null;
      live.away = false;
      live.pausedAt = 0;
      live.aired = [];
      $("#live-controls").hidden = true;
      $("#live-at").hidden = true;
    }

    // The live playlist: Chromium plays it a few segments behind the edge, and holds no
    // `seekable` range of it, so the look-back is played as finished (VOD) playlists instead.
    async function load() {
      const id = live.id;
      const master = "/live/" + encodeURIComponent(id) + ".m3u8";
      live.from = 0;
      if (!live.listener) {
        let text;
        try { text = await (await fetch(master, { cache: "no-store" })).text(); } catch (error) { text = ""; }
        if (id !== live.id) return;
        const found = /[?&]listener=([0-9a-f]{32})/.exec(text);
        live.listener = found ? found[1] : "";
      }
      audio.src = master + listenerQuery("?");
      play();
    }

    // `listener=<id>` after `mark`, or nothing before the station handed one out.
    function listenerQuery(mark) { return live.listener ? mark + "listener=" + live.listener : ""; }

    // The look-back from `begin` (ms since the epoch) to the newest segment out: the media
    // playlist from `begin` on says where its first segment starts and its last ends.
    async function loadBack(begin) {
      const id = live.id;
      const base = "/live/" + encodeURIComponent(id);
      let text;
      try { text = await (await fetch(base + "/64.m3u8?begintime=" + Math.floor(begin), { cache: "no-store" })).text(); } catch (error) { text = ""; }
      if (id !== live.id) return;
      const dates = [...text.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(\S+)\s+#EXTINF:([\d.]+)/g)];
      if (!dates.length) { say("That moment is no longer kept: back to live."); load(); return; }
      const first = Date.parse(dates[0][1]);
      const last = dates[dates.length - 1];
      const end = Date.parse(last[1]) + Math.floor(Number(last[2]) * 1000);
      live.from = first;
      audio.src = base + ".m3u8?begintime=" + Math.floor(begin) + "&endtime=" + end + listenerQuery("&");
      play();
    }

    // Seconds behind the live edge: live, what the browser holds ahead of what it plays;
    // in the look-back, now less the moment heard.
    function behind() {
      if (live.from) return Math.max(0, (Date.now() - live.from) / 1000 - audio.currentTime);
      const b = audio.buffered;
      return b.length ? Math.max(0, b.end(b.length - 1) - audio.currentTime) : 0;
    }

    // Read every 2 s; it is also how the page learns that the station stopped answering
    // (the browser plays on what it holds for several seconds, then stalls without a word):
    // it says so instead of LIVE until an answer comes again, then loads the live playlist
    // anew if the browser gave up on it.
    async function aired() {
      const id = live.id;
      let answer;
      try {
        // A station that takes the connection and says nothing is not answering either.
        const reply = await fetch("/live/" + encodeURIComponent(id) + "/aired.json", { cache: "no-store", signal: AbortSignal.timeout(4000) });
        if (reply.status >= 500) throw new Error("status " + reply.status);
        answer = await reply.json();
      } catch (error) {
        if (id !== live.id) return;
        live.away = true;
        say("The station is not answering. Trying again…", "trouble");
        heard();
        return;
      }
      if (id !== live.id) return;
      if (live.away) {
        live.away = false;
        say("The station is back.");
        if (audio.error || audio.networkState === audio.NETWORK_NO_SOURCE) load();
      }
      live.aired = answer.songs || [];
      live.oldest = live.aired.length ? live.aired[live.aired.length - 1].start : 0;
      heard();
    }

    // Now playing follows the audio, not the air.
    function heard() {
      if (!live.id) return;
      const late = behind();
      const at = Date.now() - late * 1000;
      const edge = !live.from;
      const shown = $("#live-at");
      shown.textContent = live.away ? "Not answering" : edge ? "LIVE" : "−" + clock(late);
      shown.dataset.edge = live.away ? "away" : String(edge);
      const song = live.aired.find((s) => s.start <= at && (at < s.end || s.on_air));
      if (!song) return;
      $("#elapsed").textContent = clock((at - song.start) / 1000);
      $("#length").textContent = clock((song.end - song.start) / 1000);
      $("#bar div").style.width = Math.min(100, 100 * (at - song.start) / Math.max(1, song.end - song.start)) + "%";
      if (live.song && live.song.sid === song.sid && live.song.start === song.start) return;
      live.song = song;
      state.liked = false;
      showLike();
      $("#title").textContent = song.title;
      $("#artist").textContent = song.artist;
      $("#album").textContent = "";
      addToVisit(song);
      if ("mediaSession" in navigator) navigator.mediaSession.metadata = new MediaMetadata({ title: song.title, artist: song.artist });
      if ($("#status").textContent === "Tuning in live…") say("");
    }

    // `seconds` back (< 0) or ahead, within the look-back; ahead to the edge is live.
    function shift(seconds) {
      if (!live.id) return;
      const late = behind() - seconds;
      if (late <= 6) { goLive(); return; }
      if (live.from && audio.currentTime + seconds >= 0 && audio.currentTime + seconds < (audio.duration || 0) - 1) {
        audio.currentTime += seconds;
        return;
      }
      const oldest = live.oldest ? live.oldest + 1000 : 0;
      loadBack(Math.max(Date.now() - late * 1000, oldest));
    }

    function goLive() { if (live.id) { load(); say("Live."); } }

    // Paused on the live playlist, the browser's own clock of it is no guide to where the
    // sound resumes: a pause of more than 3 s goes on from the moment paused, in the look-back.
    audio.addEventListener("pause", () => { if (live.id && !live.from && !audio.ended) live.pausedAt = Date.now() - behind() * 1000; });
    audio.addEventListener("play", () => {
      const at = live.pausedAt;
      live.pausedAt = 0;
      if (live.id && !live.from && at && Date.now() - at > 3000) loadBack(at);
    });

    // A vote on the song heard; the answer's tally goes to the status line.
    async function vote(type) {
      const song = live.song;
      if (!song) return;
      mark({ s: "skipped", b: "trashed", r: "♥", u: "" }[type]);
      const answer = await ask("/live/" + encodeURIComponent(live.id) + "/feedback?type=" + type + "&sid=" + encodeURIComponent(song.sid) + listenerQuery("&"), { method: "POST" });
      if (answer.r !== 0) { say("The station refused: " + (answer.err || "error") + "."); return; }
      if (type === "r" || type === "u") { say(type === "r" ? "Liked: the channel learns it." : "Unliked."); return; }
      // Heard behind the edge, the song may be over on the air: its vote then counts nothing.
      say((type === "b" ? "Trash" : "Skip") + ": " + answer.votes + " of " + answer.listeners + " listening voted"
        + (answer.ending ? "; the song ends for everyone." : answer.on_air ? "; more than half must." : "; that song is no longer on the air."));
    }

    """#
}
