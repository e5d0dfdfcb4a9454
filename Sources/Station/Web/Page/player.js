// The web player's script, with its live channels' part in player-live.js: plain JavaScript
// that loads nothing from elsewhere, checked by `node --check` and `tsc --checkJs` (its types
// are the JSDoc comments; script/check-web). It speaks the web family the station serves
// (docs/PROTOCOL.md §3.3, §5.2, §10) and its live channels (§11).
//
// What the page plays is one value, `state`: nothing chosen yet, a channel of the radio, or
// a channel's live broadcast. Tuning in makes a new one; `mode()` is the one place that
// tells the radio from live, and every control, key and event of the `<audio>` goes through
// the behaviour it returns.
//
// The radio: songs come from `/j/v2/playlist`, one per answer: `n` on tuning in, `s` skip,
// `b` trash, `r`/`u` like and unlike (their list is not played: the song goes on), `e` at a
// song's end then `p`. Reports go one after another, in the order they were made, and
// follow the station's report rule (below, `ask`).
//
// Live channels are player-live.js's (loaded before this file; it only declares).
"use strict";

/** A song of the radio, as `/j/v2/playlist` lists it.
 * @typedef {{sid: string, ssid?: string, title: string, artist: string, albumtitle?: string, picture?: string,
 *   url: string, length?: number, like?: number | boolean, reason?: string}} Song */
/** A row of `/live/<id>/aired.json`: `start` and `end` in ms since the epoch.
 * @typedef {{sid: string, title: string, artist: string, start: number, end: number, on_air?: boolean}} AiredSong */
/** Nothing chosen yet.
 * @typedef {{mode: "idle"}} Idle */
/** A channel of the radio: the song playing, and whether it is liked.
 * @typedef {{mode: "radio", channel: string, song: Song | null, liked: boolean}} Radio */
/** A channel's live broadcast: the listener id the station handed out, the songs aired, the
 * one heard, whether the station stopped answering, the `aired.json` timer, the oldest
 * moment kept, where the look-back playing starts (0 at the live edge), when it was paused
 * at the edge (0 if not).
 * @typedef {{mode: "live", channel: string, listener: string, aired: AiredSong[], song: AiredSong | null,
 *   liked: boolean, away: boolean, timer: number, oldest: number, from: number, pausedAt: number}} Live */
/** What the page plays.
 * @typedef {Idle | Radio | Live} State */
/** What the controls, the keys and the `<audio>`'s events do in one mode.
 * @typedef {{toggle(): void, skip(): void, like(): void, trash(): void, shift(seconds: number): void, goLive(): void,
 *   progress(): void, ended(): void, failed(): void, paused(): void, resumed(): void, leave(): void,
 *   keys: Object<string, string>}} Behaviour */

/** The element `selector` finds (the page's own, so always there).
 * @param {string} selector
 * @returns {HTMLElement} */
const $ = (selector) => /** @type {HTMLElement} */ (document.querySelector(selector));
const audio = /** @type {HTMLAudioElement} */ ($("audio"));
const loginForm = /** @type {HTMLFormElement} */ ($("#login"));
const RED_HEART = "-3";
const HLS = "application/vnd.apple.mpegurl";

/** @type {State} */
let state = { mode: "idle" };
/** What outlives a tuning: the reports' history (`h`) and their chain, the lyrics shown. */
const page = {
  /** @type {string[]} */ history: [],
  /** @type {Promise<unknown>} */ chain: Promise.resolve(),
  /** @type {{t: number | null, text: string}[]} */ lyric: [],
  lyricAt: -1,
};

/** @param {string} text @param {string} [kind] */
function say(text, kind) { const el = $("#status"); el.textContent = text; el.dataset.kind = kind || ""; }
/** @param {string} name */
function cookie(name) {
  const hit = document.cookie.split("; ").find((c) => c.startsWith(name + "="));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)).replace(/^"|"$/g, "") : "";
}
/** @param {number | undefined} s */
function clock(s) { s = Math.max(0, Math.floor(s || 0)); return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }
/** A signal that aborts a fetch after `ms` (AbortSignal.timeout, where every browser has it).
 * @param {number} ms */
function within(ms) { const c = new AbortController(); setTimeout(() => c.abort(), ms); return c.signal; }
/** @param {number} ms */
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

// The statuses that say "not now": the station did not take the request (mhz's one rule of
// them, Backoff's StatusVerdict in docs/ARCHITECTURE.md).
const NOT_NOW = [408, 429, 502, 503, 504];

