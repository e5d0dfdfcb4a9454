extension WebPlayerPage {
    /// The page's JavaScript, plain and self-contained. Every report to the station goes
    /// through one chain, in order, and is tried again (1, 2, 4 … 15 s) while the station
    /// does not answer, so no skip, like or trash is lost to a station that restarts; the
    /// page says so in `#status` meanwhile. Songs come from `/j/v2/playlist`, one per
    /// answer (docs/PROTOCOL.md §3.3): `n` on tuning in, `s` skip, `b` trash, `r`/`u` like
    /// and unlike (their list is not played: the song goes on), `e` at a song's end then `p`.
    static let script = #"""
    "use strict";
    const $ = (s) => document.querySelector(s);
    const audio = $("audio");
    const state = { channel: null, song: null, liked: false, history: [], chain: Promise.resolve(), lyric: [], lyricAt: -1 };
    const RED_HEART = "-3";

    function say(text, kind) { const el = $("#status"); el.textContent = text; el.dataset.kind = kind || ""; }
    function cookie(name) {
      const hit = document.cookie.split("; ").find((c) => c.startsWith(name + "="));
      return hit ? decodeURIComponent(hit.slice(name.length + 1)).replace(/^"|"$/g, "") : "";
    }
    function clock(s) { s = Math.max(0, Math.floor(s || 0)); return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }
    const pause = (ms) => new Promise((r) => setTimeout(r, ms));

    // One request, tried until the station answers: a failed fetch or a 5xx is "not now".
    // An answer that is not JSON is an answer too (a refusal), not a reason to ask again.
    async function ask(url, init) {
      for (let attempt = 0; ; attempt++) {
        let text;
        try {
          const answer = await fetch(url, Object.assign({ credentials: "same-origin", cache: "no-store" }, init));
          if (answer.status >= 500) throw new Error("status " + answer.status);
          text = await answer.text();
        } catch (error) {
          const wait = Math.min(15, 2 ** attempt);
          say("The station is not answering. Trying again in " + wait + " s…", "trouble");
          document.body.dataset.station = "away";
          await pause(wait * 1000);
          continue;
        }
        if (attempt > 0) { say("The station is back."); delete document.body.dataset.station; }
        try { return text ? JSON.parse(text) : {}; } catch (error) { return { r: 1, err: "not_json" }; }
      }
    }

    // Reports go one after another, in the order they were made.
    function report(type, then) {
      const sid = state.song ? state.song.sid : "";
      const pt = state.song ? audio.currentTime.toFixed(1) : "";
      const channel = state.channel;
      if (type !== "n" && type !== "p") state.history.push(sid + ":" + type);
      state.history = state.history.slice(-20);
      const h = "|" + state.history.join("|");
      let url = "/j/v2/playlist?channel=" + encodeURIComponent(channel) + "&kbps=128&client=" + encodeURIComponent("s:mainsite|y:3.0")
        + "&app_name=radio_website&version=100&type=" + type;
      if (type !== "n") url += "&sid=" + encodeURIComponent(sid) + "&pt=" + pt;
      url += "&pb=128&from=mainsite";
      if ("npsb".includes(type) && state.history.length) url += "&h=" + encodeURIComponent(h);
      // A failure in handling one answer must not stop the reports after it.
      state.chain = state.chain.then(() => ask(url)).then((answer) => then && channel === state.channel && then(answer))
        .catch((error) => say("Something went wrong on this page: " + error.message, "trouble"));
      return state.chain;
    }

    function playFrom(answer) {
      if (answer.logout === 1) {
        // The station no longer knows the session: its logout clears the cookies (dbcl2 is
        // HttpOnly, out of this script's reach), so later reports go as the anonymous listener.
        fetch("/partner/logout?source=radio&no_login=y", { credentials: "same-origin" }).catch(() => {});
        signedOut("Your session has ended: log in again.");
      }
      if (answer.r && answer.r !== 0) { say("The station refused: " + (answer.err || "error") + "."); return; }
      const song = (answer.song || [])[0];
      if (!song) {
        if (state.channel === RED_HEART) say(answer.is_show_quick_start === 1 ? "The red-heart channel needs a login." : "Like songs first: the red-heart channel plays the songs you liked.");
        else say("This channel has no songs for you now.");
        return;
      }
      start(song);
    }

    function start(song) {
      state.song = song;
      state.liked = song.like === 1 || song.like === true;
      $("#title").textContent = song.title;
      $("#artist").textContent = song.artist;
      $("#album").textContent = song.albumtitle || "";
      $("#reason").textContent = song.reason ? "Why this song: " + song.reason : "";
      const cover = $("#cover");
      if (song.picture) cover.src = song.picture; else cover.removeAttribute("src");
      cover.alt = song.albumtitle ? "Cover of " + song.albumtitle : "";
      $("#length").textContent = clock(song.length);
      $("#bar").setAttribute("aria-valuemax", String(song.length || 0));
      audio.src = song.url;
      play();
      showLike();
      for (const b of document.querySelectorAll("[data-action]")) b.disabled = false;
      addToVisit(song);
      lyricsFor(song);
      if ("mediaSession" in navigator) {
        navigator.mediaSession.metadata = new MediaMetadata({ title: song.title, artist: song.artist, album: song.albumtitle || "",
          artwork: song.picture ? [{ src: song.picture }] : [] });
      }
      if ($("#status").textContent === "Tuning in…") say("");
    }

    function play() {
      audio.play().catch(() => say("Press Play (or space) to start the sound."));
    }

    function toggle() {
      if (!state.song && !live.id) return;
      if (audio.paused) play(); else audio.pause();
    }
    function skip() { if (live.id) vote("s"); else if (state.song) { mark("skipped"); report("s", playFrom); } }
    function trash() { if (live.id) vote("b"); else if (state.song) { mark("trashed"); report("b", playFrom); } }
    function like() {
      if (live.id) { if (live.song) { state.liked = !state.liked; showLike(); vote(state.liked ? "r" : "u"); } return; }
      if (!state.song) return;
      state.liked = !state.liked;
      showLike();
      mark(state.liked ? "♥" : "");
      report(state.liked ? "r" : "u");
    }
    function showLike() {
      const b = $("[data-action=like]");
      b.setAttribute("aria-pressed", String(state.liked));
      b.textContent = state.liked ? "♥ Liked" : "♥ Like";
    }

    function tune(id) {
      leaveLive();
      state.channel = id;
      state.song = null;
      audio.pause();
      for (const b of document.querySelectorAll("[data-action]")) b.disabled = true;
      for (const b of document.querySelectorAll("[data-channel], [data-live]")) b.setAttribute("aria-current", String(b.dataset.channel === id));
      say("Tuning in…");
      report("n", playFrom);
    }

    // The songs of this visit, newest first, with what was done to each.
    function addToVisit(song) {
      const li = document.createElement("li");
      li.dataset.sid = song.sid;
      li.append(song.title + " — " + song.artist);
      const m = document.createElement("span");
      m.className = "mark";
      if (state.liked) m.textContent = "♥";
      li.append(m);
      $("#visit").prepend(li);
    }
    function mark(text) {
      const m = document.querySelector("#visit li .mark");
      if (m) m.textContent = text;
    }

    // Synced lyrics: LRC lines with their times ([offset:] applied), else plain text.
    async function lyricsFor(song) {
      state.lyric = [];
      state.lyricAt = -1;
      $("#lyrics").replaceChildren();
      $("#lyrics-box").hidden = true;
      let answer;
      try {
        const r = await fetch("/j/v2/lyric?sid=" + encodeURIComponent(song.sid) + "&ssid=" + encodeURIComponent(song.ssid || ""), { cache: "no-store" });
        answer = await r.json();
      } catch (e) { return; }
      if (state.song !== song || !answer.lyric) return;
      let offset = 0;
      const lines = [];
      for (const raw of answer.lyric.split(/\r?\n/)) {
        const o = raw.match(/^\[offset:\s*([+-]?\d+)\]/i);
        if (o) { offset = Number(o[1]) / 1000; continue; }
        const stamps = [...raw.matchAll(/\[(\d+):(\d+(?:\.\d+)?)\]/g)];
        const text = raw.replace(/\[[^\]]*\]/g, "").replace(/<\d+:\d+(?:\.\d+)?>/g, "").trim();
        if (!stamps.length) { if (text && !/^\[\w+:/.test(raw)) lines.push({ t: null, text }); continue; }
        for (const s of stamps) lines.push({ t: Number(s[1]) * 60 + Number(s[2]), text });
      }
      const timed = lines.filter((l) => l.t !== null).map((l) => ({ t: l.t - offset, text: l.text })).sort((a, b) => a.t - b.t);
      state.lyric = timed.length ? timed : lines;
      for (const l of state.lyric) {
        const li = document.createElement("li");
        li.textContent = l.text || "♪";
        $("#lyrics").append(li);
      }
      $("#lyrics-box").hidden = state.lyric.length === 0;
    }
    function followLyrics() {
      if (!state.lyric.length || state.lyric[0].t === null) return;
      let at = -1;
      while (at + 1 < state.lyric.length && state.lyric[at + 1].t <= audio.currentTime) at++;
      if (at === state.lyricAt) return;
      const items = $("#lyrics").children;
      if (state.lyricAt >= 0 && items[state.lyricAt]) items[state.lyricAt].classList.remove("now");
      state.lyricAt = at;
      if (at >= 0 && items[at]) {
        items[at].classList.add("now");
        items[at].setAttribute("aria-current", "true");
        const box = $("#lyrics");
        box.scrollTop = items[at].offsetTop - box.offsetTop - box.clientHeight / 3;
      }
    }

    // The account: a web login with the station's captcha (docs/PROTOCOL.md §5.2).
    async function newCaptcha() {
      const id = await ask("/j/new_captcha");
      const form = $("#login");
      form.dataset.captcha = id;
      $("#captcha").src = "/misc/captcha?size=m&id=" + encodeURIComponent(id);
      form.captcha_solution.value = "";
    }
    async function logIn(event) {
      event.preventDefault();
      const form = $("#login");
      const body = new URLSearchParams({ source: "radio", alias: form.alias.value, form_password: form.form_password.value,
        captcha_solution: form.captcha_solution.value, captcha_id: form.dataset.captcha || "", remember: "on" });
      // Not tried again: a captcha answers one try, and the station may have had it.
      let answer;
      try {
        answer = await (await fetch("/j/login", { method: "POST", body, credentials: "same-origin" })).json();
      } catch (error) {
        $("#login-error").textContent = "The station did not answer: try again.";
        newCaptcha();
        return;
      }
      if (answer.r === 0 && answer.user_info) {
        localStorage.setItem("mhz.name", answer.user_info.name || "");
        form.form_password.value = "";
        form.hidden = true;
        signedIn();
        say("Logged in as " + (answer.user_info.name || "you") + ".");
      } else {
        $("#login-error").textContent = answer.err_msg || "The station refused the login.";
        newCaptcha();
      }
    }
    function signedIn() {
      $("#who").textContent = localStorage.getItem("mhz.name") || "logged in";
      $("#login-open").hidden = true;
      $("#logout").hidden = false;
    }
    function signedOut(text) {
      localStorage.removeItem("mhz.name");
      $("#who").textContent = "";
      $("#login-open").hidden = false;
      $("#logout").hidden = true;
      if (text) say(text);
    }
    async function logOut() {
      await ask("/partner/logout?source=radio&ck=" + encodeURIComponent(cookie("ck")) + "&no_login=y");
      signedOut("Logged out.");
    }

    async function channels() {
      const answer = await ask("/j/app/radio/channels");
      const list = (answer.channels || []).slice();
      const personal = list.findIndex((c) => String(c.channel_id) === "0");
      list.splice(personal + 1, 0, { channel_id: RED_HEART, name: "红心兆赫", name_en: "Red Heart" });
      const ul = $("#channels");
      for (const c of list) {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.channel = String(c.channel_id);
        b.setAttribute("aria-current", "false");
        // Douban's names are Chinese, with English ones beside: the reader's language picks.
        const chinese = /^zh\b/i.test(navigator.language || "");
        b.textContent = chinese ? c.name || c.name_en : c.name_en || c.name;
        b.addEventListener("click", () => tune(b.dataset.channel));
        const li = document.createElement("li");
        li.append(b);
        ul.append(li);
        // The channels the station broadcasts are the ones its list marks live (a flag:
        // `true`, `1`, `"1"`, as mhz reads it; docs/PROTOCOL.md §6.1, §11); any other,
        // `0` and `-3` among them, plays as the radio only.
        if (c.live !== true && c.live !== 1 && c.live !== "1") continue;
        const id = String(c.channel_id);
        const l = document.createElement("button");
        l.type = "button";
        l.dataset.live = id;
        l.setAttribute("aria-current", "false");
        l.textContent = b.textContent;
        l.addEventListener("click", () => tuneLive(id));
        const item = document.createElement("li");
        item.append(l);
        $("#live").append(item);
      }
      if (!audio.canPlayType(HLS)) {
        $("#live-note").textContent = "This browser cannot play live HLS: a live channel plays the channel's songs instead.";
        $("#live-note").hidden = false;
      }
    }

    /*LIVE*/
    const actions = { toggle, skip, like, trash, rewind: () => shift(-30), forward: () => shift(30), golive: goLive };
    for (const b of document.querySelectorAll("[data-action]")) b.addEventListener("click", () => actions[b.dataset.action]());
    document.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "Escape" && !$("#login").hidden) { event.preventDefault(); closeLogin(); return; }
      if (event.target.closest("input, textarea, select, form")) return;
      // The letters and arrows work wherever the focus is but in the login form; space
      // pauses only when no control has the focus, for space (as Enter) presses the
      // focused button.
      const control = event.target.closest("button, a[href], [tabindex]");
      const key = { " ": !control && "toggle", n: "skip", l: "like", b: "trash", ArrowLeft: live.id && "rewind", ArrowRight: live.id && "forward" }[event.key];
      if (!key) return;
      event.preventDefault();
      actions[key]();
    });
    audio.addEventListener("play", () => { $("[data-action=toggle]").textContent = "Pause"; if ("mediaSession" in navigator) navigator.mediaSession.playbackState = "playing"; });
    audio.addEventListener("pause", () => { $("[data-action=toggle]").textContent = "Play"; if ("mediaSession" in navigator) navigator.mediaSession.playbackState = "paused"; });
    audio.addEventListener("timeupdate", () => {
      if (live.id) { heard(); return; }
      const length = (state.song && state.song.length) || audio.duration || 0;
      $("#elapsed").textContent = clock(audio.currentTime);
      $("#bar").setAttribute("aria-valuenow", String(Math.floor(audio.currentTime)));
      $("#bar div").style.width = length ? Math.min(100, 100 * audio.currentTime / length) + "%" : "0";
      followLyrics();
    });
    audio.addEventListener("ended", () => { if (live.id) { shift(0); return; } report("e"); report("p", playFrom); });
    audio.addEventListener("error", () => {
      // A station away says so already, and the live playlist is loaded again when it is back.
      if (live.id) { if (!live.away) say("The live broadcast could not be loaded: press Live to try again.", "trouble"); return; }
      if (!state.song) return;
      say("The song could not be loaded; asking the station for another.", "trouble");
      report("p", playFrom);
    });
    if ("mediaSession" in navigator) {
      // A browser may refuse an action it does not know: the others still work.
      for (const [action, handler] of [["play", play], ["pause", () => audio.pause()], ["nexttrack", skip]]) {
        try { navigator.mediaSession.setActionHandler(action, handler); } catch (error) { /* not offered here */ }
      }
    }
    // The login form opens with the focus in its first field; Esc or Cancel closes it and
    // gives the focus back to the button that opened it (the ARIA dialog pattern).
    function closeLogin() { $("#login").hidden = true; $("#login-open").focus(); }
    $("#login-open").addEventListener("click", () => { $("#login").hidden = false; $("#login-error").textContent = ""; newCaptcha(); $("#login").alias.focus(); });
    $("#login-cancel").addEventListener("click", closeLogin);
    $("#captcha-new").addEventListener("click", newCaptcha);
    $("#login").addEventListener("submit", logIn);
    $("#logout").addEventListener("click", logOut);
    if (cookie("ck")) signedIn();
    channels();
    """#
}
