// The web player's live channels (docs/PROTOCOL.md §11): the live mode of player.js's
// state. Loaded before player.js, this file only declares; player.js calls it.
//
// Live: the one `<audio>` plays `/live/<id>.m3u8` where the browser plays HLS itself; the
// moment heard is the live edge (now) less how far behind it the audio is, and now playing
// is the song of `aired.json` that holds it. Chromium's native HLS offers no `seekable`
// range of a live playlist, starts one three segments from its end whatever its
// `EXT-X-START`, and has no `getStartDate()`: so live, the distance behind is what it holds
// ahead of what it plays; back 30 s plays the look-back as a finished playlist
// (`?begintime=…&endtime=<the newest segment's end>`), whose first segment's date (read from
// the media playlist) plus `currentTime` is the moment heard; at its end the next stretch is
// loaded, and close to the edge the live playlist again. The page reads the master playlist
// once per channel for the listener id the station hands out (its variants' URIs carry
// `listener=<id>`), and names it in the master playlist the `<audio>` plays, so the
// browser's polls carry it, and in its votes to `/live/<id>/feedback`: the station counts
// a vote only from a listener polling.
"use strict";

/** Tunes in channel `id`'s live broadcast, or its songs where the browser plays no HLS.
 * @param {string} id */
function tuneLive(id) {
  if (!audio.canPlayType(HLS)) { tune(id); say("This browser cannot play live HLS: here are the channel's songs instead."); return; }
  /** @type {Live} */
  const live = { mode: "live", channel: id, listener: "", aired: [], song: null, liked: false, away: false, timer: 0, oldest: 0, from: 0, pausedAt: 0 };
  enter(live);
  current((b) => b.dataset.live === id);
  for (const b of actionButtons()) b.disabled = false;
  $("#live-controls").hidden = false;
  $("#live-at").hidden = false;
  $("#reason").textContent = "";
  // Live has no cover: the radio's last one goes, its alt text with it (an image
  // without a source but with an alt shows as a broken one).
  $("#cover").removeAttribute("src");
  /** @type {HTMLImageElement} */ ($("#cover")).alt = "";
  say("Tuning in live…");
  load(live);
  aired(live);
  live.timer = setInterval(() => aired(live), 2000);
}

/** @param {Live} live @returns {Behaviour} */
function liveMode(live) {
  return {
    toggle: toggleSound,
    skip() { vote(live, "s"); },
    trash() { vote(live, "b"); },
    like() { if (live.song) { live.liked = !live.liked; showLike(live.liked); vote(live, live.liked ? "r" : "u"); } },
    shift(seconds) { shift(live, seconds); },
    goLive() { goLive(live); },
    progress() { heard(live); },
    ended() { shift(live, 0); },
    // A station away says so already, and the live playlist is loaded again when it is back.
    failed() { if (!live.away) say("The live broadcast could not be loaded: press Live to try again.", "trouble"); },
    // Paused on the live playlist, the browser's own clock of it is no guide to where the
    // sound resumes: a pause of more than 3 s goes on from the moment paused, in the look-back.
    paused() { if (!live.from && !audio.ended) live.pausedAt = Date.now() - behind(live) * 1000; },
    resumed() {
      const at = live.pausedAt;
      live.pausedAt = 0;
      if (!live.from && at && Date.now() - at > 3000) loadBack(live, at);
    },
    leave() {
      clearInterval(live.timer);
      $("#live-controls").hidden = true;
      $("#live-at").hidden = true;
    },
    keys: { ArrowLeft: "rewind", ArrowRight: "forward" },
  };
}

// The live playlist: Chromium plays it a few segments behind the edge, and holds no
// `seekable` range of it, so the look-back is played as finished (VOD) playlists instead.
/** @param {Live} live */
async function load(live) {
  const master = "/live/" + encodeURIComponent(live.channel) + ".m3u8";
  live.from = 0;
  if (!live.listener) {
    let text;
    try { text = await (await fetch(master, { cache: "no-store" })).text(); } catch (error) { text = ""; }
    if (state !== live) return;
    const found = /[?&]listener=([0-9a-f]{32})/.exec(text);
    live.listener = found ? found[1] : "";
  }
  audio.src = master + listenerQuery(live, "?");
  play();
}

/** `listener=<id>` after `mark`, or nothing before the station handed one out.
 * @param {Live} live @param {string} mark */
function listenerQuery(live, mark) { return live.listener ? mark + "listener=" + live.listener : ""; }

/** The look-back from `begin` (ms since the epoch) to the newest segment out: the media
 * playlist from `begin` on says where its first segment starts and its last ends.
 * @param {Live} live @param {number} begin */