/** Whether a request answered `status` goes again. A report is sent again only when the
 * answer was "not now" (docs/ARCHITECTURE.md, the report rule: a report the station
 * answered is never sent again; any other answer, a 500 included, is its word on that
 * report); any other request (a list, the channels, a captcha) on every 5xx too, as mhz's
 * radio takes a 5xx to its list request for a station down.
 * @param {number} status @param {boolean} isReport */
function again(status, isReport) { return NOT_NOW.includes(status) || (!isReport && status >= 500); }

/** One request, asked again (1, 2, 4 … 15 s) while no answer comes (the fetch fails, or
 * nothing comes in 20 s) or the answer says to (`again`); the page says so in `#status`
 * meanwhile, so no skip, like or trash is lost to a station that restarts. Any other answer
 * is final, and one that is not JSON is a refusal.
 * @param {string} url @param {RequestInit & {report?: boolean}} [init]
 * @returns {Promise<any>} */
async function ask(url, init) {
  const isReport = !!(init && init.report);
  for (let attempt = 0; ; attempt++) {
    let text;
    let status = 0;
    try {
      const answer = await fetch(url, Object.assign({ credentials: "same-origin", cache: "no-store", signal: within(20000) }, init));
      status = answer.status;
      if (again(status, isReport)) throw new Error("status " + status);
      text = await answer.text();
    } catch (error) {
      const wait = Math.min(15, 2 ** attempt);
      say("The station is not answering. Trying again in " + wait + " s…", "trouble");
      document.body.dataset.station = "away";
      await pause(wait * 1000);
      continue;
    }
    if (attempt > 0) { say("The station is back."); delete document.body.dataset.station; }
    try { return text ? JSON.parse(text) : {}; } catch (error) { return { r: 1, err: status >= 400 ? "status " + status : "not_json" }; }
  }
}

/** A report of the radio's song (`type`, docs/PROTOCOL.md §3.3), after the ones before it;
 * `then` gets its answer while the page is still tuned in as it was.
 * @param {Radio} radio @param {string} type @param {(answer: any) => void} [then] */
function report(radio, type, then) {
  const sid = radio.song ? radio.song.sid : "";
  const pt = radio.song ? audio.currentTime.toFixed(1) : "";
  if (type !== "n" && type !== "p") page.history.push(sid + ":" + type);
  page.history = page.history.slice(-20);
  const h = "|" + page.history.join("|");
  let url = "/j/v2/playlist?channel=" + encodeURIComponent(radio.channel) + "&kbps=128&client=" + encodeURIComponent("s:mainsite|y:3.0")
    + "&app_name=radio_website&version=100&type=" + type;
  if (type !== "n") url += "&sid=" + encodeURIComponent(sid) + "&pt=" + pt;
  url += "&pb=128&from=mainsite";
  if ("npsb".includes(type) && page.history.length) url += "&h=" + encodeURIComponent(h);
  // `n` and `p` ask for a list; the other letters report on a song.
  const init = { report: "erusb".includes(type) };
  // A failure in handling one answer must not stop the reports after it.
  page.chain = page.chain.then(() => ask(url, init)).then((answer) => { if (then && state === radio) then(answer); })
    .catch((error) => say("Something went wrong on this page: " + error.message, "trouble"));
  return page.chain;
}

// MARK: the mode

/** The behaviour of the mode the page is in: the one place that tells the radio from live.
 * @returns {Behaviour} */
function mode() {
  const now = state;
  switch (now.mode) {
    case "radio": return radioMode(now);
    case "live": return liveMode(now);
    default: return idleMode;
  }
}

const nothing = () => {};
/** @type {Behaviour} */
const idleMode = { toggle: nothing, skip: nothing, like: nothing, trash: nothing, shift: nothing, goLive: nothing,
  progress: nothing, ended: nothing, failed: nothing, paused: nothing, resumed: nothing, leave: nothing, keys: {} };

/** Makes `next` what the page plays, leaving the mode before.
 * @param {State} next */
function enter(next) {
  mode().leave();
  state = next;
}

// MARK: the radio

/** @param {Radio} radio @returns {Behaviour} */
function radioMode(radio) {
  return {
    toggle() { if (radio.song) toggleSound(); },
    skip() { if (radio.song) { mark("skipped"); report(radio, "s", playFrom); } },
    trash() { if (radio.song) { mark("trashed"); report(radio, "b", playFrom); } },
    like() {
      if (!radio.song) return;
      radio.liked = !radio.liked;
      showLike(radio.liked);
      mark(radio.liked ? "♥" : "");
      report(radio, radio.liked ? "r" : "u");
    },
    shift: nothing,
    goLive: nothing,
    progress() {
      const length = (radio.song && radio.song.length) || audio.duration || 0;
      $("#elapsed").textContent = clock(audio.currentTime);
      $("#bar").setAttribute("aria-valuenow", String(Math.floor(audio.currentTime)));
      $("#bar div").style.width = length ? Math.min(100, 100 * audio.currentTime / length) + "%" : "0";
      followLyrics();
    },
    ended() { report(radio, "e"); report(radio, "p", playFrom); },
    failed() {
      if (!radio.song) return;
      say("The song could not be loaded; asking the station for another.", "trouble");
      report(radio, "p", playFrom);
    },
    paused: nothing,
    resumed: nothing,
    leave: nothing,
    keys: {},
  };
}

/** Tunes in channel `id` of the radio.
 * @param {string} id */
function tune(id) {
  /** @type {Radio} */
  const radio = { mode: "radio", channel: id, song: null, liked: false };
  enter(radio);
  audio.pause();
  for (const b of actionButtons()) b.disabled = true;
  current((b) => b.dataset.channel === id);
  say("Tuning in…");
  report(radio, "n", playFrom);
}

/** The answer of a list request: its song plays.
 * @param {any} answer */
function playFrom(answer) {
  if (answer.logout === 1) {
    // The station no longer knows the session: its logout clears the cookies (dbcl2 is
    // HttpOnly, out of this script's reach), so later reports go as the anonymous listener.
    fetch("/partner/logout?source=radio&no_login=y", { credentials: "same-origin" }).catch(() => {});
    signedOut("Your session has ended: log in again.");
  }
  if (answer.r && answer.r !== 0) { say("The station refused: " + (answer.err || "error") + "."); return; }
  const radio = state;
  if (radio.mode !== "radio") return;
  const song = (answer.song || [])[0];
  if (!song) {
    if (radio.channel === RED_HEART) say(answer.is_show_quick_start === 1 ? "The red-heart channel needs a login." : "Like songs first: the red-heart channel plays the songs you liked.");
    else say("This channel has no songs for you now.");
    return;
  }
  start(radio, song);
}

/** @param {Radio} radio @param {Song} song */
function start(radio, song) {
  radio.song = song;
  radio.liked = song.like === 1 || song.like === true;
  $("#title").textContent = song.title;
  $("#artist").textContent = song.artist;
  $("#album").textContent = song.albumtitle || "";
  $("#reason").textContent = song.reason ? "Why this song: " + song.reason : "";
  const cover = /** @type {HTMLImageElement} */ ($("#cover"));
  if (song.picture) cover.src = song.picture; else cover.removeAttribute("src");
  cover.alt = song.albumtitle ? "Cover of " + song.albumtitle : "";
  $("#length").textContent = clock(song.length);
  $("#bar").setAttribute("aria-valuemax", String(song.length || 0));
  audio.src = song.url;
  play();
  showLike(radio.liked);
  for (const b of actionButtons()) b.disabled = false;
  addToVisit(song, radio.liked);
  lyricsFor(song);
  if ("mediaSession" in navigator) {
    navigator.mediaSession.metadata = new MediaMetadata({ title: song.title, artist: song.artist, album: song.albumtitle || "",
      artwork: song.picture ? [{ src: song.picture }] : [] });
  }
  if ($("#status").textContent === "Tuning in…") say("");
}

// MARK: what either mode shows

function play() {
  audio.play().catch(() => say("Press Play (or space) to start the sound."));
}
function toggleSound() { if (audio.paused) play(); else audio.pause(); }
/** @param {boolean} liked */
function showLike(liked) {
  const b = $("[data-action=like]");
  b.setAttribute("aria-pressed", String(liked));
  b.textContent = liked ? "♥ Liked" : "♥ Like";
}
/** The controls (`data-action`). */
function actionButtons() { return /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("[data-action]")); }
/** Marks the one channel entry `chosen` says is playing.
 * @param {(button: HTMLElement) => boolean} chosen */
function current(chosen) {
  for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-channel], [data-live]"))) {
    b.setAttribute("aria-current", String(chosen(b)));
  }
}

/** The songs of this visit, newest first, with what was done to each.
 * @param {{sid: string, title: string, artist: string}} song @param {boolean} liked */