async function loadBack(live, begin) {
  const base = "/live/" + encodeURIComponent(live.channel);
  let text;
  try { text = await (await fetch(base + "/64.m3u8?begintime=" + Math.floor(begin), { cache: "no-store" })).text(); } catch (error) { text = ""; }
  if (state !== live) return;
  const dates = [...text.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(\S+)\s+#EXTINF:([\d.]+)/g)];
  if (!dates.length) { say("That moment is no longer kept: back to live."); load(live); return; }
  const first = Date.parse(dates[0][1]);
  const last = dates[dates.length - 1];
  const end = Date.parse(last[1]) + Math.floor(Number(last[2]) * 1000);
  live.from = first;
  audio.src = base + ".m3u8?begintime=" + Math.floor(begin) + "&endtime=" + end + listenerQuery(live, "&");
  play();
}

/** Seconds behind the live edge: live, what the browser holds ahead of what it plays; in
 * the look-back, now less the moment heard.
 * @param {Live} live */
function behind(live) {
  if (live.from) return Math.max(0, (Date.now() - live.from) / 1000 - audio.currentTime);
  const b = audio.buffered;
  return b.length ? Math.max(0, b.end(b.length - 1) - audio.currentTime) : 0;
}

/** Reads `aired.json` (every 2 s); it is also how the page learns that the station stopped
 * answering (the browser plays on what it holds for several seconds, then stalls without a
 * word): it says so instead of LIVE until an answer comes again, then loads the live
 * playlist anew if the browser gave up on it.
 * @param {Live} [live] the broadcast tuned in (the one playing if not given) */
async function aired(live) {
  const now = live || state;
  if (now.mode !== "live") return;
  let answer;
  try {
    // A station that takes the connection and says nothing is not answering either.
    const reply = await fetch("/live/" + encodeURIComponent(now.channel) + "/aired.json", { cache: "no-store", signal: within(4000) });
    if (reply.status >= 500) throw new Error("status " + reply.status);
    answer = await reply.json();
  } catch (error) {
    if (state !== now) return;
    now.away = true;
    say("The station is not answering. Trying again…", "trouble");
    heard(now);
    return;
  }
  if (state !== now) return;
  if (now.away) {
    now.away = false;
    say("The station is back.");
    if (audio.error || audio.networkState === audio.NETWORK_NO_SOURCE) load(now);
  }
  now.aired = answer.songs || [];
  now.oldest = now.aired.length ? now.aired[now.aired.length - 1].start : 0;
  heard(now);
}

/** The song of `songs` whose audio holds `moment` (ms since the epoch): `start` ≤ `moment` <
 * `end`, whether or not it is on the air (the song on the air's `end` holds the live edge);
 * when songs overlap, the latest to start; none past every song's end (audio newer than the
 * copy read). The rule of docs/PROTOCOL.md §11 (the song a moment belongs to: by `start` and
 * `end` alone, never by `on_air` nor by place in the list), which mhz's live client follows.
 * @param {number} moment @param {AiredSong[]} songs */
function heardAt(moment, songs) {
  /** @type {AiredSong | undefined} */
  let found;
  for (const s of songs) if (s.start <= moment && moment < s.end && (!found || s.start > found.start)) found = s;
  return found;
}

/** Now playing follows the audio, not the air.
 * @param {Live} live */
function heard(live) {
  const late = behind(live);
  const at = Date.now() - late * 1000;
  const edge = !live.from;
  const shown = $("#live-at");
  shown.textContent = live.away ? "Not answering" : edge ? "LIVE" : "−" + clock(late);
  shown.dataset.edge = live.away ? "away" : String(edge);
  const song = heardAt(at, live.aired);
  if (!song) return;
  $("#elapsed").textContent = clock((at - song.start) / 1000);
  $("#length").textContent = clock((song.end - song.start) / 1000);
  $("#bar div").style.width = Math.min(100, 100 * (at - song.start) / Math.max(1, song.end - song.start)) + "%";
  if (live.song && live.song.sid === song.sid && live.song.start === song.start) return;
  live.song = song;
  live.liked = false;
  showLike(false);
  $("#title").textContent = song.title;
  $("#artist").textContent = song.artist;
  $("#album").textContent = "";
  addToVisit(song, false);
  if ("mediaSession" in navigator) navigator.mediaSession.metadata = new MediaMetadata({ title: song.title, artist: song.artist });
  if ($("#status").textContent === "Tuning in live…") say("");
}

/** `seconds` back (< 0) or ahead, within the look-back; ahead to the edge is live.
 * @param {Live} live @param {number} seconds */
function shift(live, seconds) {
  const late = behind(live) - seconds;
  if (late <= 6) { goLive(live); return; }
  if (live.from && audio.currentTime + seconds >= 0 && audio.currentTime + seconds < (audio.duration || 0) - 1) {
    audio.currentTime += seconds;
    return;
  }
  const oldest = live.oldest ? live.oldest + 1000 : 0;
  loadBack(live, Math.max(Date.now() - late * 1000, oldest));
}

/** Back to the live edge.
 * @param {Live} live */
function goLive(live) { load(live); say("Live."); }

/** A vote on the song heard (a report: `ask`'s rule); the answer's tally goes to the status
 * line, read as docs/PROTOCOL.md §11 says: `ending`, the song ends for everyone; `ended`, it
 * was over on the air already, so no vote counted; not `on_air`, it left the air.
 * @param {Live} live @param {string} type */
async function vote(live, type) {
  const song = live.song;
  if (!song) return;
  mark({ s: "skipped", b: "trashed", r: "♥", u: "" }[type]);
  const answer = await ask("/live/" + encodeURIComponent(live.channel) + "/feedback?type=" + type + "&sid=" + encodeURIComponent(song.sid)
    + listenerQuery(live, "&"), { method: "POST", report: true });
  if (answer.r !== 0) { say("The station refused: " + (answer.err || "error") + "."); return; }
  if (type === "r" || type === "u") { say(type === "r" ? "Liked: the channel learns it." : "Unliked."); return; }
  // Heard behind the edge, the song may be over on the air: its vote then counts nothing.
  say((type === "b" ? "Trash" : "Skip") + ": " + answer.votes + " of " + answer.listeners + " listening voted"
    + (answer.ending ? "; the song ends for everyone."
      : answer.on_air ? "; more than half must."
        : answer.ended ? "; the song is over on the air: it ends here in seconds." : "; that song is no longer on the air."));
}