function addToVisit(song, liked) {
  const li = document.createElement("li");
  li.dataset.sid = song.sid;
  li.append(song.title + " — " + song.artist);
  const m = document.createElement("span");
  m.className = "mark";
  if (liked) m.textContent = "♥";
  li.append(m);
  $("#visit").prepend(li);
}
/** @param {string} text */
function mark(text) {
  const m = document.querySelector("#visit li .mark");
  if (m) m.textContent = text;
}

/** Synced lyrics: LRC lines with their times (`[offset:]` applied), else plain text.
 * @param {Song} song */
async function lyricsFor(song) {
  page.lyric = [];
  page.lyricAt = -1;
  $("#lyrics").replaceChildren();
  $("#lyrics-box").hidden = true;
  let answer;
  try {
    const r = await fetch("/j/v2/lyric?sid=" + encodeURIComponent(song.sid) + "&ssid=" + encodeURIComponent(song.ssid || ""), { cache: "no-store" });
    answer = await r.json();
  } catch (e) { return; }
  if (state.mode !== "radio" || state.song !== song || !answer.lyric) return;
  let offset = 0;
  /** @type {{t: number | null, text: string}[]} */
  const lines = [];
  for (const raw of String(answer.lyric).split(/\r?\n/)) {
    const o = raw.match(/^\[offset:\s*([+-]?\d+)\]/i);
    if (o) { offset = Number(o[1]) / 1000; continue; }
    const stamps = [...raw.matchAll(/\[(\d+):(\d+(?:\.\d+)?)\]/g)];
    const text = raw.replace(/\[[^\]]*\]/g, "").replace(/<\d+:\d+(?:\.\d+)?>/g, "").trim();
    if (!stamps.length) { if (text && !/^\[\w+:/.test(raw)) lines.push({ t: null, text }); continue; }
    for (const s of stamps) lines.push({ t: Number(s[1]) * 60 + Number(s[2]), text });
  }
  const timed = lines.filter((l) => l.t !== null).map((l) => ({ t: Number(l.t) - offset, text: l.text })).sort((a, b) => a.t - b.t);
  page.lyric = timed.length ? timed : lines;
  for (const l of page.lyric) {
    const li = document.createElement("li");
    li.textContent = l.text || "♪";
    $("#lyrics").append(li);
  }
  $("#lyrics-box").hidden = page.lyric.length === 0;
}
function followLyrics() {
  if (!page.lyric.length || page.lyric[0].t === null) return;
  let at = -1;
  while (at + 1 < page.lyric.length && Number(page.lyric[at + 1].t) <= audio.currentTime) at++;
  if (at === page.lyricAt) return;
  const items = /** @type {HTMLCollectionOf<HTMLElement>} */ ($("#lyrics").children);
  if (page.lyricAt >= 0 && items[page.lyricAt]) items[page.lyricAt].classList.remove("now");
  page.lyricAt = at;
  if (at >= 0 && items[at]) {
    items[at].classList.add("now");
    items[at].setAttribute("aria-current", "true");
    const box = $("#lyrics");
    box.scrollTop = items[at].offsetTop - box.offsetTop - box.clientHeight / 3;
  }
}

// MARK: the account: a web login with the station's captcha (docs/PROTOCOL.md §5.2)

async function newCaptcha() {
  const id = await ask("/j/new_captcha");
  loginForm.dataset.captcha = id;
  /** @type {HTMLImageElement} */ ($("#captcha")).src = "/misc/captcha?size=m&id=" + encodeURIComponent(id);
  field("captcha_solution").value = "";
}
/** The login form's field `name`.
 * @param {string} name */
function field(name) { return /** @type {HTMLInputElement} */ (loginForm.elements.namedItem(name)); }
/** @param {Event} event */
async function logIn(event) {
  event.preventDefault();
  const body = new URLSearchParams({ source: "radio", alias: field("alias").value, form_password: field("form_password").value,
    captcha_solution: field("captcha_solution").value, captcha_id: loginForm.dataset.captcha || "", remember: "on" });
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
    field("form_password").value = "";
    loginForm.hidden = true;
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
/** @param {string} [text] */
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
// The login form opens with the focus in its first field; Esc or Cancel closes it and
// gives the focus back to the button that opened it (the ARIA dialog pattern).
function closeLogin() { loginForm.hidden = true; $("#login-open").focus(); }
function openLogin() { loginForm.hidden = false; $("#login-error").textContent = ""; newCaptcha(); field("alias").focus(); }

// MARK: the channels

async function channels() {
  const answer = await ask("/j/app/radio/channels");
  const list = (answer.channels || []).slice();
  const personal = list.findIndex((/** @type {any} */ c) => String(c.channel_id) === "0");
  list.splice(personal + 1, 0, { channel_id: RED_HEART, name: "红心兆赫", name_en: "Red Heart" });
  // Douban's names are Chinese, with English ones beside: the reader's language picks.
  const chinese = /^zh\b/i.test(navigator.language || "");
  for (const c of list) {
    const id = String(c.channel_id);
    const name = chinese ? c.name || c.name_en : c.name_en || c.name;
    $("#channels").append(entry(name, (b) => { b.dataset.channel = id; }, () => tune(id)));
    // The channels the station broadcasts are the ones its list marks live (a flag:
    // `true`, `1`, `"1"`, as mhz reads it; docs/PROTOCOL.md §6.1, §11); any other,
    // `0` and `-3` among them, plays as the radio only.
    if (c.live !== true && c.live !== 1 && c.live !== "1") continue;
    $("#live").append(entry(name, (b) => { b.dataset.live = id; }, () => tuneLive(id)));
  }
  if (!audio.canPlayType(HLS)) {
    $("#live-note").textContent = "This browser cannot play live HLS: a live channel plays the channel's songs instead.";
    $("#live-note").hidden = false;
  }
}
/** A list item with a button named `name` that does `then` when pressed.
 * @param {string} name @param {(button: HTMLButtonElement) => void} tag @param {() => void} then */
function entry(name, tag, then) {
  const b = document.createElement("button");
  b.type = "button";
  tag(b);
  b.setAttribute("aria-current", "false");
  b.textContent = name;
  b.addEventListener("click", then);
  const li = document.createElement("li");
  li.append(b);
  return li;
}

// MARK: controls and keys

/** What each control (`data-action`) does. @type {Object<string, () => void>} */
const actions = {
  toggle: () => mode().toggle(),
  skip: () => mode().skip(),
  like: () => mode().like(),
  trash: () => mode().trash(),
  rewind: () => mode().shift(-30),
  forward: () => mode().shift(30),
  golive: () => mode().goLive(),
  // The page's own audio, in every mode: mhz's `mute` for the browser, which keeps the
  // volume the listener set and gives it back.
  mute: () => { audio.muted = !audio.muted; },
};
/** The keys every mode knows, each the action it does; the mode's own (`keys`, live's arrows)
 * are added to them. Space is in `unfocused`: it does its action only when no control has the
 * focus, for space (as Enter) presses the focused button.
 * @type {Object<string, string>} */
const keys = { " ": "toggle", n: "skip", l: "like", b: "trash", m: "mute" };
const unfocused = [" "];

for (const b of actionButtons()) b.addEventListener("click", () => { const act = actions[b.dataset.action || ""]; if (act) act(); });
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Escape" && !loginForm.hidden) { event.preventDefault(); closeLogin(); return; }
  const target = /** @type {Element} */ (event.target);
  if (target.closest("input, textarea, select, form")) return;
  // The letters and arrows work wherever the focus is but in the login form.
  const control = target.closest("button, a[href], [tabindex]");
  const name = Object.assign({}, keys, mode().keys)[event.key];
  if (!name || (control && unfocused.includes(event.key))) return;
  event.preventDefault();
  actions[name]();
});
audio.addEventListener("play", () => {
  mode().resumed();
  $("[data-action=toggle]").textContent = "Pause";
  if ("mediaSession" in navigator) navigator.mediaSession.playbackState = "playing";
});
audio.addEventListener("pause", () => {
  mode().paused();
  $("[data-action=toggle]").textContent = "Play";
  if ("mediaSession" in navigator) navigator.mediaSession.playbackState = "paused";
});
audio.addEventListener("timeupdate", () => mode().progress());
audio.addEventListener("ended", () => mode().ended());
audio.addEventListener("error", () => mode().failed());
if ("mediaSession" in navigator) {
  // A browser may refuse an action it does not know: the others still work.
  /** @type {[MediaSessionAction, () => void][]} */
  const handlers = [["play", play], ["pause", () => audio.pause()], ["nexttrack", actions.skip]];
  for (const [action, handler] of handlers) {
    try { navigator.mediaSession.setActionHandler(action, handler); } catch (error) { /* not offered here */ }
  }
}
$("#login-open").addEventListener("click", openLogin);
$("#login-cancel").addEventListener("click", closeLogin);
$("#captcha-new").addEventListener("click", newCaptcha);
loginForm.addEventListener("submit", logIn);
$("#logout").addEventListener("click", logOut);
if (cookie("ck")) signedIn();
channels();
