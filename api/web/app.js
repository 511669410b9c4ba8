// The views (lobby, table, replay, leaderboards, a player's ratings, tournaments), routed by the URL
// fragment. Every datum comes from the public JSON API (api.js). Live views follow streams: a table its
// match's, a tournament's page the tournament's own; a table whose stream is refused or broken says so
// and reads the match on a timer until the stream is back, and a tournament's page reads the tournament
// on a slow timer while its stream is refused or broken.
import { Problem, crowded, download, follow, get, heldRefused, identity, post, remove, serverNow } from "./api.js";
import {
  actionLabels, chart, compactLabel, compactOf, cooldownOf, countdown as deadlineNode, describeAction, distinctActions, fill, h, idleOf, observation,
  phaseName,
  plural, quietHeader, scrolling, named, pastDeadlines, seatLabel, seatName, tickDeadlines,
} from "./render.js";

const view = document.getElementById("view");
let leaving = []; // what the current view must stop (its streams) when another one opens

let routeTicket = 0; // which route drew last: a slower view of a route already left must not draw over it

// A view's painter, bound to the route that opened it (called before the view's first await): once the
// person has gone elsewhere it draws nothing, and live() says so (its streams are not started).
function screen() {
  const mine = routeTicket;
  const paint = (...nodes) => { if (paint.live()) fill(view, ...nodes); };
  paint.live = () => mine === routeTicket;
  // The browser's title names the view (WCAG 2.4.2: a tab, a window list, a screen reader's first words);
  // it said "Motley" on every page.
  paint.titled = (text) => { if (paint.live()) document.title = text ? `${text} · Motley` : "Motley"; };
  return paint;
}
const show = (...nodes) => fill(view, ...nodes);

// A validation problem's `errors` ({"json": {"turn_limit": {"seconds": ["Must be ..."]}}}: keyed by where
// the field was sent, then by field): one {field, message} each, the field as "turn_limit.seconds" ("" for
// the request as a whole).
const LOCATIONS = new Set(["json", "query", "querystring", "headers", "form", "path", "view_args", "cookies", "files"]);
function problemFields(errors, path = []) {
  if (typeof errors === "string") {
    const field = path.filter((part, i) => !(i === 0 && LOCATIONS.has(part)) && part !== "_schema").join(".");
    return [{ field, message: errors }];
  }
  if (Array.isArray(errors)) return errors.flatMap((item) => problemFields(item, path));
  if (errors && typeof errors === "object") return Object.entries(errors).flatMap(([key, item]) => problemFields(item, [...path, key]));
  return [];
}

// Problems a person is told in words of their own rather than the server's detail (kept as the box's
// title, for whoever wants it): a move that arrived after its timed phase or turn had closed, or one that
// stated the version its table showed (a match created with require_version) after the match had moved on.
const CHANGED = "The table changed before your move arrived: it is shown as it is now, choose again.";
// A move that got no answer, the match having moved on when it was read again: it may be among the changes.
const ANSWER_LOST = "urn:motley:client:answer-lost";
const answerLost = () => new Problem({ type: ANSWER_LOST, title: "No answer to your move",
  detail: "Your move got no answer, and the match has moved on since: it is shown as it is now, your move perhaps among the changes." });
// A move that got no answer, and the read after it none either: its buttons wait for the server (it may
// have landed). "Could not be reached: check your connection and try again" beside buttons that could
// not be pressed, under "Sending…", said neither that the move may not have arrived nor that the page
// waits (a phone probe).
const answerPending = () => new Problem({ status: 0, type: "urn:motley:client:answer-pending", title: "No answer yet",
  detail: "No answer from the server (is the connection down?): your move may not have arrived. The table is read again every few seconds and shown as it is once the server answers; choose then." });
const PLAIN = {
  "urn:motley:problem:time-is-up": "Too late: that phase closed before your move arrived.",
  "urn:motley:problem:stale-version": CHANGED,
  "urn:motley:problem:precondition-failed": CHANGED,
  // The page offers moves only on the person's turn, so this one says the table was behind: a move from
  // another tab or device came first (a web-play probe read "it is not seat 1's turn: seats [0] are to act").
  "urn:motley:problem:not-your-turn": "Not your turn any more: the match moved on before your move arrived (a move from another tab or device came first). It is shown as it is now.",
};
const PASSING = new Set(["urn:motley:problem:time-is-up"]); // said once: the box goes by itself

// A move the table offered, refused because the match moved on meanwhile (read again beside the refusal):
// said so in the page's words, the server's detail kept as the box's title. An opponent's take of the
// same tile was told in the server's words alone ("another player holds that tile"), and a move after
// the other player resigned was told to "choose again" in a match over (a phone probe).
const OVERTAKEN = new Set(["illegal-move", "move-overtaken", "stale-version", "precondition-failed"]);
const ENDED = new Set([...OVERTAKEN, "not-your-turn", "conflict"]);
function racedWords(refusal, now, before) {
  if (!(refusal instanceof Problem) || !now || now.version <= before) return null;
  const kind = String(refusal.problem.type || "").split(":").pop();
  if (ENDED.has(kind) && now.status === "finished") return "The match ended before your move arrived: it is shown as it is now.";
  if (ENDED.has(kind) && now.status === "cancelled") return "The match was called off before your move arrived: it is shown as it is now.";
  // Your own seat changed hands meanwhile: said so, not "the table changed" (a probe was forfeited, and
  // another withdrawn, while a move was on its way).
  const mine = now.your_seat;
  if (ENDED.has(kind) && typeof mine === "number" && (now.forfeited || []).includes(mine))
    return "The tournament's organiser forfeited your seat before your move arrived: a computer plays it now.";
  if (ENDED.has(kind) && typeof mine === "number" && (now.resigned || []).includes(mine))
    return "Your seat was resigned before your move arrived (by you elsewhere, or as you left the tournament): a computer plays it now.";
  if (ENDED.has(kind) && typeof mine === "number" && (now.absent || []).includes(mine))
    return "Your turn ran out before your move arrived: press \"I'm back\" to play your seat again.";
  if (!OVERTAKEN.has(kind)) return null; // its own words (not your turn: a move from another tab came first)
  return now.legal_actions.length ? CHANGED : "The table changed before your move arrived: it is shown as it is now.";
}
const PASSING_SECONDS = 8;

let problems = 0; // problem boxes drawn (their ids)
function problemBox(error) {
  const detail = error instanceof Problem ? error.message : String(error.message || error);
  const lines = error instanceof Problem ? problemFields(error.problem.errors) : [];
  const type = error instanceof Problem ? error.problem.type : undefined;
  const plain = (error instanceof Problem && error.plain) || PLAIN[type];
  // tabindex -1: focus may be put on it (busy(), when the button pressed is gone), never reached by Tab.
  const unreached = error instanceof Problem && error.problem.status === 0; // no answer at all (api.js call)
  // An id, and one per field's line: a field at fault is described by its line (attempt's fieldAt).
  const id = `problem-${++problems}`;
  const box = h("div", { class: "problem", role: "alert", tabindex: -1, id, "data-type": type, "data-unreached": unreached,
    title: plain ? detail : null }, plain || detail,
    // A refusal naming one field with its own detail (a tournament's points) said it twice: its line is
    // kept, hidden, for the field it describes (aria-describedby reads hidden text).
    lines.length ? h("ul", { class: "problem-errors", hidden: lines.length === 1 && lines[0].message === detail },
      lines.map(({ field, message }, k) =>
      h("li", { id: `${id}-${k}`, "data-field": field }, field ? `${field}: ${message}` : message))) : null);
  if (PASSING.has(type)) setTimeout(() => box.remove(), PASSING_SECONDS * 1000);
  return box;
}

// Run an action from a click; a refusal is shown where the person looks (the problem's detail).
// `fieldAt(field, error)`: the form's field a refusal is about, or null; `field` is a validation
// problem's field ("turn_limit.seconds"), or "" for a refusal naming none (a key refused). That field is
// marked invalid and described by its message (aria-invalid, aria-describedby): a screen-reader user who
// goes back to it hears what is wrong, not only the alert said once. The next attempt clears the marks.
let lastRefusal = null; // the refusal shown last (busy() may put focus on it)
async function attempt(slot, work, fieldAt = null) {
  fill(slot);
  unblame(slot);
  try {
    return await work();
  } catch (error) {
    lastRefusal = problemBox(error);
    fill(slot, lastRefusal);
    if (fieldAt) blame(slot, lastRefusal, error, fieldAt);
    return undefined;
  }
}

const blamed = new WeakMap(); // a refusal's slot -> the fields it marked invalid, with what described them before

function blame(slot, box, error, fieldAt) {
  const lines = [...box.querySelectorAll("li[data-field]")];
  const faults = lines.length ? lines.map((line) => [fieldAt(line.dataset.field, error), line]) : [[fieldAt("", error), box]];
  const marked = new Map();
  for (const [field, line] of faults) {
    if (!field) continue;
    if (!marked.has(field)) marked.set(field, field.getAttribute("aria-describedby"));
    field.setAttribute("aria-invalid", "true");
    const fold = field.closest("details"); // a field the server refused, in a closed fold: shown
    if (fold && !fold.open) fold.open = true;
    field.setAttribute("aria-describedby", [field.getAttribute("aria-describedby"), line.id].filter(Boolean).join(" "));
  }
  blamed.set(slot, marked);
}

function unblame(slot) {
  for (const [field, before] of blamed.get(slot) || []) {
    field.removeAttribute("aria-invalid");
    if (before) field.setAttribute("aria-describedby", before);
    else field.removeAttribute("aria-describedby");
  }
  blamed.delete(slot);
}

// A control that sends a request (a button, a form's submit button): disabled while its request is in
// flight, so that a double click sends it once (each request carries an Idempotency-Key of its own: a
// second click made a second tournament, match or imported copy, or was refused as a repeat).
// Disabled, a focused button loses the focus (Chromium moves it to the body, where a screen reader starts
// again from the top of the page for the request's time: a keyboard organiser's probe, at Start, Withdraw,
// Void and Fork): the focused one is marked aria-disabled instead, keeping the focus, and the click guard
// below holds its presses meanwhile. Once the request is answered, if nothing else took the focus, it
// stays on (or goes back to) the button, or, when a redraw replaced the button, goes to the refusal shown,
// or, when the action worked and the redraw took the button away ("I'm back", Start, Leave, Resign,
// Claim: each replaced by what it did), to `landing()`: where the redrawn view's person goes on from
// (a table's first legal move, else its heading).
// The ids of the controls whose requests are in flight: a redraw meanwhile (another player registering, a
// seat taken) draws a new copy of the button, not marked busy, and a second Enter on it sent the request
// again, refused as a repeat ("you are already registered"; a probe). The copy is held as its original.
const inFlight = new Set();

async function busy(control, work, landing = null) {
  if (!control) return work();
  if (control.disabled || control.dataset.busy !== undefined || (control.id && inFlight.has(control.id))) return undefined;
  const focused = document.activeElement === control;
  const refusal = lastRefusal;
  if (focused) control.setAttribute("aria-disabled", "true");
  else control.disabled = true;
  control.dataset.busy = "";
  // A redraw's copy is held while the request itself is in flight: `work(release)` may let go once it is
  // answered and before the view is read again, so that the next action (Withdraw's Register, drawn by
  // that read or by a push) is not held for a Register still being read back (a test's click swallowed).
  let holding = Boolean(control.id);
  if (holding) inFlight.add(control.id);
  const release = () => {
    if (!holding) return;
    holding = false;
    inFlight.delete(control.id);
    const copy = document.getElementById(control.id); // a redraw's copy, held meanwhile (below)
    if (copy && copy !== control) copy.removeAttribute("aria-disabled");
  };
  try {
    return await work(release);
  } finally {
    release();
    if (focused) control.removeAttribute("aria-disabled");
    else control.disabled = false;
    delete control.dataset.busy;
    if (focused) refocusAfterBusy(control, lastRefusal !== refusal ? lastRefusal : null, landing);
  }
}

// A redraw's copy of a control whose request is in flight is marked as held as soon as it is drawn: it
// was marked only once pressed, a screen reader meanwhile hearing an enabled button that did nothing.
new MutationObserver(() => {
  for (const id of inFlight) {
    const copy = document.getElementById(id);
    if (copy && copy.dataset.busy === undefined && copy.getAttribute("aria-disabled") !== "true") copy.setAttribute("aria-disabled", "true");
  }
}).observe(view, { childList: true, subtree: true });

// A field the browser's own check stops (a bye of -1, a tax of 0) inside a closed fold was neither shown
// nor said: the form was not sent and nothing told why (a probe). Its fold opens, so the browser shows
// it and its message.
document.addEventListener("invalid", (event) => {
  const fold = event.target?.closest?.("details");
  if (fold && !fold.open) fold.open = true;
}, true);

// A press of a control busy with its request (focused, so aria-disabled and not disabled: busy()), or of a
// redraw's copy of it, does nothing: caught before the control's own handler, it neither asks its question
// again (Resign's, Void's confirm) nor sends a form a second time (Enter in a field presses the form's
// submit button).
document.addEventListener("click", (event) => {
  const control = event.target?.closest?.("button, [role=button]");
  if (!control?.matches("[data-busy][aria-disabled=true]") && !(control?.id && inFlight.has(control.id))) return;
  event.preventDefault();
  event.stopImmediatePropagation();
}, true);

function refocusAfterBusy(control, refusal, landing = null) {
  // A redraw that took the focused button away while its request ran put the focus where a redraw puts it
  // (a table's title): the refusal of that request is where the person reads on.
  if (!control.isConnected && refusal?.isConnected) return refusal.focus({ preventScroll: true });
  const active = document.activeElement;
  if (active && active !== document.body && active !== document.documentElement) return; // moved on: left be
  const target = control.isConnected && !control.disabled ? control : refusal?.isConnected ? refusal
    : landing ? landing() : null;
  target?.focus({ preventScroll: true });
}

// A form's submit handler that runs once at a time (its submit button disabled meanwhile).
function submitting(work) {
  return (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (form.dataset.busy !== undefined) return undefined;
    form.dataset.busy = "";
    return busy(form.querySelector("button[type=submit]"), () => work(event)).finally(() => { delete form.dataset.busy; });
  };
}

let gamesCache = null;
async function games() {
  gamesCache = gamesCache || (await get("/games"));
  return gamesCache;
}

const titleOf = (name) => (gamesCache || []).find((game) => game.name === name)?.title || name;

// A game's rules as Motley plays them (GET /games/{name}/rules: an HTML page for a browser), in a tab of
// their own: the table or the form being filled stays. A newcomer found them nowhere on the page (a new
// player's probe: they were in the repository only).
// A match of an older rules version links its own version's page (headed by where it differs).
const rulesHref = (name, version) => `/games/${encodeURIComponent(name)}/rules`
  + (version ? `?rules_version=${encodeURIComponent(version)}` : "");
function rulesLink(name, text, attrs = {}, version = null) {
  return h("a", { href: rulesHref(name, version), target: "_blank", rel: "noopener", class: "rules-link",
    title: `the rules of ${titleOf(name)} (opens in a new tab)`, ...attrs }, text);
}

// A text of the server's (an option's help, a house rule) citing a game's rules document as
// "(docs/rules/<game>.md)" or "(docs/rules/<game>.md, <section>)": that mention links to the rules the
// server serves (a known game's only); the words stay as they are.
const RULES_CITED = /\((docs\/rules\/([a-z][a-z0-9-]*)\.md)(?=[),])/g;
function withRulesLinks(text) {
  if (typeof text !== "string") return text;
  const known = new Set((gamesCache || []).map((game) => game.name));
  const parts = [];
  let from = 0;
  for (const cited of text.matchAll(RULES_CITED)) {
    if (!known.has(cited[2])) continue;
    const at = cited.index + 1; // after the "("
    parts.push(text.slice(from, at), rulesLink(cited[2], cited[1]));
    from = at + cited[1].length;
  }
  return parts.length ? [...parts, text.slice(from)] : text;
}

// An option's value as a person reads it: a boolean yes or no, a text without its JSON quotes, a number
// as it is (the header said `one player both trophies true · ties "highest-card"`: a new player's probe).
function optionValue(value) {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return JSON.stringify(value);
}
const optionText = (name, value) => `${name.replace(/_/g, " ")} ${optionValue(value)}`;

// -- who am I ------------------------------------------------------------------------------------
// The API key is the account (shown once by the API, stored hashed): this browser holds the only copy, so
// the header shows it on demand, signing out asks first and names it, and a key kept elsewhere signs in.
function renderMe() {
  const slot = document.getElementById("me");
  const player = identity.player();
  if (identity.auditor()) {
    // The auditor's credential names no player: it reads every match unredacted, exports, imports.
    fill(slot,
      h("span", { id: "whoami", class: "auditor", tabindex: -1 }, "Auditor"),
      h("button", { class: "small", id: "sign-out", onclick: () => { identity.forget(); renderMe(); route(); } }, "sign out"));
    return;
  }
  if (player && identity.key()) {
    fill(slot,
      // tabindex -1: focus is put on it once signed in (signedIn()), never reached by Tab.
      h("span", { id: "whoami", tabindex: -1 }, "Playing as ", h("a", { href: `#/player/${player.id}` }, named(player.name))),
      keyReveal(identity.key()),
      h("button", { class: "small", id: "sign-out", onclick: () => signOut(player) }, "sign out"),
    );
    return;
  }
  const name = h("input", { id: "register-name", placeholder: "your name", "aria-label": "your name", maxlength: 40, required: true });
  const error = h("span");
  const form = h("form", { id: "register", onsubmit: submitting(async () => {
    const registered = await attempt(error, () => post("/players", { name: name.value.trim() }, { anonymous: true }),
      (field) => (field === "name" ? name : null));
    if (registered) { identity.remember(registered); await rememberFeedStart(registered.id); signedIn(); }
  }) }, name, h("button", { type: "submit" }, "Register"), error);
  fill(slot, refusedNote(), form, signInForm());
}

// Registered or signed in: the header and the view are drawn anew, the form used gone with the focus (to
// the page's body: a keyboard or screen-reader user started again from the top). It goes to the header's
// "Playing as …", which says who the page now acts as; Tab goes on from there.
function signedIn() {
  renderMe();
  route();
  document.getElementById("whoami")?.focus({ preventScroll: true });
}

// Why the page shows nobody signed in, when the server refused the key it held (revoked, or replaced in
// another browser): said until the person signs in or registers again, or dismisses it.
function refusedNote() {
  if (!identity.refused()) return null;
  const note = h("p", { id: "signed-out-reason", class: "key-box", role: "alert" },
    "You were signed out: your key was revoked or replaced: sign in again (with your new key). ",
    h("button", { class: "small", type: "button", id: "signed-out-ok", "aria-label": "dismiss the sign-out notice",
      onclick: () => { identity.clearRefused(); note.remove(); } }, "ok"));
  return note;
}

// What this browser kept about a player besides the key: the invitations its lobby heard, its stream's
// position, the dismissed ones and its tournament news. A player's sign-out (or a refused key) leaves none
// of it behind.
function forgetPlayerData(playerId) {
  if (!playerId) return;
  for (const name of [FEED(playerId), INVITES(playerId), DISMISSED(playerId), NEWS(playerId), NEWS_GONE(playerId)]) {
    localStorage.removeItem(name);
  }
}

function keyReveal(key) {
  const code = h("code", { id: "api-key" }, key);
  const copy = h("button", { class: "small", type: "button", id: "copy-key", onclick: async () => {
    try {
      await navigator.clipboard.writeText(key);
      copy.textContent = "copied";
    } catch {
      // no clipboard here (a page served over plain http elsewhere than localhost): select it to copy by hand
      getSelection().selectAllChildren(code);
    }
  } }, "copy");
  return h("details", { class: "your-key", id: "your-key", ontoggle: (event) => { if (event.target.open) drawKeys(keys); } },
    h("summary", {}, "your key"),
    h("div", { class: "key-box" }, "Keep it to sign in again (another browser, or after signing out): ", code, " ", copy),
    keys);
}

// The player's keys (GET /players/me/keys: their ids, never the keys): replace this browser's key with a
// new one (POST, then DELETE of the old one: a key seen by someone else is worth nothing after), or revoke
// another (a key kept elsewhere, or one whose answer was lost).
const keys = h("div", { class: "keys", id: "keys" });

async function drawKeys(box) {
  const error = h("div", { id: "keys-error" });
  const player = identity.player();
  const key = identity.key();
  if (!player || !key) return;
  let held;
  try {
    held = await get("/players/me/keys", { key });
  } catch (refusal) {
    fill(box, problemBox(refusal));
    return;
  }
  const current = held.items.find((item) => item.current);
  const rotate = async () => {
    if (!confirm("Replace your key? This browser keeps the new one; the old one stops working at once "
      + "(sign in again elsewhere with the new key).")) return;
    await attempt(error, async () => {
      const fresh = await post("/players/me/keys", undefined, { key });
      identity.remember({ api_key: fresh.api_key, id: player.id, name: player.name });
      if (current) await remove(`/players/me/keys/${encodeURIComponent(current.key_id)}`, { key: fresh.api_key });
      renderMe();
      route(); // the view was opened with the old key: open it again with the new one
      const reveal = document.getElementById("your-key");
      if (reveal) {
        reveal.open = true;
        reveal.append(h("p", { id: "keys-note", role: "status" }, "Your key was replaced: keep the new one."));
      }
    });
  };
  const revoke = (item) => async () => {
    if (!confirm(`Revoke the key ${item.key_id}? Whoever holds it is refused from now on.`)) return;
    await attempt(error, async () => {
      await remove(`/players/me/keys/${encodeURIComponent(item.key_id)}`, { key });
      await drawKeys(box);
    });
  };
  fill(box,
    h("p", {}, `Your keys (${held.items.length}):`),
    h("ul", { class: "list", id: "key-list" }, held.items.map((item) => h("li", { "data-key-id": item.key_id },
      h("code", {}, item.key_id), item.current ? " (this browser's)" : [" ",
        h("button", { class: "small revoke-key", type: "button", "aria-label": `revoke key ${item.key_id}`, onclick: revoke(item) }, "revoke")]))),
    h("button", { class: "small", type: "button", id: "rotate-key", onclick: rotate }, "replace this key"),
    error);
}

function signOut(player) {
  const key = identity.key();
  if (!confirm(`Sign out ${player.name}? This browser forgets the key. Without it the account is lost `
    + `(its ratings, running matches and tournament entries). Keep it to sign in again:\n\n${key}`)) return;
  identity.forget();
  forgetPlayerData(player.id);
  renderMe();
  route();
}

// Sign in with a key kept from before: checked with GET /players/me before it is stored.
function signInForm() {
  const key = h("input", { id: "sign-in-key", type: "password", autocomplete: "off", placeholder: "API key", "aria-label": "your API key", required: true });
  const error = h("span", { id: "sign-in-error" });
  const form = h("form", { id: "sign-in", onsubmit: submitting(async () => {
    const typed = key.value.trim();
    const me = await attempt(error, async () => {
      try {
        return await get("/players/me", { key: typed });
      } catch (refusal) {
        // The auditor's credential is valid but names no player: /players/me answers it 403 so.
        if (refusal instanceof Problem && refusal.problem.status === 403 && /auditor/i.test(refusal.problem.detail || ""))
          return { auditor: true };
        throw refusal instanceof Problem && refusal.problem.status === 401
          ? Object.assign(new Error(`That key was refused: ${refusal.message}`), { keyRefused: true }) : refusal;
      }
    }, (field, refusal) => (refusal.keyRefused ? key : null));
    if (me?.auditor) { identity.rememberAuditor(typed); signedIn(); }
    else if (me) { identity.remember({ api_key: typed, id: me.id, name: me.name }); signedIn(); }
  }) }, key, h("button", { type: "submit" }, "Sign in"), error);
  return h("details", { class: "sign-in", id: "sign-in-box" }, h("summary", {}, "sign in with a key"), form);
}

// -- lobby ---------------------------------------------------------------------------------------
const LOBBY_READ_SECONDS = 10; // the lobby's lists are read again this often while the page is shown

async function lobbyLists() {
  // The lists leave private (unlisted) matches out, except a player's own asked for as theirs: a signed-in
  // person's open matches, private ones included, are listed first, and not again among the others.
  // Their running matches too (GET /matches?player=<id>&status=active), first, and not again below.
  const me = identity.key() ? identity.player() : null;
  const [open, active, finished, mine, running] = await Promise.all([
    ...["open", "active", "finished"].map((status) => get(`/matches?status=${status}&limit=20`)),
    ...["open", "active"].map((status) => (me ? get(`/matches?status=${status}&player=${encodeURIComponent(me.id)}&limit=50`) : null))]);
  const mineIds = new Set([...(mine ? mine.items : []), ...(running ? running.items : [])].map((match) => match.id));
  return [
    mine && mine.items.length ? h("section", { id: "my-open" }, h("h2", {}, "Your open matches"), matchTable(mine.items, "open")) : null,
    running && running.items.length ? h("section", { id: "my-running" }, h("h2", {}, "Your running matches"), matchTable(running.items, "active")) : null,
    h("section", {}, h("h2", {}, "Open matches"), matchTable(open.items.filter((match) => !mineIds.has(match.id)), "open")),
    h("section", {}, h("h2", {}, "Running matches"), matchTable(active.items.filter((match) => !mineIds.has(match.id)), "active")),
    h("section", {}, h("h2", {}, "Finished matches"), matchTable(finished.items, "finished")),
  ];
}

// The lobby drawn again over itself keeps its forms as they are, for the same player: a route run twice in
// a moment (signed in, then the Lobby link) drew a new form over a choice just made (a phone probe chose
// Tumult Royale and 2 seats, and the form said Jest).
function keptForm(id, make) {
  const me = identity.player();
  const form = document.getElementById(id);
  if (form && view.contains(form) && form.dataset.player === me.id) return form;
  const made = make();
  made.dataset.player = me.id;
  return made;
}

async function lobby() {
  const show = screen();
  const all = await games();
  const lists = h("div", { id: "lobby-lists" }, await lobbyLists());
  const invitations = identity.player() ? invitationsBox() : null;
  show.titled("Lobby");
  show(
    h("h1", {}, "Lobby"),
    invitations ? [invitations.box, invitations.news, invitations.said] : null,
    identity.player() ? [keptForm("create", () => createForm(all)), keptForm("join-private", joinForm)]
      : identity.auditor() ? auditorPanel()
        : h("p", { class: "hint" }, "Register (at the top of the page) to create and join matches; anyone may watch."),
    lists,
    h("section", {}, h("h2", {}, "Games"), h("div", { class: "games" }, all.map((game) =>
      h("article", { class: "game" }, h("h3", {}, game.title),
        h("p", {}, game.summary),
        h("p", { class: "muted" }, `${game.min_players}–${game.max_players} players · rules ${game.rules_version}`),
        houseRules(game, `house-rules-${game.name}`),
        h("p", { class: "game-links" }, rulesLink(game.name, "Rules", { id: `rules-${game.name}`,
          "aria-label": `Rules of ${game.title} (opens in a new tab)` }), " · ",
        h("a", { href: `#/leaderboard/${game.name}` }, "leaderboard")))))),
  );
  if (show.live()) keepFresh(lists, invitations ? invitations.refresh : null);
  if (show.live() && invitations) invitations.start();
}

// -- invitations -----------------------------------------------------------------------------------
// A player invited by id (POST /matches/{id}/invitations), or for whom a rematch or a fork keeps a seat,
// learns it from their stream (GET /players/me/stream, `invitation` items), and GET /players/me/invitations
// lists those still open (sent before this browser followed the stream: a key signed in here later).
// This browser keeps, per player, the invitations its lobby heard and the stream's last position
// (resumed with Last-Event-ID: what came while no lobby was open arrives then too); a dismissed one
// stays dismissed here. A new registration keeps the log's position at once, so none is missed.
const FEED = (player) => `motley.feed.${player}`;
const INVITES = (player) => `motley.invitations.${player}`;
const DISMISSED = (player) => `motley.dismissed.${player}`;
const NEWS = (player) => `motley.tournament-news.${player}`;
// The news items dismissed (their ids, the latest NEWS_KEPT): one heard again later (another tab's stream,
// behind this one's) is not shown again.
const NEWS_GONE = (player) => `motley.tournament-news-dismissed.${player}`;
// The tournament news kept per player (the newest first).
const NEWS_KEPT = 20;

// The player's stream position, kept for every tab of this browser, only ever moved on: a tab whose stream
// lagged wrote an older position over another's newer one, and a reload then heard again, and showed again,
// the news the other tab had dismissed (a fresh-clone CI run beside a probe).
function keepFeed(player, id) {
  const kept = Number(localStorage.getItem(FEED(player)));
  if (!(Number.isFinite(kept) && kept >= Number(id))) localStorage.setItem(FEED(player), id);
}

// What the stream tells a player of their tournaments (docs/tournaments.md, "A bot in a tournament"), as a
// line of the lobby's "Your tournaments"; null for an item of another kind.
function newsText(kind, item, playerId) {
  const points = (n) => `${n} point${n === 1 ? "" : "s"}`;
  const standing = item.standing || {};
  const ranked = (item.tournament.players || []).filter((entry) => entry.status !== "disqualified").length;
  const place = Number.isInteger(standing.rank) ? `${standing.rank} of ${ranked} with ${points(standing.points)}` : null;
  switch (kind) {
    case "bye": return `you sit out round ${item.round} (a bye, worth ${points(item.points)})`;
    case "forfeited": return `you were forfeited as absent from table ${item.table} of round ${item.round}`;
    case "withdrawn": return item.by === playerId ? "you withdrew" : "the organiser withdrew you";
    case "disqualified": return `the organiser disqualified you${item.reason ? `: ${item.reason}` : ""}`;
    case "tournament-finished": return place ? `it is over: you finished ${place}` : "it is over";
    // After the end, a sanction (another's disqualification, a void) moved the final standings.
    case "standings-changed": return `a sanction changed the final standings${place ? `: you are now ${place}` : ""}`;
    default: return null;
  }
}

// A list's item was dismissed and the list drawn anew, the pressed button gone (the focus fell to the page's
// body: a keyboard user started again from the top): the focus goes to the button now at its place, else the
// last one, else the page's heading.
function focusAfterDismissal(list, index) {
  const buttons = [...list.querySelectorAll("button")].filter((button) => button.textContent === "dismiss");
  const next = buttons[Math.min(index, buttons.length - 1)];
  if (next && list.offsetParent !== null) {
    next.focus();
    return;
  }
  const heading = document.querySelector("#view h1");
  if (heading) {
    heading.setAttribute("tabindex", "-1");
    heading.focus();
  }
}

// A list kept in localStorage under ``name`` (empty when missing or not a list).
function storedList(name) {
  try {
    const kept = JSON.parse(localStorage.getItem(name) || "[]");
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

const dismissedNews = (player) => storedList(NEWS_GONE(player));
const storedNews = (player) => storedList(NEWS(player));

function storedInvitations(player) {
  try {
    return JSON.parse(localStorage.getItem(INVITES(player)) || "{}") || {};
  } catch {
    return {};
  }
}

function keepInvitations(player, invitations) {
  localStorage.setItem(INVITES(player), JSON.stringify(invitations));
}

// The log's position now, as the start of a new player's stream (nothing before concerned them).
async function rememberFeedStart(player) {
  try {
    const { position } = await get("/health", { anonymous: true });
    if (Number.isInteger(position) && !localStorage.getItem(FEED(player))) localStorage.setItem(FEED(player), String(position));
  } catch {
    // the stream then starts from its own end
  }
}

// An invitation still worth showing: the match is open and the player not seated at it yet.
function stillInvited(match, player) {
  return match.status === "open" && !match.seats.some((seat) => seat.player_id === player);
}

function invitationsBox() {
  const me = identity.player();
  const key = identity.key();
  const list = h("ul", { class: "list", id: "invitation-list" });
  const error = h("div", { id: "invitation-error" });
  // What arrives is said in a sentence of its own (a status line, always there, out of sight): the boxes
  // were live regions, and an invitation was read out with its buttons, "… accept open dismiss" (a
  // keyboard probe).
  const said = h("p", { id: "invitations-said", class: "visually-hidden", role: "status" });
  const box = h("section", { id: "invitations", class: "panel", hidden: true },
    h("h2", {}, "Invitations"), list, error);
  // The player's tournament news from the same stream: a bye, a forfeit, a withdrawal or disqualification,
  // the end and their place, each until dismissed (a bye said nowhere else but the tournament's page).
  const newsList = h("ul", { class: "list", id: "tournament-news-list" });
  const newsBox = h("section", { id: "tournament-news", class: "panel", hidden: true },
    h("h2", {}, "Your tournaments"), newsList);
  let news = storedNews(me.id);
  // Read again before each change and at another tab's: two tabs of one player each saved its own list over
  // the other's, a dismissal in one undone by the next item heard in the other.
  const change = (edit) => {
    const mine = identity.key() === key;
    if (mine) news = storedNews(me.id);
    news = edit(news);
    if (mine) localStorage.setItem(NEWS(me.id), JSON.stringify(news));
    drawNews();
  };
  const onStorage = (event) => {
    if (event.key === NEWS(me.id) && identity.key() === key) {
      news = storedNews(me.id);
      drawNews();
    }
  };
  window.addEventListener("storage", onStorage);
  leaving.push(() => window.removeEventListener("storage", onStorage));
  const dismiss = (entry) => {
    const index = news.findIndex((other) => other.id === entry.id);
    if (identity.key() === key) {
      localStorage.setItem(NEWS_GONE(me.id), JSON.stringify([entry.id, ...dismissedNews(me.id)].slice(0, NEWS_KEPT)));
    }
    change((list) => list.filter((other) => other.id !== entry.id));
    focusAfterDismissal(newsList, index);
  };
  const drawNews = () => {
    newsBox.hidden = news.length === 0;
    fill(newsList, news.map((entry) => h("li", { "data-tournament": entry.tournament_id, "data-kind": entry.kind },
      h("a", { href: `#/tournament/${entry.tournament_id}` }, h("bdi", {}, entry.name)), `: ${entry.text} `,
      // Named by its words: several items of one tournament had buttons of one name.
      h("button", { class: "small", type: "button", "aria-label": `dismiss "${entry.text}" (${entry.name})`,
        onclick: () => dismiss(entry) }, "dismiss"))));
  };
  // An item heard again (a stream resumed inside a group of one position) is told once. A place (the end, a
  // sanction after it) replaces the tournament's earlier one: both read as the present.
  const PLACED = new Set(["tournament-finished", "standings-changed"]);
  const tell = (kind, item) => {
    const text = newsText(kind, item, me.id);
    const id = `${item.tournament_id}:${item.version}:${kind}`;
    if (!text || dismissedNews(me.id).includes(id)) return; // dismissed already, in this tab or another
    change((list) => {
      const placed = (entry) => entry.tournament_id === item.tournament_id && PLACED.has(entry.kind);
      if (list.some((entry) => entry.id === id || (PLACED.has(kind) && placed(entry) && entry.version > item.version))) return list;
      // Disqualified, the player has no place any more: the tournament's earlier place goes too.
      const kept = PLACED.has(kind) || kind === "disqualified"
        ? list.filter((entry) => !(placed(entry) && entry.version < item.version)) : list;
      said.textContent = `${item.tournament.name}: ${text}`;
      return [{ id, kind, version: item.version, tournament_id: item.tournament_id, name: item.tournament.name, text },
        ...kept].slice(0, NEWS_KEPT);
    });
  };
  drawNews();
  let held = storedInvitations(me.id);
  // Kept only while this lobby shows the player it was opened as (another tab may sign out meanwhile).
  const keep = () => { if (identity.key() === key) keepInvitations(me.id, held); };
  const drop = (matchId) => {
    if (!held[matchId]) return false;
    delete held[matchId];
    keep();
    return true;
  };
  const accept = (button, invite) => busy(button, async () => {
    await attempt(error, async () => {
      try {
        await post(`/matches/${invite.match_id}/seats`, {}, { key });
      } catch (refusal) {
        // The match was called off, filled or started, or this invitation was accepted in another tab:
        // it goes, and the refusal says why.
        const status = refusal instanceof Problem ? refusal.problem.status : 0;
        if (status !== 409 && status !== 404) throw refusal;
        drop(invite.match_id);
        // Taken in another tab: the seat is this player's already, the table opens.
        const seen = status === 409 ? await get(`/matches/${invite.match_id}`, { key }).catch(() => null) : null;
        if (seen && seen.seats.some((seat) => seat.player_id === me.id)) {
          location.hash = `#/match/${invite.match_id}`;
          return;
        }
        throw new Error(`The invitation to ${titleOf(invite.game)}${invite.from ? ` by ${invite.from}` : ""} is no longer open: ${refusal.message}`);
      }
      drop(invite.match_id);
      location.hash = `#/match/${invite.match_id}`;
    });
    draw(); // a refusal stays in sight though no invitation is left
  });
  const decline = (matchId) => {
    const index = [...list.children].findIndex((item) => item.dataset.match === matchId);
    drop(matchId);
    dismissed.add(matchId);
    if (identity.key() === key) localStorage.setItem(DISMISSED(me.id), JSON.stringify([...dismissed].slice(-200)));
    draw();
    focusAfterDismissal(list, index);
  };
  const draw = () => {
    const items = Object.values(held).sort((a, b) => (a.at < b.at ? 1 : -1));
    box.hidden = items.length === 0 && !error.firstChild;
    fill(list, items.map((invite) => h("li", { "data-match": invite.match_id },
      `${titleOf(invite.game)}: `, invite.from ? [named(invite.from), " invites you"] : "a seat is kept for you", " (", h("bdi", {}, invite.seats), ")", " ",
      h("button", { class: "small accept-invitation", type: "button", "aria-label": `accept the invitation to ${titleOf(invite.game)} by ${invite.from || "its players"}`,
        onclick: (event) => accept(event.currentTarget, invite) }, "accept"), " ",
      h("a", { href: `#/match/${invite.match_id}` }, "open"), " ",
      h("button", { class: "small", type: "button", "aria-label": `dismiss the invitation to ${titleOf(invite.game)}`,
        onclick: () => decline(invite.match_id) }, "dismiss"))));
  };
  const hear = (match) => {
    if (!stillInvited(match, me.id)) {
      if (drop(match.id)) draw();
      return;
    }
    const creator = match.seats.find((seat) => seat.player_id && seat.player_id === match.created_by);
    if (!held[match.id]) said.textContent = `New invitation: ${titleOf(match.game)}${creator?.name ? ` by ${creator.name}` : ""}.`;
    held[match.id] = { match_id: match.id, game: match.game, from: creator?.name || held[match.id]?.from || null,
      seats: seatsText(match.seats), at: held[match.id]?.at || new Date().toISOString(), heard: Date.now() };
    keep();
    draw();
  };
  draw();
  const dismissed = new Set(storedList(DISMISSED(me.id)));
  // The invitations still open (GET /players/me/invitations: open matches with a seat left for this
  // player, not joined yet): those listed and not held (sent before this browser followed the stream)
  // show; those held and no longer listed (called off, filled, started, accepted in another tab) go,
  // unless the stream told of them after the list was asked for. Read as the lobby opens and at each
  // of its re-reads.
  let reading = false;
  const refresh = async () => {
    if (reading || !box.isConnected) return;
    reading = true;
    const sent = Date.now();
    try {
      const page = await get("/players/me/invitations?limit=200", { key });
      const listed = new Set(page.items.map((row) => row.id));
      const fresh = [];
      for (const row of page.items) {
        if (dismissed.has(row.id)) continue;
        if (!held[row.id]) fresh.push(row.id);
        held[row.id] = { match_id: row.id, game: row.game, from: held[row.id]?.from || null, seats: seatsText(row.seats),
          at: held[row.id]?.at || row.last_activity, heard: Math.max(held[row.id]?.heard || 0, sent) };
      }
      // A list cut short (more than its limit) names not every one still open: none is pruned then.
      if (!(page.total > page.items.length)) {
        for (const [matchId, invite] of Object.entries(held)) if (!listed.has(matchId) && !((invite.heard || 0) > sent)) delete held[matchId];
      }
      keep();
      draw();
      // Those new here: who invites (the list's rows do not name the match's creator).
      await Promise.all(fresh.map(async (matchId) => {
        try {
          hear(await get(`/matches/${matchId}`, { key }));
        } catch {
          // shown without the inviter's name
        }
      }));
    } catch {
      // the stream still tells of what comes; the next re-read tries again
    } finally {
      reading = false;
    }
  };
  const start = async () => {
    await refresh();
    if (!box.isConnected) return; // the lobby was left meanwhile
    const listen = (since) => follow("/players/me/stream?seconds=300", (name, item) => {
      if (name === "invitation" && item?.match) hear(item.match);
      else if (item?.tournament_id && item.tournament) tell(name, item);
      else if (item?.match_id && held[item.match_id] && item.match) hear(item.match); // started, cancelled: gone
      return undefined;
    }, { key, since, onId: (id) => { if (identity.key() === key) keepFeed(me.id, id); },
      onState: (state) => { box.dataset.live = state === "live" ? "true" : "false"; },
      // A kept position this server never wrote (another server's, or its log started again): from now.
      // Not so for a refused key (the page is drawn again signed out).
      onError: (refusal) => {
        if (refusal instanceof Problem && refusal.problem.status === 401) return;
        if (since !== null && box.isConnected) { localStorage.removeItem(FEED(me.id)); leaving.push(listen(null)); }
      } });
    leaving.push(listen(localStorage.getItem(FEED(me.id))));
  };
  return { box, news: newsBox, said, start, refresh };
}

// -- the auditor -----------------------------------------------------------------------------------
// The auditor (MOTLEY_AUDITOR_KEY) reads every match unredacted at any version, exports it, and imports an
// export (POST /matches/import, JSON Lines: a finished or cancelled match's whole history, replayed through
// the rules); the imported copy opens.
function auditorPanel() {
  const file = h("input", { id: "import-file", type: "file", accept: ".jsonl,.ndjson,application/x-ndjson,application/json,text/plain", required: true });
  const error = h("div", { id: "import-error" });
  const submit = submitting(() => attempt(error, async () => {
      const chosen = file.files && file.files[0];
      if (!chosen) throw new Error("Choose an export file (JSON Lines) first.");
      const imported = await post("/matches/import", await chosen.text(), { contentType: "application/x-ndjson" });
      location.hash = `#/match/${imported.id}`;
    }));
  return h("form", { id: "import", class: "panel", onsubmit: submit },
    h("h2", {}, "Import a match"),
    h("p", { class: "muted" }, "An auditor's export of a finished or cancelled match: every event is replayed through the rules."),
    h("label", {}, "export file (JSON Lines) ", file),
    h("button", { type: "submit", id: "import-submit" }, "Import"), error);
}

// Others open, start and finish matches meanwhile: the lists (only they: a form being filled stays) are
// read again every few seconds while the page is shown, and at once when it is shown or focused again.
// `also`: read beside them (the invitations still open).
function keepFresh(lists, also) {
  let reading = false;
  const read = async () => {
    if (reading || document.visibilityState !== "visible") return;
    reading = true;
    if (also) also();
    try {
      const fresh = await lobbyLists();
      // A button being pressed (join) or a link focused in the lists is not pulled away mid-press.
      if (!lists.contains(document.activeElement)) fill(lists, fresh);
    } catch {
      // the next read tries again
    } finally {
      reading = false;
    }
  };
  const timer = setInterval(read, LOBBY_READ_SECONDS * 1000);
  const onShown = () => { if (document.visibilityState === "visible") read(); };
  window.addEventListener("focus", read);
  document.addEventListener("visibilitychange", onShown);
  leaving.push(() => { clearInterval(timer); window.removeEventListener("focus", read); document.removeEventListener("visibilitychange", onShown); });
}

// A game option's field; `help`: the id of its visible description. A "number" takes fractions (step any),
// an "integer" whole numbers.
function optionInput(name, schema, help) {
  const described = help ? { "aria-describedby": help } : {};
  if (schema.type === "boolean") return h("input", { type: "checkbox", name, checked: schema.default === true, ...described });
  if (schema.enum) return h("select", { name, ...described }, schema.enum.map((v) => h("option", { value: v, selected: v === schema.default }, v)));
  if (schema.type === "integer" || schema.type === "number")
    return h("input", { type: "number", name, value: schema.default ?? "", min: schema.minimum, max: schema.maximum,
      step: schema.type === "number" ? "any" : 1, placeholder: schema.default === undefined ? "default" : null, ...described });
  return h("input", { name, value: schema.default ?? "", ...described });
}

// An option with its description shown (a tooltip is out of reach on a phone or from the keyboard). An
// option that switches house rules (`rules`: the game's house_rules naming it) says so in words, in its
// label (part of its accessible name) and in a note naming the rules.
function optionField(name, schema, rules = []) {
  const help = schema.description ? `option-help-${name}` : null;
  const note = rules.length ? `option-house-${name}` : null;
  // The option in plain words (its schema's title), shown; the exact rule (its description, house-rule tags
  // and all) one click away: a newcomer met "[PROPOSAL]", "HR 3.4" and file names first (a probe).
  const summary = schema.title ? `option-summary-${name}` : null;
  const input = optionInput(name, schema, [summary, help, note].filter(Boolean).join(" ") || null);
  input.id = `option-${name}`;
  // The label names the field (and says "house rule"); the description and the note are outside it, so a
  // screen reader reads the field's name short and its description once (aria-describedby), not a
  // 300-character name with the description read again (a probe of the form).
  return h("div", { class: note ? "option house-ruled" : "option" },
    h("label", { for: input.id }, `${name.replace(/_/g, " ")} `,
      note ? h("span", { class: "house-rule-badge" }, "house rule") : null),
    input,
    summary ? h("small", { class: "option-summary", id: summary }, schema.title) : null,
    help && summary ? h("details", { class: "option-more" }, h("summary", {}, "the exact rule"),
      h("small", { class: "option-help", id: help }, withRulesLinks(schema.description))) : null,
    help && !summary ? h("small", { class: "option-help", id: help }, withRulesLinks(schema.description)) : null,
    note ? h("small", { class: "house-rule-note", id: note },
      `switches Motley's house rule${rules.length > 1 ? "s" : ""} ${rules.map((rule) => rule.id).join(", ")} (not the publisher's)`) : null);
}

// A game's house rules (GET /games: house_rules), the rules Motley decided where the rulebook is silent:
// flagged as not the publisher's (house-rules.md), each with its id in the game's rules document. Folded.
function houseRules(game, id) {
  const rules = game.house_rules || [];
  if (!rules.length) return null;
  return h("details", { class: "house-rules", id },
    h("summary", {}, `House rules (Motley's, not the publisher's): ${rules.length}`),
    h("ul", {}, rules.map((rule) => h("li", { "data-rule": rule.id },
      h("span", { class: "house-rule-id" }, rule.id), " ", withRulesLinks(rule.text),
      rule.option ? h("span", { class: "muted" }, ` (option ${rule.option.replace(/_/g, " ")})`) : null))));
}

// The options as the form holds them: an emptied number or text field is left out, so the server applies
// its default (Number("") would send 0, which the option may refuse).
function chosenOptions(box, properties) {
  const options = {};
  for (const input of box.querySelectorAll("[name]")) {
    const schema = properties[input.name];
    if (schema.type === "boolean") options[input.name] = input.checked;
    else if (input.value.trim() === "") continue;
    else options[input.name] = schema.type === "integer" || schema.type === "number" ? Number(input.value) : input.value;
  }
  return options;
}

function createForm(all) {
  const gameSelect = h("select", { id: "create-game" }, all.map((game) => h("option", { value: game.name }, game.title)));
  const seatsInput = h("input", { id: "create-seats", type: "number" });
  const optionsBox = h("div", { class: "options" });
  const rulesBox = h("div");
  const seatsBox = h("div", { class: "seats" });
  const turnLimit = h("input", { id: "create-turn-limit", type: "number", min: 1, max: 604800, placeholder: "none",
    "aria-describedby": "create-turn-limit-help" });
  // What happens to a seat whose turn ran out (turn_limit.on_timeout): chosen with a turn limit only.
  const onTimeoutSelect = h("select", { id: "create-on-timeout", disabled: true, "aria-describedby": "create-on-timeout-help" },
    h("option", { value: "computer" }, "a computer plays"), h("option", { value: "claim" }, "the others may claim"));
  turnLimit.addEventListener("input", () => { onTimeoutSelect.disabled = !turnLimit.value; });
  const unlisted = h("input", { id: "create-unlisted", type: "checkbox", "aria-describedby": "create-unlisted-help" });
  const error = h("div");
  // The field a refusal is about: the request's own fields, a game option (a validation problem names it,
  // or the game's refusal of its options does, in its detail: "option 'deals' must be between 1 and 100").
  const optionNamed = (test) => [...optionsBox.querySelectorAll("[name]")].find((input) => test(input.name)) || null;
  const fieldAt = (field, refusal) => {
    if (field === "seats") return seatsInput;
    if (field === "game") return gameSelect;
    if (field.startsWith("turn_limit.on_timeout")) return onTimeoutSelect;
    if (field.startsWith("turn_limit")) return turnLimit;
    if (field.startsWith("options.")) return optionNamed((name) => name === field.split(".")[1]);
    const said = refusal instanceof Problem && / options$/.test(refusal.problem.rule || "") ? refusal.problem.detail || "" : "";
    return field === "" && said ? optionNamed((name) => new RegExp(`\\b${name}\\b`).test(said)) : null;
  };
  const current = () => all.find((game) => game.name === gameSelect.value);
  const drawSeats = () => {
    const game = current();
    const n = Number(seatsInput.value);
    // Drawn again on every change of the seat count: the choices already made stay.
    const chosen = Object.fromEntries([...seatsBox.querySelectorAll("select.computer")].map((select) => [select.dataset.seat, select.value]));
    fill(seatsBox, ...Array.from({ length: n }, (_, seat) => seat === 0
      ? h("label", {}, "seat 0: you")
      : h("label", {}, `seat ${seat}: `, h("select", { "data-seat": seat, class: "computer" },
        h("option", { value: "" }, "a person"),
        game.computer_levels.map((level) => h("option", { value: level, selected: chosen[seat] === level }, `computer (${level})`))))));
  };
  const drawGame = () => {
    const game = current();
    fill(seatsBox); // another game: its own levels, nothing chosen yet
    Object.assign(seatsInput, { min: game.min_players, max: game.max_players, value: game.min_players });
    const properties = game.options_schema.properties || {};
    const rules = game.house_rules || [];
    fill(optionsBox, ...Object.entries(properties).map(([name, schema]) =>
      optionField(name, schema, rules.filter((rule) => rule.option === name))));
    fill(rulesBox, houseRules(game, "create-house-rules"));
    drawSeats();
  };
  gameSelect.addEventListener("change", drawGame);
  seatsInput.addEventListener("change", drawSeats);
  drawGame();
  const submit = submitting(async () => {
    const game = current();
    const options = chosenOptions(optionsBox, game.options_schema.properties || {});
    const computers = {};
    for (const select of seatsBox.querySelectorAll("select.computer")) if (select.value) computers[select.dataset.seat] = select.value;
    await attempt(error, async () => {
      const body = { game: game.name, seats: Number(seatsInput.value), options, computers };
      if (turnLimit.value) body.turn_limit = { seconds: Number(turnLimit.value), on_timeout: onTimeoutSelect.value };
      if (unlisted.checked) body.unlisted = true; // private: joined with its invitation code only
      const match = await post("/matches", body);
      const joined = await post(`/matches/${match.id}/seats`, {});
      // Seat 0 is ours and the rest computers: nobody else to wait for, so start at once.
      if (joined.match.seats.every((seat) => seat.player_id || seat.computer)) await post(`/matches/${match.id}/start`);
      location.hash = `#/match/${match.id}`;
    }, fieldAt);
  });
  return h("form", { id: "create", class: "panel", onsubmit: submit },
    h("h2", {}, "New match"),
    h("label", {}, "game ", gameSelect), h("label", {}, "seats ", seatsInput),
    // Each field's help shown under it (a tooltip is out of reach on a phone or from the keyboard), outside
    // its label, as the game options' (optionField): the name read short, the help once.
    h("div", { class: "option" }, h("label", {}, "turn limit (s) ", turnLimit),
      h("small", { class: "option-help", id: "create-turn-limit-help" },
        "seconds each turn may take; then the seat is absent until its player is back")),
    // With computers in every other seat nobody is left to wait for a claim: the match ends at once
    // (README, "when no present person is left to claim"), a surprise the help now says.
    h("div", { class: "option" }, h("label", {}, "when a turn runs out ", onTimeoutSelect),
      h("small", { class: "option-help", id: "create-on-timeout-help" },
        "a computer plays the seat until its player is back; or nobody does, and the others may claim the match (it ends, that seat last). "
        + "With only computers left to claim, the match ends as soon as your turn runs out.")),
    h("div", { class: "option" }, h("label", {}, unlisted, " private (invitation code)"),
      h("small", { class: "option-help", id: "create-unlisted-help" },
        "kept out of the open list; people join with the invitation code shown on its table")),
    optionsBox, rulesBox, seatsBox,
    h("button", { type: "submit", id: "create-submit" }, "Create match"), error);
}

// A private (unlisted) match is joined by its id and invitation code (POST /matches/{id}/seats with
// invitation_code): its table shows both to the creator, and a link that carries them (#/join/<id>/<code>).
const inviteLink = (id, code) => `${location.origin}${location.pathname}#/join/${id}/${encodeURIComponent(code)}`;

function parseInvitation(text) {
  const link = /#\/join\/([^/?\s]+)\/([^/?\s]+)/.exec(text);
  return link ? { id: link[1], code: decodeURIComponent(link[2]) } : null;
}

async function joinWithCode(id, code) {
  await post(`/matches/${id}/seats`, { invitation_code: code });
  location.hash = `#/match/${id}`;
}

function joinForm() {
  const matchInput = h("input", { id: "join-match", placeholder: "match id, or the invitation link", size: 38, required: true });
  const codeInput = h("input", { id: "join-code", placeholder: "invitation code", size: 16 });
  const error = h("div");
  const submit = submitting(() => {
    const link = parseInvitation(matchInput.value.trim());
    const id = link ? link.id : matchInput.value.trim();
    const code = codeInput.value.trim() || (link ? link.code : "");
    // The field a refusal is about: the code's (wrong, or missing for a private match), else the match's.
    return attempt(error, () => joinWithCode(id, code), (field, refusal) => (field === "invitation_code"
      || (refusal instanceof Problem && refusal.problem.rule === "invitation") ? codeInput : matchInput));
  });
  return h("form", { id: "join-private", class: "panel", onsubmit: submit },
    h("h2", {}, "Join a private match"),
    h("label", {}, "match ", matchInput), h("label", {}, "code ", codeInput),
    h("button", { type: "submit", id: "join-submit" }, "Join"), error);
}

// The invitation link opened (#/join/<id>/<code>): the match it leads to, as anyone may read it (its
// game, seats, creator and terms: turn limit and what happens when a turn runs out, rated or not, private
// or listed), and a "Join" button. Nothing is sent before that click: a link followed from another site
// must never seat the person (and a short turn limit with claims would give them a rated loss).
async function joinLink(id, code) {
  const show = screen();
  const key = identity.player() ? identity.key() : null;
  const options = key ? { key } : { anonymous: true };
  const match = await get(`/matches/${encodeURIComponent(id)}`, options);
  await games();
  const creator = await creatorName(match, options);
  const me = key ? identity.player() : null;
  const seated = me && match.seats.some((seat) => seat.player_id === me.id);
  // A seat kept for someone (a rematch's, a fork's) is free only to them: the join would be refused.
  const free = match.seats.filter((seat) => !seat.player_id && !seat.computer && (!seat.kept_for || seat.kept_for === me?.id)).length;
  const error = h("div", { id: "join-error" });
  let action;
  if (!me) action = h("p", { class: "hint", id: "join-hint" }, "Register or sign in (at the top of the page) to join this match.");
  else if (seated) action = h("p", { id: "join-hint" }, "You sit at this match already: ", h("a", { href: `#/match/${match.id}` }, "open the table"), ".");
  else if (match.status !== "open" || !free)
    action = h("p", { class: "hint", id: "join-hint" }, match.status !== "open" ? `This match is ${match.status}: nobody joins it any more. `
      : "Every seat is taken. ", h("a", { href: `#/match/${match.id}?as=spectator` }, "watch it"), ".");
  else action = h("div", { class: "controls" },
    h("button", { type: "button", id: "join-confirm", onclick: (event) => busy(event.currentTarget, () => attempt(error, async () => {
      // Another tab changed who is signed in: this page (drawn again as them) sends nothing for the old one.
      if (identity.key() !== key) throw new Error("You signed in as someone else in another tab: open the link again.");
      await post(`/matches/${encodeURIComponent(match.id)}/seats`, code ? { invitation_code: code } : {}, { key });
      location.hash = `#/match/${match.id}`;
    })) }, "Join"),
    h("a", { href: "#/", id: "join-decline" }, "not now"));
  show.titled(`Join a ${titleOf(match.game)} match?`);
  show(h("h1", {}, "Join this match?"),
    h("p", { class: "muted" }, code ? "Someone sent you a link to this match. You take a seat only if you press Join."
      : "Its terms first: you take a seat only if you press Join."),
    matchTerms(match, creator), action, error);
}

// Who created a match, by name: their seat's, else their profile's (a creator who left their seat).
async function creatorName(match, options) {
  if (!match.created_by) return null;
  const seat = match.seats.find((s) => s.player_id === match.created_by);
  if (seat?.name) return seat.name;
  try {
    return (await get(`/players/${encodeURIComponent(match.created_by)}`, options)).name;
  } catch {
    return null;
  }
}

// A match's terms, before joining it: what the person agrees to play under.
function matchTerms(match, creator) {
  const limit = match.turn_limit;
  const seatItem = (seat, i) => h("li", {}, `seat ${i}: `, seat.player_id ? named(seat.name || "a player")
    : seat.computer ? `computer (${seat.computer})` : seat.kept_for ? "kept for someone" : h("i", {}, "free"));
  const options = Object.entries(match.options || {});
  return h("section", { class: "panel terms", id: "join-terms" },
    h("dl", { class: "obs" },
      h("dt", {}, "game"), h("dd", { id: "join-game" }, titleOf(match.game)),
      h("dt", {}, "status"), h("dd", { id: "join-status" }, match.status),
      h("dt", {}, "created by"), h("dd", { id: "join-creator" }, creator ? named(creator) : "unknown"),
      h("dt", {}, "seats"), h("dd", {}, h("ol", { class: "list", id: "join-seats", start: 0 }, match.seats.map(seatItem))),
      h("dt", {}, "turn limit"), h("dd", { id: "join-turn-limit" }, limit
        ? `${limit.seconds} s per turn; when a turn runs out, ${limit.on_timeout === "claim"
          ? "nobody plays that seat, and the others may claim the match: it ends at once, that seat last"
          : "a computer plays that seat until its player is back"}`
        : "none"),
      h("dt", {}, "rated"), h("dd", { id: "join-rated" }, match.rated ? "yes: its result counts for the ratings" : "no"),
      h("dt", {}, "listed"), h("dd", { id: "join-unlisted" }, match.unlisted ? "no: private (unlisted), joined with its invitation code"
        : "yes: public, listed in the lobby"),
      options.length ? [h("dt", {}, "options"), h("dd", {}, options.map(([k, v]) => optionText(k, v)).join(" · "))] : null));
}

function invitationBox(match) {
  if (!match.invitation_code || match.status !== "open") return null;
  const link = inviteLink(match.id, match.invitation_code);
  return h("section", { class: "invitation panel", id: "invitation" }, h("h2", {}, "Private match: invite people"),
    h("p", {}, "Invitation code ", h("code", { id: "invitation-code" }, match.invitation_code), " for match ",
      h("code", { id: "invitation-match" }, match.id)),
    h("p", {}, "or send the link ", h("a", { id: "invitation-link", href: link }, link)));
}

// The seats as nodes, each name isolated (named).
function seatsNodes(seats) {
  return seats.map((seat, i) => [i ? ", " : "", seat.name ? named(seat.name) : seat.computer ? `computer (${seat.computer})` : `seat ${i} free`]);
}

function seatsText(seats) {
  return seats.map((seat, i) => seat.name || (seat.computer ? `computer (${seat.computer})` : `seat ${i} free`)).join(", ");
}

// A listed match's rules version and options (its row's terms; none in a row written before they were
// listed), under its game: who joins from the list sees what it is played under before pressing join.
function listedRules(match) {
  const terms = match.terms || {};
  if (!terms.rules_version) return null;
  const options = Object.entries(terms.options || {}).map(([name, value]) => ` · ${optionText(name, value)}`);
  return h("small", { class: "muted listed-rules" }, h("br"), `rules ${terms.rules_version}`, options.join(""));
}

// A finished row's winners (seats) by name; none: nobody won (a match abandoned by all). A computer that
// is not the match's only one of its level says its seat: "won by computer (random)" of a match with three
// did not say which (a desktop probe).
function wonBy(match) {
  const seats = match.seats || [];
  const label = (s) => {
    const seat = seats[s];
    if (seat.name) return named(seat.name);
    if (!seat.computer) return `seat ${s}`;
    const alike = seats.filter((other) => other && !other.name && other.computer === seat.computer).length;
    return `computer (${seat.computer})${alike > 1 ? ` (seat ${s})` : ""}`;
  };
  // A winner away when it ended won on the computer's play: "won by ann" said she had (a left-alone item).
  const away = (s) => ((match.absent || []).includes(s) && seats[s].player_id ? " (away: the computer played)" : "");
  const winners = (match.winners || []).filter((s) => seats[s]);
  return winners.length ? winners.map((s, i) => [i ? ", " : "", label(s), away(s)]) : "nobody";
}

function matchTable(items, status) {
  if (!items.length) return h("p", { class: "muted" }, "none");
  return scrolling(h("table", { class: "grid matches" },
    // A finished match's row says who won (its version said nothing to a player: a newcomer probe).
    h("thead", {}, h("tr", {}, ["game", "seats", status === "finished" ? "won by" : "version"].map((t) => h("th", {}, t)),
      quietHeader("actions"))),
    h("tbody", {}, items.map((match) => rowOf(match, status)))));
}

// A row's controls are named with their match (their visible word first, WCAG 2.5.3): a screen reader's
// list of links read "table, watch, replay" ten times over (a keyboard and screen-reader probe).
const matchName = (match) => `${titleOf(match.game)}, ${plural(match.seats.length, "seat")}: `
  + match.seats.map((seat) => seat.name || "free").join(", ");

function rowOf(match, status) {
  const rowLabel = (word) => `${word}: ${matchName(match)}`;
  return h("tr", { "data-match": match.id },
      h("td", {}, titleOf(match.game), listedRules(match)), h("td", {}, seatsNodes(match.seats)),
      h("td", { class: status === "finished" ? "won-by" : null }, status === "finished" ? wonBy(match) : match.version),
      h("td", { class: "row-actions" },
        // Join: a free seat, and not a match the person sits at already (the server would refuse it).
        status === "open" && identity.player() && match.open_seats > 0
          && !match.seats.some((seat) => seat.player_id && seat.player_id === identity.player().id)
          // Its terms first (joinLink): seated at once, a person never saw a turn limit of 0.1 s with claims,
          // and the creator's bot claimed a rated win before his first move (a cheater's probe).
          ? h("button", { class: "small", onclick: () => { location.hash = `#/join/${match.id}`; },
            "aria-label": rowLabel("join") }, "join") : null,
        h("a", { href: `#/match/${match.id}`, "aria-label": rowLabel(status === "finished" ? "table" : "open") },
          status === "finished" ? "table" : "open"), " ",
        h("a", { href: `#/match/${match.id}?as=spectator`, "aria-label": rowLabel("watch") }, "watch"), " ",
        h("a", { href: `#/replay/${match.id}`, "aria-label": rowLabel("replay") }, "replay")));
}

// -- table ---------------------------------------------------------------------------------------
// A timed phase (the game's timer) or a turn limit's clock, counting down to its deadline.
function countdown(timer, what) {
  if (!timer || !timer.deadline) return null;
  const node = deadlineNode(timer.deadline, what);
  if (timer.phase) node.title = timer.phase;
  return node;
}

// One of a match's clocks counting down, named: its timed phase in words, or the turn clock.
const clockCountdown = (clock, match) => countdown(clock, clock && clock === match.timer ? phaseName(clock.phase) : "turn clock");

// What happens to a seat whose turn ran out (the match's turn_limit.on_timeout): "computer", a computer
// plays it until its player is back; "claim", nobody plays it: the match waits for a present player's
// claim (POST /matches/{id}/claim, the view's can_claim) or the absent player's return.
const onTimeout = (match) => match.turn_limit?.on_timeout || "computer";

function absentLabel(match, seat) {
  const yours = seat === match.your_seat;
  // Over: nobody may claim or come back any more (it said "until you are back" of a claimed match).
  if (match.status !== "active") return " (away when it ended)";
  if (onTimeout(match) === "claim")
    return yours ? " (away: your time ran out; the others may claim the match until you are back)"
      : " (away: time ran out; the match waits for a claim or their return)";
  return yours ? " (away: a computer plays your seat for now)" : " (away: a computer plays for now)";
}

const namesOf = (match, seats) => {
  const names = seats.map((seat) => seatName(match.seats, seat));
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0] || "";
};

// Why the table offers what it does about absence, where the person looks (a tooltip is out of reach on
// a phone): to the absent seat, what happens to it meanwhile; to a player who may claim, why Claim showed.
function absenceNote(match, seated) {
  if (!seated || match.status !== "active") return null;
  const absent = match.absent || [];
  const others = absent.filter((seat) => seat !== match.your_seat);
  if (match.can_claim && others.length) {
    const who = namesOf(match, others);
    return h("p", { class: "notice absence", id: "claim-reason" },
      `${others.length > 1 ? `${who}'s times` : `${who}'s time`} ran out: you may claim the match `
      + `(it ends now, ${others.length > 1 ? "they rank" : `${who} ranks`} last), or wait for ${others.length > 1 ? "them" : who} to come back.`);
  }
  if (absent.includes(match.your_seat))
    return h("p", { class: "notice absence", id: "absent-note" }, onTimeout(match) === "claim"
      ? "Your turn ran out: nobody plays your seat, and the others may claim the match (your seat last) until you are back: press \"I'm back\" or move."
      : "Your turn ran out: a computer plays your seat until you are back: press \"I'm back\".");
  return null;
}

// The rules a match is played under, said on its page: its rules version and options (Jest's and Le
// Bouffon's ties change who wins), each option that switches one of Motley's house rules saying so (GET
// /games house_rules, the game's current version: an older version's match names none). Someone who
// joined from the lobby's list saw none of it before.
function matchRules(match) {
  const game = (gamesCache || []).find((known) => known.name === match.game);
  const current = game && game.rules_version === match.rules_version ? game.house_rules || [] : [];
  const houseRules = (name) => current.filter((rule) => rule.option === name).map((rule) => rule.id);
  return h("p", { class: "muted", id: "match-rules" }, `rules ${match.rules_version}`,
    Object.entries(match.options || {}).map(([name, value]) => [" · ", optionText(name, value),
      // "the option of": "tax mode live (house rule 4.5 asynchronous mode)" read as if live were that
      // house rule, the value shown being either one (a phone probe).
      houseRules(name).length ? ` (the option of house rule${houseRules(name).length > 1 ? "s" : ""} ${houseRules(name).join(", ")})` : ""]),
    " · ", rulesLink(match.game, "read the rules", { id: "match-rules-link" },
      game && game.rules_version !== match.rules_version ? match.rules_version : null));
}

// `heading`: the title's level: the table's own page heading (h1), or a section of another page (the
// replay's h2: a page has one h1, and the board's h3 follow an h2).
function matchHeader(match, heading = "h1") {
  const acting = new Set(match.to_act ? match.to_act.seats : []);
  return h("div", { class: "match-head" },
    // tabindex -1: focus may be put on the table's (a redraw took the button pressed away), never reached by Tab.
    h(heading, heading === "h1" ? { id: "match-title", tabindex: -1 } : {}, `${titleOf(match.game)} `, h("span", { class: `status ${match.status}`, id: "status" }, match.status)),
    tournamentTable(match),
    lineageLine(match),
    matchRules(match),
    h("p", {}, `version `, h("span", { id: "version" }, match.version), ` · ${plural(match.moves, "move")} · `,
      // rated or not: whether its result counts for the ratings (a tournament's void takes it out)
      h("span", { id: "rated" }, match.rated ? "rated" : "not rated"), " · you are ",
      h("b", {}, match.viewer.kind === "seat" ? `seat ${match.viewer.seat}` : match.viewer.kind), " ",
      clockCountdown(match.timer, match), " ", clockCountdown(match.turn_clock, match)),
    match.voided !== null && match.voided !== undefined
      ? h("p", { class: "voided", id: "voided" }, "Voided by the tournament's organiser", match.voided ? `: ${match.voided}` : "", ".")
      : null,
    h("ol", { class: "seats", start: 0 }, match.seats.map((seat, i) => h("li", { class: acting.has(i) ? "acting" : "" },
      seatLabel(match.seats, i), acting.has(i) ? " — to act" : "",
      // forfeited by its tournament's organiser (absent after the round's deadline): resigned by him, not them
      (match.forfeited || []).includes(i) ? " (forfeited by the organiser)" : (match.resigned || []).includes(i) ? " (resigned)" : "",
      // its turn ran out: a computer plays it, or the match waits for a claim, until its player is back
      (match.absent || []).includes(i) ? h("span", { class: "absent" }, absentLabel(match, i)) : null))),
  );
}

// A tournament's table (the view's `tournament`: id, round, table; null for any other match): said in
// the header, with the way to its tournament's page.
// Where a fork came from and where its forks went (the view's lineage; a newcomer probe: a fork looked like
// any match, and its original never named it). A fork's link opens its table, the parent's its replay at
// the version forked.
function lineageLine(match) {
  const parent = match.lineage?.parent;
  const forks = match.lineage?.forks || [];
  if (!parent && !forks.length) return null;
  const short = (id) => id.slice(0, 8);
  return h("p", { class: "lineage muted", id: "lineage" },
    // The fork numbers its own versions (the parent's seats and bookkeeping are not copied): "at version 12"
    // above "version 11" read as another position than the one chosen (a phone probe). Both are said.
    parent ? ["Forked from ", h("a", { href: `#/replay/${parent.match_id}?version=${parent.version}` },
      `match ${short(parent.match_id)} at its version ${parent.version}`),
      // "(that position is this match's version 40 …)" beside the next line's "version 41 · 36 moves" read
      // as two numbers for one thing (a desktop probe): which match each number counts in is said.
      typeof parent.prefix_end === "number" && parent.prefix_end !== parent.version
        ? ` (here that position is version ${parent.prefix_end}: a fork numbers its own versions from 1)` : "",
      forks.length ? ". " : ""] : null,
    forks.length ? ["Forks: ", forks.map((fork, i) => [i ? ", " : "",
      h("a", { href: `#/match/${fork.match_id}` }, `${short(fork.match_id)} (from version ${fork.version})`)])] : null);
}

function tournamentTable(match) {
  const at = match.tournament;
  if (!at) return null;
  return h("p", { class: "tournament-table", id: "tournament-table" }, h("a", { href: `#/tournament/${at.id}` },
    `Tournament table: round ${at.round}, table ${at.table}`));
}

// Leave or call off an open match, resign a running one, play a finished one again (api/lifecycle.py).
// `landing`: where the focus goes once the table is drawn again without the button pressed (busy()).
const RESIGN_SAYS = "Resign this match? You are ranked last and a computer plays your seat on (with only "
  + "computers left the match ends at once); from then on you watch it as a spectator, your seat's cards hidden.";

function lifecycle(match, seated, error, draw, options, landing = null) {
  if (!seated) return null;
  const act = (path, then) => (event) => busy(event?.currentTarget,
    () => attempt(error, async () => then(await post(`/matches/${match.id}/${path}`, undefined, options))), landing);
  const buttons = [];
  if (match.status === "open") {
    buttons.push(h("button", { id: "leave", onclick: act("leave", draw) }, "Leave"));
    if (match.created_by === identity.player()?.id)  // only its creator may call it off
      buttons.push(h("button", { id: "cancel", onclick: act("cancel", draw) }, "Call off"));
  }
  if (match.status === "active" && !(match.resigned || []).includes(match.your_seat))
    // What resigning does (docs: ranked last, the computer plays the seat on; with only computers left the
    // match ends at once): the dialog asked only "Resign this match?" (a desktop probe).
    buttons.push(h("button", { id: "resign", onclick: (event) => confirm(RESIGN_SAYS) && act("resign", draw)(event) }, "Resign"));
  const absent = match.absent || [];
  if (match.status === "active" && absent.includes(match.your_seat))  // your turn ran out: take the seat back
    buttons.push(h("button", { id: "return", onclick: act("return", draw), title: onTimeout(match) === "claim"
      ? "your turn ran out: nobody plays your seat, and the others may claim the match until you are back: take it back"
      : "your turn ran out and a computer plays your seat: take it back" }, "I'm back"));
  if (match.can_claim)  // the service's word: a present, unresigned seat, another seat's time ran out
    buttons.push(h("button", { id: "claim", title: "another seat's time ran out: end the match now, the absent seats last",
      onclick: (event) => confirm("End the match, the absent seats last?") && act("claim", draw)(event) }, "Claim"));
  // Once there is one, rematchBox leads there; an imported copy has none (the server refuses: ask for
  // the original's).
  // Nor a tournament's table: its next table is the tournament's to pair (a rematch was an unrelated match).
  if (match.status === "finished" && !match.rematch?.next && !match.lineage?.imported && !match.tournament)
    buttons.push(h("button", { id: "rematch", onclick: act("rematch", (next) => { location.hash = `#/match/${next.id}`; }) }, "Rematch"));
  return buttons;
}

// A finished match's rematch (`rematch.next`), asked for by any of its players: its players join the seat
// kept for them there (POST /matches/{next}/seats), anyone else may watch it.
function rematchBox(match, seated, error) {
  const next = match.rematch?.next;
  if (!next) return null;
  const link = seated
    ? h("a", { id: "rematch-join", href: `#/match/${next}`, onclick: (event) => {
      event.preventDefault();
      const link = event.currentTarget;
      if (link.dataset.busy !== undefined) return;
      link.dataset.busy = "";
      attempt(error, () => joinRematch(match, next)).finally(() => { delete link.dataset.busy; });
    } }, "Rematch: join")
    : h("a", { id: "rematch-watch", href: `#/match/${next}?as=spectator` }, "Rematch: watch");
  return h("p", { class: "rematch-next", id: "rematch-next" }, "A rematch of this match was asked for. ", link);
}

async function joinRematch(match, next) {
  const me = identity.player()?.id;
  const rematch = await get(`/matches/${next}`);
  if (rematch.status === "cancelled") {
    // Its creator called it off: playing again makes a new one (and seats the caller).
    location.hash = `#/match/${(await post(`/matches/${match.id}/rematch`)).id}`;
    return;
  }
  const mine = rematch.seats.some((seat) => seat.player_id === me);
  if (rematch.status === "open" && !mine && rematch.seats.some((seat) => seat.kept_for === me && !seat.player_id))
    await post(`/matches/${next}/seats`, {});
  location.hash = `#/match/${next}`;
}

function resultView(match) {
  if (!match.result) return null;
  const result = match.result;
  const ranks = result.ranks || [];
  // Who left the table (the result's resigned and absent lists: a claim ranks the absent seats last,
  // and a match claimed has scores of 0, docs/clients.md): the places alone did not say why.
  const left = (seats, why) => (seats || []).map((s) => `${seatName(match.seats, s)} ${why}`);
  const forfeited = match.forfeited || [];
  // A seat the computer played at the end may hold a place above the others here (the engine's), but the
  // ratings, statistics and a tournament count it last (docs/tournaments.md): the page showed "You: place 2"
  // beside the absent winner without a word of it (a web organiser's probe).
  const away = match.lineage?.imported ? "was away at the end"
    : "was away at the end (ratings, statistics and tournament standings count that seat last)";
  const how = [...left(result.absent, away),
    ...left(forfeited, "was forfeited by the tournament's organiser (absent after the round's deadline)"),
    ...left((result.resigned || []).filter((s) => !forfeited.includes(s)), "resigned")];
  return h("section", { class: "result", id: "result" }, h("h2", {}, "Result"),
    how.length ? h("p", { id: "result-how" }, `${how.join("; ")}.`) : null,
    // A list without numbers: its rows say their places, and an <ol> numbered a shared place "3. … place 2"
    // (a desktop probe).
    h("ul", { class: "list" }, match.seats.map((_, i) => i).sort((a, b) => (ranks[a] ?? 0) - (ranks[b] ?? 0)).map((i) =>
      h("li", {}, seatLabel(match.seats, i), `: place ${ranks[i] ?? "?"}`, result.scores ? `, score ${result.scores[i]}` : "")))
  );
}

// A free seat of an open match; a private one asks for its invitation code.
function takeSeat(id, match, error, draw, landing = null) {
  // A redraw (the stream's news) must not wipe a code being typed: the new field starts with it.
  const typed = document.getElementById("seat-code")?.value || "";
  const code = match.unlisted ? h("input", { id: "seat-code", placeholder: "invitation code", size: 16 }) : null;
  if (code) code.value = typed;
  const body = () => (code ? { invitation_code: code.value.trim() } : {});
  // A seat kept for you (a fork's or a rematch's): the join takes it; say so (it read "Take a seat").
  const kept = match.seats.some((seat) => seat.kept_for && seat.kept_for === identity.player()?.id && !seat.player_id);
  return [code, h("button", { id: "take-seat", onclick: (event) => busy(event.currentTarget,
    () => attempt(error, async () => draw((await post(`/matches/${id}/seats`, body())).match)), landing) },
    kept ? "Take your kept seat" : "Take a seat")];
}

// What a screen reader is told as the table changes (the #announce status line): `changes`, the match
// started or ended; `turn`, whose turn it is now, with the version (a text the same as the last one is not
// said again by every screen reader, and "Your turn." came back after every round of the computers).
function announcement(before, match) {
  if (!before || (match.version <= before.version && match.status === before.status)) return null;
  const changes = [];
  const you = match.your_seat;
  if (typeof you === "number" && (match.absent || []).includes(you) && !(before.absent || []).includes(you))
    changes.push("Your time ran out.");
  // Said, not only drawn: a screen-reader user heard "Version 9: carl to act." after resigning, and nothing
  // when a timed phase (Tumult Royale's hourglass) ran out but that a tile was "no longer offered" (a
  // keyboard probe).
  if (typeof you === "number" && (match.resigned || []).includes(you) && !(before.resigned || []).includes(you))
    changes.push(match.status === "active" ? "You resigned: a computer plays your seat." : "You resigned.");
  if (phaseOver(before, match)) changes.push(`${capitalized(phaseName(before.timer.phase))} is over.`);
  if (match.status !== before.status)
    changes.push({ active: "The match has started.", finished: "The match is over.", cancelled: "The match was called off." }[match.status]
      || `The match is ${match.status}.`);
  if (match.status === "finished" && before.status !== "finished") changes.push(resultSaid(match));
  let turn = null;
  if (match.status === "active") {
    const waiting = (match.to_act?.seats || []).map((seat) => seatName(match.seats, seat));
    turn = match.legal_actions.length ? `Version ${match.version}: your turn.`
      : waiting.length ? `Version ${match.version}: ${waiting.join(", ")} to act.` : `Version ${match.version}.`;
  }
  return { changes, turn, since: before.version, until: match.version };
}

// Whether the timed phase the table showed has ended (run out, or everyone done), the match still on.
const phaseOver = (before, match) => Boolean(before?.timer?.phase) && match.status === "active"
  && before.timer.phase !== match.timer?.phase;
const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// A finished match's result as the Result section says it: the seat's own place and score, or every seat's.
function resultSaid(match) {
  const ranks = match.result?.ranks;
  if (!ranks) return null;
  const scores = match.result.scores;
  const place = (i) => `place ${ranks[i] ?? "?"}${scores ? `, score ${scores[i]}` : ""}`;
  if (match.viewer?.kind === "seat" && typeof match.your_seat === "number") return `You: ${place(match.your_seat)}.`;
  return `${match.seats.map((_, i) => i).sort((a, b) => (ranks[a] ?? 0) - (ranks[b] ?? 0))
    .map((i) => `${seatName(match.seats, i)}: ${place(i)}`).join("; ")}.`;
}

// The status line's updates that come within ANNOUNCE_MS of the first (the person's move, the computers'
// answers, their turn again: a few milliseconds apart) are said as one: a polite status line replaced that
// fast is heard at its last text only, if at all. The changes are all kept, the turn the last one's (an
// update without one, undefined, keeps the one held). `readMoves(since, until)`: a promise of the others'
// moves between those versions (the table's othersMoves), or null; read once per announcement, for the
// versions it joins (an update's `since` and `until`), and said first.
// Meanwhile the line kept the last burst's text, "Version 56: your turn." beside a table that showed a
// computer to act, or the match over, until the new burst was said (ANNOUNCE_MS, then the read of the
// others' moves): a newcomer read a turn that was not theirs (a new player's probe). A line whose turn the
// table has left is hidden at once (its text, visibility: hidden: out of sight and out of the
// accessibility tree, which says nothing, the line keeping its place on the page; the burst is still said
// once, when it settles), and a turn left while the moves were read is not written. Whatever the read
// does (refused, thrown, slow), the line is written and the next burst said.
const ANNOUNCE_MS = 400;
const MOVES_WAIT_MS = 3000; // how long the line waits for the others' moves before it speaks without them
// Whose turn an announcement's turn says, its version left out ("your turn.", "Ada to act."); none: "".
const whoseTurn = (turn) => (turn ? turn.replace(/^Version \d+(?:: |\.$)/, "") : "");
function announcer(line, readMoves = null) {
  let held = null;
  let timer = null;
  let shown = ""; // whose turn the line says now (whoseTurn)
  leaving.push(() => clearTimeout(timer));
  const write = (parts, turn) => {
    const text = [...parts, turn].filter(Boolean).join(" ");
    fill(line, text ? h("span", {}, text) : null); // a node of its own, to be hidden (below)
    shown = whoseTurn(turn);
  };
  const hide = () => {
    for (const node of line.children) node.style.visibility = "hidden";
    shown = "";
  };
  const say = async () => {
    const { changes = [], turn, since, until } = held || {};
    held = null;
    let read = null;
    try {
      const moves = readMoves && since !== undefined && until > since ? readMoves(since, until) : null;
      read = moves ? await Promise.race([moves, sleep(MOVES_WAIT_MS).then(() => null)]) : null;
    } catch {
      read = null; // said without the others' moves
    } finally {
      try {
        // What came during the read names another turn: this one, left already, is not said (that one is, next).
        const left = held && held.turn !== undefined && whoseTurn(held.turn) !== whoseTurn(turn);
        write([typeof read === "string" ? read : null, ...changes], left ? null : turn);
      } finally {
        timer = held ? setTimeout(say, ANNOUNCE_MS) : null; // what came meanwhile, said next
      }
    }
  };
  return (said) => {
    if (!said) return;
    // The table no longer shows the turn the line says: hidden at once, not left up until the burst is said.
    if (said.turn !== undefined && shown && whoseTurn(said.turn) !== shown) hide();
    held = held ? { changes: [...(held.changes || []), ...(said.changes || [])], turn: said.turn === undefined ? held.turn : said.turn,
      since: held.since ?? said.since, until: said.until ?? held.until } : said;
    if (timer === null) timer = setTimeout(say, ANNOUNCE_MS);
  };
}

// Where the person acts: their legal actions, or, while a seated player waits, a line saying so (a place
// for focus to stay after their own move).
function movesArea(match, seated, actions) {
  if (match.legal_actions.length) {
    // The clocks that concern this move, here too: on a phone the moves are scrolled to as a turn begins
    // (below), and the countdown at the table's top went out of sight (a phone probe, Tumult's taxes).
    const clocks = [match.timer, (match.turn_clock?.seats || []).includes(match.your_seat) ? match.turn_clock : null]
      .filter((clock) => clock?.deadline);
    return h("section", { id: "moves" }, h("h2", { id: "moves-heading", tabindex: -1 }, "Your move"),
      clocks.length ? h("p", { class: "moves-clock" }, clocks.map((clock, i) => [i ? " " : "", clockCountdown(clock, match)])) : null,
      actions);
  }
  if (!seated || match.status !== "active") return null;
  const waiting = (match.to_act?.seats || []).map((seat) => seatName(match.seats, seat));
  const idle = idleOf(match);
  return h("section", { id: "moves" }, h("h2", { id: "moves-heading", tabindex: -1 }, "Waiting"),
    idle ? h("p", { class: "idle" }, idle) : null,
    h("p", { class: "muted" }, waiting.length ? `${waiting.join(", ")} to act.` : "The game moves on by itself."));
}

// A redraw replaces every node of the table, and the focus with it (to the page's body: a keyboard or
// screen-reader user loses their place). What had focus in the board, or the person's own move just
// sent: focusAfter puts it back on the same button (by its label), else the first enabled action, else
// the moves area's heading. `pressed`: the label of the action just refused (its button, disabled in
// flight, no longer had the focus).
function focusBefore(board, acted, pressed = null) {
  const active = document.activeElement;
  if (!acted && !(active && board.contains(active))) return null;
  return { id: active && board.contains(active) ? active.id : "", acted,
    label: active?.matches?.("button.action") ? active.textContent : pressed };
}

// Returns the label of the action that had the focus and went with another seat's move (none: null): the
// focus then goes to the moves area's heading, and the status line says so, not silently onto another
// action the person never heard named (a tile taken by a computer, Enter then took the next one).
// The heading keeps it through the redraws after, until the person moves it or acts: the next redraw
// moved it on to the first action, and so did any update while it waited on "Waiting", so that the
// next Enter played a move nobody chose (a keyboard probe; WCAG 3.2.1). After the person's own move
// (`acted`, the focus parked on the heading while it was sent) it goes on to their next move.
function focusAfter(board, focus) {
  if (!focus || board.contains(document.activeElement)) return null;
  const enabled = [...board.querySelectorAll("button.action:enabled")];
  const again = focus.label !== null ? enabled.find((button) => button.textContent === focus.label) : null;
  const gone = focus.label !== null && ![...board.querySelectorAll("button.action")].some((button) => button.textContent === focus.label);
  const lost = gone && !focus.acted ? focus.label : null; // still there but held (a cooldown): not gone
  const target = again || (lost ? board.querySelector("#moves-heading") : null)
    || (focus.id && (focus.id !== "moves-heading" || !focus.acted) ? document.getElementById(focus.id) : null)
    || tableLanding(board);
  target?.focus({ preventScroll: true });
  return lost;
}

// Where the focus goes on in a table drawn again once the control that had it is gone (a move that ended
// the match, "I'm back", Start, Leave, Resign, Claim): its first legal move, else the moves area's
// heading, else the match's heading (each focusable, the headings out of the Tab order), never the body.
function tableLanding(board) {
  return board.querySelector("button.action:enabled") || board.querySelector("#moves-heading")
    || board.querySelector("#match-title");
}

const sameAction = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const POLL_SECONDS = 3; // a table's reads while its stream is refused or broken
const MOVES_READ = 20; // the events a table reads at most to say the others' moves
const MOVES_SAID = 3; // of which the last ones said
const LOW_CLOCK_SECONDS = 10; // the person's turn clock said to run low
// A finished table's stream has ended, but another player may still ask for its rematch: the table reads
// the match every few seconds while the page is visible, for a bounded time after it saw the finish, until
// `rematch.next` shows.
const REMATCH_READ_SECONDS = 4;
const REMATCH_WATCH_SECONDS = 600;

async function table(id, params) {
  const show = screen();
  const spectator = params.get("as") === "spectator" || !identity.key();
  // The key this table was opened with, the one its header names: its moves are sent with it even if
  // another tab stores another key meanwhile (identity.onChange then opens the table again as that one).
  const options = spectator ? { anonymous: true } : { key: identity.key() };
  const error = h("div", { id: "refusal" });
  const board = h("div", { id: "board" });
  // A control of the table pressed (Start, "I'm back", Leave, Resign, Claim, Take a seat) and gone with the
  // redraw its answer made: the focus goes on in the table drawn again, not to the page's body.
  const landing = () => tableLanding(board);
  // The stream's state: empty while live, else why the page reads on a timer meanwhile.
  const notice = h("p", { id: "live-notice", class: "notice", role: "status" });
  const announce = h("p", { id: "announce", class: "announce", role: "status" });
  // The others' moves are read (the events) and said to everyone at the table: a spectator's line said
  // only whose turn it was, never a move (a screen-reader probe followed two people's match so).
  const tell = announcer(announce, (since, until) => othersMoves(since, until));
  let latest = null;
  let refocus = false; // the person just acted: the next redraw puts focus back in the moves area
  let sending = ""; // while a move is in flight: what its heading says
  // The moves heading says the move is on its way until its answer, also in a table the stream drew
  // meanwhile (its news of the move came first: "Your move" over buttons still disabled, a today probe).
  const sayingSent = () => {
    const heading = moving ? board.querySelector("#moves-heading") : null;
    if (!heading) return;
    heading.textContent = sending;
    heading.closest("#moves").setAttribute("aria-busy", "true");
  };
  let moving = false; // a move in flight: its buttons stay disabled, so a redraw from the stream meanwhile
  // cannot offer the same choice twice (the second would be refused as illegal)
  // A move that got no answer, and the read after it none either (the server away, the browser offline):
  // its buttons stay disabled (it may have landed) and the table is read again until a read answers,
  // then drawn as it is, even at the same version (the stream and the reads on a timer draw only a newer
  // one, and on the person's own turn the version does not move: the table stayed frozen until a reload).
  let unsettled = false;
  let unsettledFrom = 0; // the version the move without an answer was chosen at
  // The versions this tab's own moves made, (from, to] each: the person's seat moving at any other version
  // moved from another tab or device, and is said so (a today probe: only '"pass" is no longer offered',
  // as if another seat had taken it, the move itself left out as the person's own).
  const madeHere = [];
  let sentFrom = null; // the version a move on its way (or without an answer yet) was chosen at
  const landedUpTo = (version) => {
    if (sentFrom !== null) madeHere.push([sentFrom, version]);
    sentFrom = null;
  };
  const movedHere = (version) => (sentFrom !== null && version > sentFrom)
    || madeHere.some(([from, to]) => version > from && version <= to);
  let settleTimer = null;
  leaving.push(() => clearTimeout(settleTimer));
  const cooling = new Map(); // action type -> the time (ms) until which the game's cooldown holds it
  let coolTimer = null;
  leaving.push(() => clearTimeout(coolTimer));
  const coolingLeft = (action) => Math.max(0, (cooling.get(action.type) || 0) - Date.now());
  // A match created with require_version refuses a move that does not state the version it was chosen
  // from (428): the version of the table drawn is sent then (a stale one is refused, 409 stale-version,
  // and the table drawn again as it is now). So it is when this seat alone is to act: nobody else's move
  // can land meanwhile, so a newer version means the table the click was made on is gone (a web-play
  // probe's click on a tab left behind landed, unsaid, as its move in a later turn it never saw).
  // Otherwise none: in a sealed phase the others' offers land meanwhile and would make it stale; the
  // server judges the move against the state it lands on.
  const alone = (match) => match?.to_act?.seats?.length === 1 && match.to_act.seats[0] === match.your_seat;
  const moveBody = (action) => (latest?.versions_required || alone(latest)
    ? { action, expected_version: latest.version } : { action });
  // A game's cooldown (Tumult Royale's peeks, 0.6 s apart): the server refuses a move sooner (429
  // too-soon, with retry_after); the page waits that long and sends it once more, if still legal.
  const send = async (action) => {
    try {
      return await post(`/matches/${id}/moves`, moveBody(action), options);
    } catch (refusal) {
      const problem = refusal instanceof Problem ? refusal.problem : {};
      const wait = Number(problem.retry_after);
      if (problem.status !== 429 || !String(problem.type || "").endsWith(":too-soon") || !(wait >= 0 && wait <= 5)) throw refusal;
      await sleep(wait * 1000 + 50);
      if (!latest.legal_actions.some((legal) => sameAction(legal, action))) return null; // taken meanwhile
      return post(`/matches/${id}/moves`, moveBody(action), options);
    }
  };
  // The table read again after a move that got no answer (see `unsettled`): drawn once a read answers,
  // the "could not be reached" refusal gone with it (what the table shows now says what happened).
  const settle = async () => {
    clearTimeout(settleTimer);
    settleTimer = null;
    if (!unsettled || !show.live()) return;
    let match;
    try {
      match = await get(`/matches/${id}`, options);
    } catch {
      if (unsettled && show.live() && settleTimer === null) settleTimer = setTimeout(settle, POLL_SECONDS * 1000);
      return;
    }
    if (unsettled && show.live()) settled(match);
  };
  // Where a move sent leaves the focus (its heading, or the body from a button disabled meanwhile): focus
  // goes back to the moves only from there, not from wherever the person went meanwhile.
  const parked = () => !document.activeElement || document.activeElement === document.body
    || (document.activeElement.id === "moves-heading" && board.contains(document.activeElement));
  const settled = (match) => {
    clearTimeout(settleTimer);
    settleTimer = null;
    unsettled = false;
    landedUpTo(match.version);
    // What the table shows now says what happened; where the match moved on, the move may have landed.
    if (error.querySelector(".problem[data-unreached]")) fill(error, match.version > unsettledFrom ? problemBox(answerLost()) : null);
    refocus = refocus && parked();
    draw(match.version >= latest.version ? match : latest);
  };
  // The others' moves after version `before` up to `until` (the events read: the stream pushes views),
  // said in the event list's words, the last few: a screen-reader user heard only "your turn" and had to
  // read the table again to learn what the others did. A promise of the line, null when there is none.
  const othersMoves = async (before, until) => {
    const match = latest;
    let page;
    try {
      page = await get(`/matches/${id}/events?after=${Math.max(before, until - MOVES_READ)}&until=${until}`
        + `&limit=${MOVES_READ}`, options);
    } catch {
      return null;
    }
    // The computer's moves for a person's seat (resigned, or away when the turn limit ran out: `by`) are
    // said as the computer's, the person's own seat's too: they were said under the person's name, as if
    // the person had come back and played.
    const theirs = page.items.filter((event) => typeof event.seat === "number" && event.type === "MoveMade"
      && (event.seat !== match.your_seat || event.by === "computer" || !movedHere(event.version)));
    if (!theirs.length) return null;
    const mover = (event) => (event.seat === match.your_seat && event.by !== "computer" ? "you (from another tab or device)"
      : event.by !== "computer" || match.seats[event.seat]?.computer ? seatName(match.seats, event.seat)
        : `the computer for ${event.seat === match.your_seat ? "you" : seatName(match.seats, event.seat)}`);
    const told = theirs.slice(-MOVES_SAID).map((event) => (event.action && typeof event.action === "object"
      ? `${mover(event)}: ${describeAction(event.action, match)}` : eventText(event, match, false)));
    return `${theirs.length > told.length ? `${plural(theirs.length - told.length, "more move", "more moves")}, then ` : ""}${told.join("; ")}.`;
  };
  // The person's own turn clock running low is said once a turn, and its running out (announcement): a
  // countdown is no live region, and nothing was said until the match was over. So is a timed phase the
  // person acts in (Tumult Royale's hourglass): it ran out unsaid (a keyboard probe; WCAG 2.2.1).
  const warned = new Set(); // the clocks' phases said to run low
  const clockWatch = setInterval(() => {
    if (latest?.status !== "active" || !latest.legal_actions.length) return;
    const turn = latest.turn_clock;
    const clocks = [(turn?.seats || []).includes(latest.your_seat) ? ["turn", turn] : null, ["timer", latest.timer]];
    for (const [kind, clock] of clocks.filter((pair) => pair?.[1]?.deadline)) {
      const left = (Date.parse(clock.deadline) - serverNow()) / 1000;
      if (warned.has(`${kind} ${clock.phase}`) || !(left > 0 && left <= LOW_CLOCK_SECONDS)) continue;
      warned.add(`${kind} ${clock.phase}`);
      tell({ changes: [kind === "turn" ? `Your time is running out: ${Math.ceil(left)} s left.`
        : `${capitalized(phaseName(clock.phase))}: ${Math.ceil(left)} s left.`] });
    }
  }, 500);
  leaving.push(() => clearInterval(clockWatch));
  // The label of an action refused: the redraw beside the refusal puts the focus back on it, if still
  // offered (its button, disabled in flight, had lost the focus to the body: it went to the first action).
  let retry = null;
  const play = (action, label = null) => attempt(error, async () => {
    // Another tab changed this browser's identity, and this table (about to be drawn again as the new
    // one) still shows the old: no move is sent from it under either key.
    if (!spectator && identity.key() !== options.key) throw new Error("You signed in as someone else in another tab: this table is being shown as them.");
    refocus = true; // the clicked button is disabled, then redrawn: focus goes back to the moves
    moving = true;
    const before = latest.version;
    sentFrom = before;
    // Said while it is on its way (the next drawing replaces it): greyed buttons alone told a player on a
    // slow network nothing, and he tapped again (a phone probe). The focus waits on that heading: the
    // pressed button, disabled, dropped it to the page's body for the move's round trip, where a Tab
    // started again from the top of the page (a keyboard probe).
    const heading = board.querySelector("#moves-heading");
    if (heading && board.contains(document.activeElement)) heading.focus({ preventScroll: true });
    for (const button of board.querySelectorAll("button.action")) button.disabled = true;
    sending = label ? `Sending: ${label}…` : "Sending your move…";
    sayingSent();
    let answer;
    try {
      answer = await send(action);
    } catch (refusal) {
      moving = false;
      let now;
      try {
        now = await get(`/matches/${id}`, options); // what is legal now, beside the refusal
      } catch {
        // sentFrom kept: the move may have landed, and is this tab's if so (landedUpTo, once read)
        unsettled = true;
        unsettledFrom = before;
        settleTimer = setTimeout(settle, POLL_SECONDS * 1000);
        if (!(refusal instanceof Problem && refusal.problem.status === 0)) throw refusal;
        const heading = board.querySelector("#moves-heading");
        if (heading) heading.textContent = "No answer yet: waiting for the server…";
        throw answerPending();
      }
      retry = label;
      if (refusal instanceof Problem && refusal.problem.status === 0) landedUpTo(now.version); // perhaps landed
      sentFrom = null;
      draw(now);
      // No answer, yet the match moved on: the move may have landed ("could not be reached… try again"
      // invited a second move).
      if (refusal instanceof Problem && refusal.problem.status === 0 && now.version > before) throw answerLost();
      const raced = racedWords(refusal, now, before);
      if (raced) refusal.plain = raced;
      throw refusal;
    }
    moving = false;
    sentFrom = null;
    if (answer) madeHere.push([before, answer.version]);
    const cooldown = answer ? cooldownOf(action, latest) : 0;
    if (cooldown > 0) cooling.set(action.type, Date.now() + cooldown * 1000);
    if (answer && answer.version >= latest.version) draw(answer);
    else draw(latest);
  });
  const draw = (match) => {
    if (latest && match.version < latest.version) return;
    if (unsettled) { // a read answered, or the stream: focus goes back to the moves only from the body
      unsettled = false;
      landedUpTo(match.version);
      clearTimeout(settleTimer);
      settleTimer = null;
      refocus = refocus && parked();
      if (error.querySelector(".problem[data-unreached]")) fill(error, match.version > unsettledFrom ? problemBox(answerLost()) : null);
    }
    // The stream's view leaves out the creator's invitation code (only the reads carry it): keep it. So
    // with the forks its lineage lists (always none on the stream): a fork is never undone.
    if (latest && latest.invitation_code && !match.invitation_code) match = { ...match, invitation_code: latest.invitation_code };
    if (latest?.lineage?.forks?.length && match.lineage && !match.lineage.forks?.length)
      match = { ...match, lineage: { ...match.lineage, forks: latest.lineage.forks } };
    const before = latest;
    const said = announcement(latest, match);
    const turnBegins = Boolean(latest) && !latest.legal_actions.length && match.legal_actions.length > 0;
    // A refusal shown is about the table as it was: once the match has moved on, it goes.
    if (latest && match.version > latest.version) fill(error);
    latest = match;
    // One button per choice: a game whose choices differ only in interchangeable pieces (Le Bouffon's
    // copies of a card) offers each once (render.js distinctActions).
    const offered = distinctActions(match.legal_actions, match);
    const labels = actionLabels(offered, match);
    // A game's actions offered by the dozen (Tumult Royale's "take tile N") are a tight group of small
    // buttons, each drawn by its number under the group's caption, its text and name still its whole label.
    const groups = new Map();
    const buttons = offered.map((action, i) => {
      const compact = compactOf(action, match, labels[i]);
      const button = h("button", { class: compact ? "action compact" : "action", disabled: moving || coolingLeft(action) > 0,
        "data-cooling": coolingLeft(action) > 0 ? "" : null,
        // The board's cell of this action (Tumult Royale's fields): a tap on a cell finds its buttons.
        "data-field": typeof action.field === "number" ? action.field : null,
        onclick: (event) => play(action, event.currentTarget.textContent) }, compact ? compactLabel(labels[i], compact.shown) : labels[i]);
      if (!compact) return button;
      if (groups.has(compact.group)) {
        groups.get(compact.group).append(button);
        return null;
      }
      const group = h("div", { class: "compact-buttons" }, button);
      groups.set(compact.group, group);
      return h("div", { class: "compact-group", role: "group", "aria-label": compact.caption, "data-group": compact.group,
        "data-last": compact.last ? "" : null },
        h("span", { class: "compact-caption", "aria-hidden": "true" }, `${compact.caption}:`), group);
    });
    // A group of the choices one rarely takes (Fool's Crown's gambles) comes after the rest.
    const last = (node) => Boolean(node?.hasAttribute?.("data-last"));
    const actions = h("div", { class: "actions", id: "actions" }, buttons.filter((b) => !last(b)), buttons.filter(last));
    const held = Math.max(0, ...match.legal_actions.map(coolingLeft));
    clearTimeout(coolTimer);
    if (held > 0) coolTimer = setTimeout(() => {
      for (const button of board.querySelectorAll("button.action[data-cooling]")) {
        button.removeAttribute("data-cooling");
        if (!moving && !unsettled) button.disabled = false; // a move without an answer holds them (settle)
      }
    }, held + 20);
    const focus = focusBefore(board, refocus, retry);
    // Kept while the move is on its way: the stream's news of it, drawn before its answer, took the flag,
    // and the answer's drawing then kept the focus on the heading as if the person had parked it there (a
    // today probe: a Tab before every move).
    if (!moving) refocus = false;
    retry = null;
    const seated = match.seats.some((seat) => seat.player_id === identity.player()?.id);
    const open = match.status === "open";
    // Start once every seat is taken (a person or a computer): before, the server refuses it.
    const free = match.seats.map((seat, i) => (!seat.player_id && !seat.computer ? i : null)).filter((i) => i !== null);
    fill(board,
      matchHeader(match),
      h("div", { class: "controls" },
        open && !spectator && !seated && free.length && !identity.auditor() ? takeSeat(id, match, error, draw, landing) : null,
        open && seated && !free.length ? h("button", { id: "start", onclick: (event) => busy(event.currentTarget,
          () => attempt(error, async () => draw(await post(`/matches/${id}/start`, undefined, options))), landing) }, "Start") : null,
        open && seated && free.length ? h("span", { class: "muted", id: "waiting-for-seats" },
          `Start once every seat is taken: ${free.length > 1 ? "seats" : "seat"} ${free.join(", ")} still free.`) : null,
        lifecycle(match, seated && !spectator, error, draw, options, landing)),
      absenceNote(match, seated && !spectator),
      rematchBox(match, seated && !spectator, error),
      invitationBox(match),
      movesArea(match, seated && !spectator, actions),
      resultView(match),
      // A seat resigned while the match is played sees as a spectator does (the API's viewer.sees_own): its
      // heading said "What your seat sees" over the spectator's view, its own cards gone without a word.
      h("section", { class: "observation" }, h("h2", { id: "observation-heading" }, match.viewer?.kind === "auditor" ? "What the auditor sees (everything)"
        : spectator || !seated ? "What a spectator sees"
        : match.viewer?.sees_own === false && (match.resigned || []).includes(match.your_seat)
          ? `What a spectator sees (you resigned: a computer ${match.status === "active" ? "plays" : "played"} your seat, its cards hidden from you)`
        : match.viewer?.sees_own === false ? "What a spectator sees"
        : "What your seat sees"),
        observation(match)),
    );
    sayingSent();
    const lost = focusAfter(board, focus);
    // On a touch screen a turn that begins out of sight (a long table, the person reading it higher up)
    // brings the moves into view: the page did not, and a timed phase ran out below (a phone probe).
    if (turnBegins && !spectator && matchMedia("(pointer: coarse)").matches) {
      const moves = board.querySelector("#moves");
      const box = moves?.getBoundingClientRect();
      if (box && (box.top < 0 || box.top > innerHeight - 120)) moves.scrollIntoView({ block: "start" });
    }
    tell(lost && !phaseOver(before, match) && match.status === "active" ? { ...said, changes: [...(said?.changes || []), `"${lost}" is no longer offered.`], turn: said?.turn } : said);
    if (match.status === "finished" && !match.rematch?.next && !match.lineage?.imported) watchRematch();
  };
  // The reads for a rematch (REMATCH_READ_SECONDS apart, at most REMATCH_WATCH_SECONDS): paused while the
  // page is hidden, resumed with a read at once when it is shown again; over once the rematch is known.
  let rematchUntil = null;
  let rematchTimer = null;
  let rematchReading = false;
  const rematchKnown = () => Boolean(latest?.rematch?.next);
  const scheduleRematch = () => {
    clearTimeout(rematchTimer);
    rematchTimer = null;
    if (!show.live() || rematchKnown() || Date.now() >= rematchUntil || document.visibilityState !== "visible") return;
    rematchTimer = setTimeout(readRematch, REMATCH_READ_SECONDS * 1000);
  };
  const readRematch = async () => {
    rematchTimer = null;
    if (rematchReading || !show.live() || rematchKnown() || Date.now() >= rematchUntil || document.visibilityState !== "visible") return;
    rematchReading = true;
    try {
      const match = await get(`/matches/${id}`, options);
      if (show.live() && (match.version > latest.version || (match.rematch?.next && !rematchKnown()))) draw(match);
    } catch {
      // the next read tries again
    } finally {
      rematchReading = false;
    }
    scheduleRematch();
  };
  const onVisibility = () => {
    if (rematchUntil !== null && rematchTimer === null && document.visibilityState === "visible") readRematch();
  };
  function watchRematch() {
    if (rematchUntil !== null || !show.live()) return;
    rematchUntil = Date.now() + REMATCH_WATCH_SECONDS * 1000;
    document.addEventListener("visibilitychange", onVisibility);
    leaving.push(() => { clearTimeout(rematchTimer); document.removeEventListener("visibilitychange", onVisibility); });
    scheduleRematch();
  }
  const other = spectator ? (identity.key() ? h("a", { href: `#/match/${id}` }, "view as your seat") : null)
    : h("a", { href: `#/match/${id}?as=spectator` }, "watch as a spectator");
  const tools = h("div");
  show(h("p", { class: "links" }, h("a", { href: `#/replay/${id}` }, "replay this match"), other ? [" · ", other] : null),
    notice, announce, error, board, tools);
  await games();
  const first = await get(`/matches/${id}`, options);
  show.titled(`${titleOf(first.game)} match`);
  draw(first);
  if (!show.live()) return;
  fill(tools, matchTools(id, options, () => latest));
  const over = (match) => match.status === "finished" || match.status === "cancelled";
  // Live: the stream pushes the view whenever the version changes; it ends at the finish. While it is
  // refused (the API holds 4 streams or waiting reads per client address) or broken, the page says so
  // and reads the match every few seconds, until the stream answers again.
  let polling = null;
  const stopPolling = () => { clearInterval(polling); polling = null; };
  leaving.push(stopPolling);
  let stopStream = () => {};
  const poll = async () => {
    try {
      const match = await get(`/matches/${id}`, options);
      if (!show.live() || polling === null) return;
      if (unsettled) settled(match);
      else if (match.version > latest.version) draw(match);
      if (over(match)) { stopPolling(); stopStream(); fill(notice); }
    } catch {
      // the next tick tries again; the notice stays
    }
  };
  const onState = (state) => {
    if (!show.live()) return;
    if (state === "live" || state === "ended") { // ended: the match is over and its last version drawn
      fill(notice);
      stopPolling();
      settle(); // the server answers again: a table left waiting after a move is read and drawn now
      return;
    }
    notice.textContent = "Live updates paused, retrying… (the table is read every few seconds meanwhile)";
    if (polling === null) {
      polling = setInterval(poll, POLL_SECONDS * 1000);
      poll();
    }
  };
  stopStream = follow(`/matches/${id}/stream?seconds=300`, (name, match) => {
    if (name !== "match") return undefined;
    // The stream opens with the version just read: drawing it again would only reset the page.
    if (!latest || match.version > latest.version) draw(match);
    if (over(match)) { stopPolling(); fill(notice); return "stop"; }
    return undefined;
  }, { ...options, onState, onError: (e) => fill(error, problemBox(e)) });
  leaving.push(stopStream);
}

// -- export, verify, fork ---------------------------------------------------------------------------
// Export: the whole match as JSON Lines, as this viewer may see it (the auditor's unredacted, and
// importable), saved as the file the answer names.
function exportButton(id, options, error) {
  return h("button", { type: "button", id: "export", title: "download the match's events (JSON Lines) as you may see them",
    // Through busy(): Enter, Enter, Space downloaded it three times (a probe).
    onclick: (event) => busy(event.currentTarget,
      () => attempt(error, () => download(`/matches/${id}/export`, { ...options, fallbackName: `match-${id}.jsonl` }))) }, "Export");
}

// Provable chance (GET /matches/{id}/verify): every shuffle re-derived from the seed revealed at the end.
function verifyButton(id, options, error) {
  const result = h("span", { id: "verify-result", role: "status" });
  const button = h("button", { type: "button", id: "verify", title: "re-derive every shuffle from the revealed seed",
    onclick: (event) => busy(event.currentTarget, () => attempt(error, async () => {
      fill(result);
      const verdict = await get(`/matches/${id}/verify`, options);
      fill(result, verdict.verified
        ? `Chance verified: ${verdict.chance_outcomes_checked} outcome${verdict.chance_outcomes_checked === 1 ? "" : "s"} re-derived`
          + `${verdict.inherited_from_parent ? ` (${verdict.inherited_from_parent} from the parent)` : ""}`
          // A match still being played verifies what it holds so far (the auditor's, the seed known).
          + `${verdict.ended === false ? `, up to version ${verdict.last_version}: the match is not over` : ""}.`
        : `Not verified: ${verdict.reason || "no reason given"}.`);
    })) }, "Verify chance");
  return [button, " ", result];
}

function matchTools(id, options, latest) {
  const error = h("div", { id: "tools-error" });
  const match = latest();
  return h("section", { class: "tools", id: "tools" }, h("h2", {}, "Audit"),
    h("div", { class: "controls" }, exportButton(id, options, error), verifyButton(id, options, error),
      match && (match.status === "finished" || identity.auditor()) && identity.key()
        ? h("a", { href: `#/replay/${id}`, id: "fork-hint" }, "fork from a past position (replay)") : null),
    error,
    identity.auditor() ? auditorPanel() : null);
}

// -- replay --------------------------------------------------------------------------------------
async function allEvents(id, options) {
  const events = [];
  let after = 0;
  for (;;) {
    const page = await get(`/matches/${id}/events?after=${after}&limit=500`, options);
    events.push(...page.items);
    if (!page.items.length || page.items[page.items.length - 1].version >= page.last_version) return events;
    after = page.items[page.items.length - 1].version;
  }
}

// One line per event: its number (unless `numbered` is false), kind, who, and the action in the table's words.
// The stored events' types in words (a newcomer probe: "ChanceDrawn", "ResolutionDue", "StepResolved"
// meant nothing to a player); the type itself is each item's title, for a developer. Types not named here
// are shown as they are.
const EVENT_WORDS = {
  Created: "created", SeatTaken: "seat taken", SeatLeft: "seat left", Started: "started", MoveMade: "move",
  ChanceDrawn: "chance (cards shuffled or dice rolled)", ResolutionDue: "the game resolves a step next",
  StepResolved: "the game resolved a step", TimerStarted: "timer started", TimerCleared: "timer stopped",
  TimedOut: "time ran out", TurnClockStarted: "turn clock started", TurnClockStopped: "turn clock stopped",
  SeatsTimedOut: "turn clock ran out (away)", SeatReturned: "back at the table", Resigned: "resigned",
  Claimed: "claimed", Finished: "finished", Cancelled: "called off", Abandoned: "abandoned", Voided: "voided",
  ResultVoided: "result voided", Forfeited: "forfeited", Invited: "invited", Unlisted: "made private",
  RematchOpened: "rematch opened", RematchLinked: "rematch asked for", ClockExtended: "clock extended",
};
const eventWords = (type) => EVENT_WORDS[type] || type;

function eventText(event, match, numbered = true) {
  const bits = [numbered ? `${event.version}. ${eventWords(event.type)}` : eventWords(event.type)];
  if (typeof event.seat === "number") bits.push(seatName(match.seats, event.seat));
  // A move the computer made for the seat (the API's `by`): a resigned seat's, an absent one's, a computer's.
  if (event.by === "computer" && !match.seats?.[event.seat]?.computer) bits.push("played by the computer");
  if (event.action && typeof event.action === "object") bits.push(describeAction(event.action, match));
  else if (event.name && typeof event.seat !== "number") bits.push(event.name);
  // Which step the game resolved or a timeout closed ("the game resolved a step" said nothing of which:
  // a desktop probe): its type in words.
  if (event.step && typeof event.step === "object" && typeof event.step.type === "string")
    bits.push(event.step.type.replace(/-/g, " "));
  // Which chance it was (a shuffle, a die, Le Bouffon's roles): "chance (cards shuffled or dice rolled)" of a
  // public draw of roles said neither that roles were drawn nor who got which (a desktop probe). A hidden
  // outcome (null) says nothing more.
  const outcome = event.outcome;
  if (outcome && typeof outcome === "object" && typeof outcome.type === "string") {
    bits.push(outcome.type.replace(/-/g, " "));
    if (outcome.type === "roles" && Array.isArray(outcome.roles))
      bits.push(outcome.roles.map((role, seat) => `${seatName(match.seats, seat)}: ${role}`).join(", "));
  }
  return bits.join(" · ");
}

// Every version as the viewer may see it (docs/architecture.md, "Visibility"): a seat with its key, or a
// spectator; once a match is over and revealed both see everything.
async function replay(id, params) {
  const show = screen();
  const spectator = params.get("as") === "spectator" || !identity.key();
  const options = { anonymous: spectator };
  await games();
  const [events, latest] = await Promise.all([allEvents(id, options), get(`/matches/${id}`, options)]);
  const last = events.length ? events[events.length - 1].version : 1;
  const slider = h("input", { type: "range", id: "slider", min: 1, max: last, value: last, "aria-label": "version" });
  // A status: a screen-reader user stepping with ◀ or ▶ hears where it went (the slider says it only
  // while it has the focus).
  const at = h("span", { id: "at", role: "status" });
  const board = h("div", { id: "replay-board" });
  // Each event holds a button of its own (the list stays a list): reached with Tab, chosen with Enter or
  // Space as with a click.
  // The list names its match: a page (or a test) going from one replay to another tells the lists apart.
  const list = h("ol", { class: "events", id: "events", "data-match": id }, events.map((event) =>
    h("li", { "data-version": event.version },
      h("button", { type: "button", class: "event", title: event.type, onclick: () => go(event.version) }, eventText(event, latest)))));
  const eventsBox = h("aside", {}, h("h2", {}, "Events"), list);
  let asked = 0;
  const go = async (version) => {
    version = Math.max(1, Math.min(last, version));
    slider.value = version;
    at.textContent = `version ${version} of ${last}`;
    forkName(version);
    // The slider says which event it reached, not only its number (as the event list does).
    const reached = events.find((event) => event.version === version);
    slider.setAttribute("aria-valuetext", `version ${version} of ${last}${reached ? `: ${eventText(reached, latest, false)}` : ""}`);
    // Current on the item and on its button, which is what has the focus (and is read).
    for (const item of list.children) {
      const current = Number(item.dataset.version) === version;
      item.classList.toggle("current", current);
      for (const node of [item, item.querySelector("button")]) {
        if (current) node?.setAttribute("aria-current", "step");
        else node?.removeAttribute("aria-current");
      }
    }
    // Only the event list scrolls to the current event: on a phone it sits under the board, and scrolling
    // the document would carry the step buttons off the screen at every step.
    scrollWithin(eventsBox, list.querySelector(".current"));
    const ticket = ++asked;
    const match = await get(`/matches/${id}?version=${version}`, options);
    started.set(version, match.status !== "open");
    if (ticket !== asked) return; // a later step overtook this read
    forkNote(version);
    // Under a heading of its own: the game's "Your hand" and "City" fell under "Result" (a screen-reader probe).
    fill(board, matchHeader(match, "h2"), resultView(match), h("section", { class: "observation" },
      h("h2", { id: "replay-board-heading" }, `The board at version ${version}`), observation(match)));
    // A past version's timers are what they were, not a countdown against today's clock: only the last
    // version of a match still running counts down.
    if (version < last || latest.status !== "active") pastDeadlines(board);
  };
  const step = (delta) => () => go(Number(slider.value) + delta);
  slider.addEventListener("input", () => go(Number(slider.value)));
  // Fork from the version shown: a finished and revealed match, by a player, or any match by the
  // auditor (POST /matches/{id}/forks {version, reserved}); the player's own seat is kept for them. The
  // new match opens. The API's rule (application/history.py fork): the viewer sees everything, which a
  // player does once the match is finished with reveal_at_end; a match that never reveals (reveal_at_end
  // false) is forked by the auditor alone (a 403 for anyone else), so no button offers it.
  const toolsError = h("div", { id: "tools-error" });
  const me = identity.player();
  const mySeat = me ? latest.seats.findIndex((seat) => seat.player_id === me.id) : -1;
  const revealed = latest.status === "finished" && latest.reveal_at_end === true;
  // (The view read with the key the fork is sent with says it too: viewer.sees_all.)
  const mayFork = Boolean(identity.key()) && (identity.auditor() || revealed || (!spectator && latest.viewer?.sees_all === true));
  // Before the match started (its seats being taken) a fork is an open match with every seat free: the
  // API keeps no seat there (422), so none is asked for, and the button says so.
  const started = new Map(); // version -> whether the match had started by then (as read for the board)
  const startedAt = async (version) => {
    if (!started.has(version)) started.set(version, (await get(`/matches/${id}?version=${version}`, options)).status !== "open");
    return started.get(version);
  };
  // What a fork keeps, shown beside it (a tooltip is out of reach on a phone or from the keyboard), and its
  // title as before.
  const forkSays = "a new match from the version shown, its seats open again";
  const forkHelp = mayFork ? h("small", { class: "option-help", id: "fork-help" }, forkSays) : null;
  const fork = mayFork ? h("button", { type: "button", id: "fork", "aria-describedby": "fork-help", title: forkSays,
    onclick: (event) => busy(event.currentTarget, () => attempt(toolsError, async () => {
      const version = Number(slider.value);
      const keep = mySeat >= 0 && (await startedAt(version));
      const body = { version, reserved: keep ? { [mySeat]: me.id } : {} };
      const forked = await post(`/matches/${id}/forks`, body, { key: identity.key() });
      location.hash = `#/match/${forked.id}`;
    })) }, "Fork from this position") : null;
  // Its name says which version it forks from (it said "this position", the slider's version unsaid to a
  // screen reader at the button): the version chosen, named as it is chosen (named once the board's read
  // came back, it could say "8" while a press forked the version 1 just chosen: a probe).
  const forkName = (version) => { if (fork) fork.textContent = `Fork from version ${version}`; };
  const forkNote = (version) => {
    if (!fork || mySeat < 0) return;
    const before = started.get(version) === false;
    fork.title = forkHelp.textContent = before ? "before the match started: a new open match with every seat free (none kept for you)"
      : "a new match from the version shown, your seat kept for you";
    fork.dataset.keepsSeat = before ? "false" : "true";
  };
  const viewerName = identity.auditor() ? "as the auditor" : "as your seat";
  show.titled(`Replay: ${titleOf(latest.game)} match`);
  show(
    h("h1", {}, "Replay"),
    h("p", {}, h("a", { href: `#/match/${id}` }, "back to the table"), " · ", spectator
      ? (identity.key() ? h("a", { href: `#/replay/${id}`, id: "as-seat" }, viewerName) : "as a spectator")
      : h("a", { href: `#/replay/${id}?as=spectator`, id: "as-spectator" }, "as a spectator")),
    h("div", { class: "controls", id: "replay-controls" },
      h("button", { id: "first", onclick: () => go(1), title: "first version" }, "« first"), h("button", { id: "back", onclick: step(-1), title: "previous version",
        "aria-label": "previous version" }, "◀"),
      slider, h("button", { id: "forward", onclick: step(1), title: "next version", "aria-label": "next version" }, "▶"), h("button", { id: "last", onclick: () => go(last), title: "last version" }, "last »"), at),
    h("div", { class: "controls", id: "replay-tools" }, fork, forkHelp, exportButton(id, options, toolsError), verifyButton(id, options, toolsError)),
    toolsError,
    h("div", { class: "replay" }, board, eventsBox),
  );
  // ?version=N opens it there (a fork's "Forked from" link: the position it was forked at).
  const opening = Number.parseInt(params.get("version") || "", 10);
  await go(Number.isInteger(opening) ? opening : last);
}

// Scroll `box` (a scrolling box) so that `item` shows in it, the least distance; the document stays.
function scrollWithin(box, item) {
  if (!item) return;
  const inside = item.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
  if (inside < box.scrollTop) box.scrollTop = inside;
  else if (inside + item.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = inside + item.offsetHeight - box.clientHeight;
}

// A read model read as fresh as the log is now: the read waits (?after=, up to 5 s) until the workers have
// applied the log's current position (GET /health), and falls back to what they have if they lag further.
async function fresh(path) {
  // While this page's streams are refused (the client's 4 are held), a waiting read would be refused
  // too: what the read model has now.
  if (crowded()) return get(path);
  const sent = Date.now();
  try {
    const { position } = await get("/health");
    return await get(`${path}${path.includes("?") ? "&" : "?"}after=${position}`);
  } catch (error) {
    // 503: the workers lag further than a read waits; 429: the client holds its 4 streams or waiting
    // reads already (the streams wait then too). Either way, what the read model has now.
    if (error instanceof Problem && error.problem.status === 429) heldRefused(Number(error.problem.retry_after) || 5, sent);
    if (error instanceof Problem && [503, 429].includes(error.problem.status)) return get(path);
    throw error;
  }
}

// -- leaderboards and ratings --------------------------------------------------------------------
// A page of a list the API pages (its items and total at this offset and limit): "<Noun> A–B of N." with
// Previous and Next, or, past the end, "No <noun> on this page: there are N." with Previous to the last
// page; nothing when one page holds the whole list. The leaderboard and the tournaments list share it.
// (decimal digits only: Number() read "0x2" as 2, "1e3" as 1000)
const whole = (text, fallback) => (/^\s*[-+]?\d+(\.\d*)?\s*$/.test(text ?? "") ? Math.floor(Number(text)) : fallback);
const pageOffset = (params) => Math.min(2 ** 31 - 1, Math.max(0, whole(params.get("offset"), 0)));

function pager({ items, total }, { offset, limit, id, links = id, noun, order = "", href }) {
  if (total <= items.length) return null;
  const link = (from, text, which) => h("a", { href: href(from), id: `${links}-${which}` }, text);
  const last = Math.max(0, Math.floor((total - 1) / limit) * limit); // the last page's first row
  return h("p", { class: "pages", id: `${id}-pages` },
    items.length ? `${noun} ${offset + 1}${items.length > 1 ? `–${offset + items.length}` : ""} of ${total}${order}. `
      : `No ${noun.toLowerCase()} on this page: there are ${total}. `,
    offset > 0 ? link(offset >= total ? last : Math.max(0, offset - limit), "Previous", "previous") : null, " ",
    offset + items.length < total ? link(offset + limit, "Next", "next") : null);
}

const PICK_MS = 500; // the leaderboard's game picker: how long it waits for another step before opening the board
const BOARD_PAGE = 100; // rows a leaderboard page shows by default (it stopped at 100, the rest unsaid)

async function leaderboard(game, params = new URLSearchParams()) {
  const show = screen();
  // #/leaderboard/<game>?offset=N&limit=M: a page of the board (the API's own paging, 1-500 rows).
  const offset = pageOffset(params);
  const limit = Math.min(500, Math.max(1, whole(params.get("limit"), BOARD_PAGE) || BOARD_PAGE));
  const [all, board] = await Promise.all([games(), fresh(`/leaderboards/${game}?limit=${limit}&offset=${offset}`)]);
  const pages = pager(board, { offset, limit, id: "board", noun: "Players",
    href: (from) => `#/leaderboard/${game}?offset=${from}&limit=${limit}` });
  // The arrow keys step a closed select through its games, a change at each step: the board opens once the
  // person stops on one (PICK_MS), so a keyboard user passes games by without loading each. A game picked
  // from the open list (a click, a tap: no key since) opens at once.
  let picking = null;
  let keyed = false;
  leaving.push(() => clearTimeout(picking));
  const open = () => { if (select.isConnected) location.hash = `#/leaderboard/${select.value}`; };
  const pick = () => {
    clearTimeout(picking);
    if (keyed) picking = setTimeout(open, PICK_MS);
    else open();
  };
  const select = h("select", { id: "board-game", "aria-label": "game", onchange: pick,
    onkeydown: () => { keyed = true; }, onpointerdown: () => { keyed = false; } },
    all.map((g) => h("option", { value: g.name, selected: g.name === game }, g.title)));
  show.titled(`Leaderboard: ${titleOf(game)}`);
  show(h("h1", {}, "Leaderboard ", select),
    board.items.length ? scrolling(h("table", { class: "grid", id: "leaderboard" },
      h("thead", {}, h("tr", {}, ["place", "player", "rating (μ − 3σ)", "μ", "σ", "rated matches played", "rated matches won"]
        .map((t) => h("th", {}, t)))),
      h("tbody", {}, board.items.map((row, i) => h("tr", {},
        h("td", {}, row.place ?? i + 1),
        h("td", {}, h("a", { href: `#/player/${row.player_id}/${game}` }, named(row.name))),
        h("td", {}, row.ordinal.toFixed(2)), h("td", {}, row.mu.toFixed(2)), h("td", {}, row.sigma.toFixed(2)),
        h("td", {}, row.played), h("td", {}, row.wins)))))) : h("p", { class: "muted", id: "leaderboard" },
      board.total ? "" : "No rated matches yet."),
    board.items.length ? h("p", { class: "muted", id: "leaderboard-counts" }, COUNTS_RATED) : null,
    pages);
}

async function player(id, game) {
  const show = screen();
  const profile = await get(`/players/${id}`);
  const all = await games();
  const rated = Array.isArray(profile.ratings) ? profile.ratings.map((r) => r.game) : Object.keys(profile.ratings || {});
  const chosen = game || rated[0] || "jest";
  // The tournaments the player entered (GET /tournaments?player=), newest first.
  const [history, entered] = await Promise.all([get(`/players/${id}/ratings/${chosen}`),
    get(`/tournaments?player=${encodeURIComponent(id)}&limit=20`)]);
  const points = history.history.map((row, i) => ({
    y: row.mu, low: row.mu - row.sigma, high: row.mu + row.sigma,
    label: `match ${i + 1}: place ${row.place}, μ ${row.mu.toFixed(2)} ± ${row.sigma.toFixed(2)}`,
  }));
  show.titled(`${profile.name}: ratings`);
  show(h("h1", {}, named(profile.name)),
    h("p", {}, all.map((g) => [h("a", { href: `#/player/${id}/${g.name}`, class: g.name === chosen ? "current" : "",
      "aria-current": g.name === chosen ? "page" : null }, g.title), " "])),
    h("h2", {}, `Rating history in ${titleOf(chosen)} (μ, bars ± σ)`),
    chart(points, { title: `rating history in ${titleOf(chosen)}` }),
    h("ol", { class: "list" }, history.history.map((row) => h("li", {},
      // An unlisted match is named to its player and the auditor only (match_id null): no link to "replay/null".
      row.match_id ? h("a", { href: `#/replay/${row.match_id}` }, `place ${row.place}`)
        : h("span", {}, `place ${row.place} (an unlisted match)`),
      ` → μ ${row.mu.toFixed(2)}, σ ${row.sigma.toFixed(2)}`))),
    h("h2", {}, "Statistics"), statistics(profile.statistics),
    h("h2", {}, "Recent matches"), (profile.recent_matches || []).length ? h("ul", { class: "list", id: "recent" },
      profile.recent_matches.map((m) => h("li", {}, `${titleOf(m.game)} · ${m.status} · `,
        h("a", { href: `#/match/${m.id}` }, "table"), " ", h("a", { href: `#/replay/${m.id}` }, "replay")))) : h("p", { class: "muted" }, "none"),
    h("h2", {}, "Tournaments"), entered.items.length ? h("ul", { class: "list", id: "entered" },
      entered.items.map((t) => h("li", {}, h("a", { href: `#/tournament/${t.id}` }, h("bdi", {}, t.name)),
        ` · ${titleOf(t.game)} · ${t.status}`))) : h("p", { class: "muted" }, "none"),
    entered.total > entered.items.length ? h("p", { class: "muted" }, `the ${entered.items.length} newest of ${entered.total}`) : null);
}

// What the leaderboard's and a profile's counts count (docs/tournaments.md, "Ratings, leaderboards,
// statistics"; the API's RatingOut and StatisticsOut): a profile said "played 2" where the leaderboard
// said "played 1", neither saying which counted what (a new player's probe).
const COUNTS_RATED = "Played and won count rated matches only. A player's profile counts every finished match they "
  + "moved in, rated or not.";
const COUNTS_ALL = "Every finished match the player moved in, rated or not (forks included). A leaderboard counts "
  + "rated matches only.";
const STATISTICS_COLUMNS = { played: "matches played (rated or not)", wins: "won (rated or not)" };

function statistics(rows) {
  const list = Array.isArray(rows) ? rows : Object.entries(rows || {}).map(([game, row]) => ({ game, ...row }));
  if (!list.length) return h("p", { class: "muted" }, "No finished matches yet.");
  const columns = [...new Set(list.flatMap((row) => Object.keys(row)))];
  return scrolling(h("table", { class: "grid", id: "statistics" },
    h("caption", { class: "muted", id: "statistics-counts" }, COUNTS_ALL),
    h("thead", {}, h("tr", {}, columns.map((c) => h("th", {}, STATISTICS_COLUMNS[c] || c.replace(/_/g, " "))))),
    h("tbody", {}, list.map((row) => h("tr", {}, columns.map((c) =>
      h("td", {}, c === "game" ? titleOf(row[c]) : typeof row[c] === "number" ? +row[c].toFixed(2) : String(row[c] ?? ""))))))));
}

// -- tournaments ---------------------------------------------------------------------------------
const TOURNAMENTS_PAGE = 20; // rows of the tournaments list a page shows by default

// #/tournaments?offset=N: a page of the list, newest first (the API's own paging): it showed the newest 20
// and said nothing of the rest, an organiser's older tournament out of reach but by its address (a
// keyboard probe).
async function tournaments(params = new URLSearchParams()) {
  const show = screen();
  const offset = pageOffset(params);
  const limit = TOURNAMENTS_PAGE;
  const [page, all] = await Promise.all([get(`/tournaments?limit=${limit}&offset=${offset}`), games()]);
  const pages = pager(page, { offset, limit, id: "tournament", links: "tournaments", noun: "Tournaments",
    order: ", newest first", href: (from) => `#/tournaments?offset=${from}` });
  show.titled("Tournaments");
  show(h("h1", {}, "Tournaments"),
    identity.player() ? tournamentForm(all) : h("p", { class: "hint" }, "Register (at the top of the page) to organise or enter a tournament."),
    pages,
    page.items.length ? scrolling(h("table", { class: "grid" },
    h("thead", {}, h("tr", {}, ["name", "game", "status"].map((t) => h("th", {}, t)), quietHeader("standings"))),
    h("tbody", {}, page.items.map((t) => h("tr", {}, h("td", {}, h("bdi", { class: "title" }, t.name)), h("td", {}, titleOf(t.game)), h("td", {}, t.status),
      h("td", { class: "row-actions" }, h("a", { href: `#/tournament/${t.id}` }, "standings")))))))
      : page.total ? null : h("p", { class: "muted" }, "No tournaments yet."));
}

// The tie-break orders the tournament form offers (POST /tournaments: tie_breaks), the API's default first.
const TIE_BREAK_ORDERS = [
  [null, "opponents' points, then wins (default)"],
  [["wins", "opponents-points"], "wins, then opponents' points"],
  [["average-place", "opponents-points"], "average place, then opponents' points"],
  [["opponents-points", "wins", "average-place"], "opponents' points, wins, then average place"],
  [[], "none: tied players share the place"],
];

// "3, 1, 0" as the API's points ([3, 1, 0]); a word that is no number is sent as it is, for the API to
// name in its refusal.
const numberList = (text) => text.split(/[\s,;]+/).filter(Boolean).map((word) => (/^-?\d+$/.test(word) ? Number(word) : word));

// A new tournament (POST /tournaments): its game, name, table size, format, rounds, computer opponents, turn
// limit and round deadline, and, folded, its points by place, bye points, tie-breaks, whether it is rated and
// the game's options for every table (the API took them and the page did not: an organiser on the page
// could not make a 3-1-0 or an unrated tournament, nor one of Jester without red chairs). The person
// creating it organises it (and need not play).
function tournamentForm(all) {
  const gameSelect = h("select", { id: "tournament-game" }, all.map((game) => h("option", { value: game.name }, game.title)));
  const name = h("input", { id: "tournament-name", maxlength: 80, required: true, placeholder: "Tuesday Jest" });
  const tableSize = h("input", { id: "tournament-table-size", type: "number", min: 1, max: 12, step: 1, placeholder: "default",
    "aria-describedby": "tournament-table-size-help" });
  const format = h("select", { id: "tournament-format" }, h("option", { value: "swiss" }, "swiss"), h("option", { value: "round-robin" }, "round-robin"));
  const rounds = h("input", { id: "tournament-rounds", type: "number", min: 1, max: 20, step: 1, value: 3, required: true });
  // Computers filling the tables, a turn limit and a round deadline: the API took them and the page did not,
  // so an organiser on the page could not fill an odd field with computers nor stop a vanished player
  // holding a round up (a desktop probe).
  const computer = h("select", { id: "tournament-computer" });
  const turnLimit = h("input", { id: "tournament-turn-limit", type: "number", min: 1, max: 604800, step: 1, placeholder: "none",
    "aria-describedby": "tournament-turn-limit-help" });
  const deadline = h("input", { id: "tournament-round-deadline", type: "number", min: 1, max: 43200, step: 1, placeholder: "none",
    "aria-describedby": "tournament-round-deadline-help" });
  // (no numeric keypad: some hide the comma and space "3, 1, 0" needs)
  const points = h("input", { id: "tournament-points", placeholder: "default", size: 12,
    "aria-describedby": "tournament-points-help" });
  const byePoints = h("input", { id: "tournament-bye-points", type: "number", min: 0, max: 1000, step: 1, placeholder: "default",
    "aria-describedby": "tournament-bye-points-help" });
  const tieBreaks = h("select", { id: "tournament-tie-breaks" },
    TIE_BREAK_ORDERS.map(([, text], i) => h("option", { value: String(i) }, text)));
  const rated = h("input", { id: "tournament-rated", type: "checkbox", checked: true, "aria-describedby": "tournament-rated-help" });
  const optionsBox = h("div", { class: "options", id: "tournament-options" });
  const error = h("div");
  const current = () => all.find((g) => g.name === gameSelect.value);
  const sizes = () => {
    const game = current();
    Object.assign(tableSize, { min: game.min_players, max: Math.min(12, game.max_players) });
    computer.replaceChildren(h("option", { value: "" }, "none: byes"),
      ...(game.computer_levels || []).map((level) => h("option", { value: level }, `computer (${level})`)));
    computer.disabled = !(game.computer_levels || []).length;
    const rules = game.house_rules || [];
    fill(optionsBox, ...Object.entries(game.options_schema?.properties || {}).map(([option, schema]) =>
      optionField(option, schema, rules.filter((rule) => rule.option === option))));
  };
  gameSelect.addEventListener("change", sizes);
  sizes();
  // The field a refusal is about: a validation problem names it; the game's refusal of its options names
  // the option in its detail ("option 'deals' must be between 1 and 100"), as at a new match.
  const fields = { game: gameSelect, name, table_size: tableSize, format, rounds, computer, turn_limit: turnLimit,
    round_deadline_seconds: deadline, points, bye_points: byePoints, tie_breaks: tieBreaks, rated };
  const optionNamed = (test) => [...optionsBox.querySelectorAll("[name]")].find((input) => test(input.name)) || null;
  const fieldAt = (field, refusal) => {
    const [head, option] = field.split(".");
    if (head === "match_options") return optionNamed((input) => input === option) || gameSelect;
    if (Object.hasOwn(fields, head)) return fields[head];
    const said = refusal instanceof Problem && / options$/.test(refusal.problem.rule || "") ? refusal.problem.detail || "" : "";
    return field === "" && said ? optionNamed((input) => new RegExp(`\\b${input}\\b`).test(said)) : null;
  };
  const submit = submitting(() => attempt(error, async () => {
      const body = { game: gameSelect.value, name: name.value.trim(), format: format.value, rounds: Number(rounds.value) };
      if (tableSize.value.trim() !== "") body.table_size = Number(tableSize.value);
      if (computer.value) body.computer = computer.value;
      if (turnLimit.value.trim() !== "") body.turn_limit = { seconds: Number(turnLimit.value), on_timeout: "computer" };
      if (deadline.value.trim() !== "") body.round_deadline_seconds = Number(deadline.value) * 60;
      if (points.value.trim() !== "") body.points = numberList(points.value);
      if (byePoints.value.trim() !== "") body.bye_points = Number(byePoints.value);
      const order = TIE_BREAK_ORDERS[Number(tieBreaks.value)][0];
      if (order !== null) body.tie_breaks = order;
      if (!rated.checked) body.rated = false;
      const options = chosenOptions(optionsBox, current().options_schema?.properties || {});
      if (Object.keys(options).length) body.match_options = options;
      const created = await post("/tournaments", body);
      location.hash = `#/tournament/${created.id}`;
    }, fieldAt));
  return h("form", { id: "create-tournament", class: "panel", onsubmit: submit },
    h("h2", {}, "New tournament"),
    h("label", {}, "game ", gameSelect), h("label", {}, "name ", name),
    h("div", { class: "option" }, h("label", {}, "table size ", tableSize),
      h("small", { class: "option-help", id: "tournament-table-size-help" }, "players per table; empty: the game's largest up to 4")),
    h("label", {}, "format ", format), h("label", {}, "rounds ", rounds),
    h("label", {}, "computer opponents ", computer),
    h("div", { class: "option" }, h("label", {}, "turn limit (seconds) ", turnLimit),
      h("small", { class: "option-help", id: "tournament-turn-limit-help" }, "a player whose turn runs out is played by the computer; empty: no limit")),
    h("div", { class: "option" }, h("label", {}, "round deadline (minutes) ", deadline),
      h("small", { class: "option-help", id: "tournament-round-deadline-help" }, "after it you may forfeit absent players; empty: none")),
    h("details", { class: "option-more", id: "tournament-more" }, h("summary", {}, "Scoring and game options"),
      h("div", { class: "option" }, h("label", {}, "points by place ", points),
        h("small", { class: "option-help", id: "tournament-points-help" },
          "one number a place of a table, best first, never more for a worse place (3, 1, 0); empty: table size − place")),
      h("div", { class: "option" }, h("label", {}, "bye points ", byePoints),
        h("small", { class: "option-help", id: "tournament-bye-points-help" }, "for a player left without a table; empty: the middle place's points")),
      // Its name above it, the select no wider than the screen: its long choices widened a phone's page to
      // 454 px, and "tie-" and "breaks" parted (a phone probe).
      h("div", { class: "option" }, h("label", { for: "tournament-tie-breaks" }, "tie-breaks"), tieBreaks),
      h("div", { class: "option" }, h("label", {}, rated, " rated"),
        h("small", { class: "option-help", id: "tournament-rated-help" }, "its matches count for the leaderboard and ratings")),
      h("p", { class: "muted" }, "Game options, for every table:"), optionsBox),
    h("button", { type: "submit", id: "create-tournament-submit" }, "Create tournament"), error);
}

// What the signed-in person may do about a tournament: enter or withdraw (the player), start or call off (the
// organiser, while it is open).
function tournamentActions(t, error, after) {
  const me = identity.player();
  if (!me || !identity.key() || t.status === "finished" || t.status === "cancelled") return null;
  const entry = (t.players || []).find((p) => p.player_id === me.id);
  const registered = entry && entry.status === "registered";
  // The button stays disabled until the tournament is drawn again (a second click on "Register" was
  // refused as already registered).
  const act = (work) => (event) => busy(event?.currentTarget,
    (release) => attempt(error, async () => { await work(); release(); await after(); }));
  const buttons = [];
  if (t.status === "open" && !registered)
    buttons.push(h("button", { id: "tournament-register", type: "button", onclick: act(() => post(`/tournaments/${t.id}/players`)) }, "Register"));
  if (registered)
    buttons.push(h("button", { id: "tournament-withdraw", type: "button", onclick: (event) => confirm(t.status === "open"
      ? "Withdraw from this tournament?" : "Withdraw from this tournament? You are not paired again, and a table you play now is resigned.")
      && act(() => remove(`/tournaments/${t.id}/players/${encodeURIComponent(me.id)}`))(event) }, "Withdraw"));
  if (t.status === "open" && t.organiser === me.id)
    buttons.push(h("button", { id: "tournament-start", type: "button", onclick: act(() => post(`/tournaments/${t.id}/start`)) }, "Start"),
      h("button", { id: "tournament-cancel", type: "button", onclick: (event) => confirm(
        "Call this tournament off? It takes no more registrations and never starts; its players are told.")
        && act(() => post(`/tournaments/${t.id}/cancel`))(event) }, "Call off"));
  const entrants = (t.players || []).filter((p) => p.status === "registered").length;
  return h("div", { class: "controls", id: "tournament-actions" }, buttons,
    t.status === "open" ? h("span", { class: "muted" }, `${entrants} registered${registered ? ", you among them" : ""}`
      + `${t.organiser === me.id ? " · you organise it" : ""}`) : null);
}

const isolated = (name) => `\u2068${name}\u2069`;

// Where the focus is inside one of `boxes`, so that a redraw of them can put it back: its id, else a link's
// address and words (the standings' names, a round's "playing" and "replay", "play your table": no ids),
// with its rank among the links to the same address. The focus on such a link went to the page's body at
// every pushed version (a keyboard probe).
function focusMark(boxes) {
  const active = document.activeElement;
  const box = active && boxes.find((candidate) => candidate.contains(active));
  if (!box) return null;
  if (active.id) return { id: active.id };
  const href = active.getAttribute("href");
  if (!href) return null;
  const alike = [...box.querySelectorAll("a[href]")].filter((link) => link.getAttribute("href") === href);
  return { box, href, text: active.textContent, index: alike.indexOf(active) };
}

// Puts the focus back where `focusMark` found it, if the redraw left it on the page's body: the same id,
// else a link to the same address (its words, else its rank: "playing" became "finished"), else `fallback`
// (the link went: the viewer's table over).
function focusBack(mark, fallback = null) {
  const active = document.activeElement;
  if (!mark || (active && active !== document.body && active !== document.documentElement)) return;
  const alike = mark.id ? [] : [...mark.box.querySelectorAll("a[href]")].filter((link) => link.getAttribute("href") === mark.href);
  const target = mark.id ? document.getElementById(mark.id)
    : alike.find((link) => link.textContent === mark.text) || alike[Math.min(mark.index, alike.length - 1)];
  (target || fallback)?.focus({ preventScroll: true });
}

// What the tournament's status line says of a new version (`before`, the one drawn): {changes}, or null.
function tournamentNews(before, t, me) {
  const changes = [];
  const was = new Map((before.players || []).map((entry) => [entry.player_id, entry.status]));
  const players = t.players || [];
  // Each name isolated (FSI … PDI), as <bdi> isolates it on the page: two right-to-left names joined by ", "
  // in this left-to-right sentence read in swapped order (a names probe).
  const who = (entries) => entries.map((entry) => (entry.player_id === me ? "you" : isolated(entry.name || "someone")))
    .join(", ");
  const came = players.filter((entry) => entry.status === "registered" && was.get(entry.player_id) !== "registered");
  const went = players.filter((entry) => entry.status !== "registered" && was.get(entry.player_id) === "registered");
  if (came.some((entry) => entry.player_id === me)) changes.push("You are registered.");
  if (came.some((entry) => entry.player_id !== me)) changes.push(`Registered: ${who(came.filter((entry) => entry.player_id !== me))}.`);
  for (const entry of went) changes.push(entry.player_id === me ? `You are ${entry.status}.` : `${who([entry])} is ${entry.status}.`);
  // Withdrawn before the start, an entry leaves the list (no status to change): the line kept "You are
  // registered." beside a Register button and "0 registered" (a web organiser's probe).
  const left = (before.players || []).filter((entry) => entry.status === "registered"
    && !players.some((now) => now.player_id === entry.player_id));
  for (const entry of left) changes.push(entry.player_id === me ? "You are withdrawn." : `${who([entry])} is withdrawn.`);
  if (t.status === "open" && (came.length || went.length || left.length))
    changes.push(`${players.filter((entry) => entry.status === "registered").length} registered.`);
  if (t.status !== before.status)
    changes.push({ active: "The tournament has started.", finished: "The tournament is over.", cancelled: "The tournament was called off." }[t.status]
      || `The tournament is ${t.status}.`);
  // A table's result (played, forfeited) or its void, as the rounds list shows it: the standings changed
  // silently, the line still saying "Round 1 is paired." (a keyboard probe).
  const nameOf = (player) => (player === me ? "you" : isolated(players.find((entry) => entry.player_id === player)?.name || "someone"));
  t.rounds.forEach((round, r) => round.tables.forEach((table, i) => {
    const now = table.result;
    const was = before.rounds?.[r]?.tables?.[i]?.result;
    if (!now || (was && was.how === now.how)) return;
    const where = `Round ${round.number ?? r + 1}, table ${table.table ?? i + 1}${(table.players || []).includes(me) ? " (yours)" : ""}`;
    const places = now.how !== "void" && now.ranks
      ? `: ${(table.players || []).map((player, k) => `${nameOf(player)} ${now.ranks[k] ?? "–"}`).join(", ")}` : "";
    changes.push(`${where} ${now.how === "void" ? "is void" : now.how === "forfeit" ? "is forfeited" : "finished"}${places ? `, places${places}` : ""}.`);
  }));
  if (t.rounds.length > (before.rounds || []).length) {
    const round = t.rounds[t.rounds.length - 1];
    const number = round.number ?? t.rounds.length;
    changes.push(`Round ${number} is paired.`);
    const mine = round.tables.findIndex((table) => (table.players || []).includes(me));
    if (me && mine >= 0) {
      const others = round.tables[mine].players.filter((player) => player !== me)
        .map((player) => isolated(players.find((entry) => entry.player_id === player)?.name || "someone"));
      changes.push(`Your table is ready: table ${round.tables[mine].table ?? mine + 1}${others.length ? `, with ${others.join(", ")}` : ""}.`);
    } else if (me && (round.byes || []).includes(me)) changes.push(`You have a bye in round ${number}.`);
  }
  return changes.length ? { changes, turn: null } : null;
}

// -- the organiser's controls on a tournament's page
// What the API lets the organiser do besides Start, each beside what it acts on: void a table's match
// (any round's, while the tournament runs or after, not void already), disqualify a player (in play or
// withdrawn, while it runs or after), withdraw another player (in play, before the end; the organiser's
// own entry has the Withdraw button above), and forfeit the absent players of an unsettled table of the
// round being played once its deadline has passed. Drawn for the tournament's organiser only (the API
// refuses anybody else; a player who is not the organiser sees none of them). `org` is the page's:
// { t, names, note, error, forfeiting, after }.
// The reason the organiser gave for disqualifying ``player`` (the sanction's), told to the player.
function disqualifiedFor(t, player) {
  const reason = (t.sanctions || []).filter((s) => s.kind === "disqualify" && s.player_id === player).at(-1)?.reason;
  return reason ? [" The organiser's reason: ", h("q", { id: "disqualified-reason" }, reason), "."] : null;
}

// A bye of the round being played scores nothing once its player has left (docs/tournaments.md): said
// before a withdrawal or a disqualification takes it.
const byeNote = (t, player) => (t.status === "active" && (t.rounds.at(-1)?.byes || []).includes(player)
  ? " Their bye in this round then scores nothing." : "");

function organiserOf(t) {
  const me = identity.key() ? identity.player() : null;
  return Boolean(me) && t.organiser === me.id;
}

// Whether a round's deadline has passed on the server's clock, as the API decides whether a forfeit is
// taken: a countdown (render.js) reads that clock (api.js serverNow), whatever the device's says.
const deadlinePassed = (deadline) => Boolean(deadline) && deadlineNode(deadline, "deadline").classList.contains("over");

const roundNumber = (round, r) => round.round ?? r + 1;
const tableWhere = (round, r, table, i) => `table ${table.table ?? i + 1} of round ${roundNumber(round, r)}`;

// The API's report of a sanction (what it changed: ranks, points, tie-breaks, ratings before and after),
// the last one of the tournament's view the sanction answered with.
function sanctionReport(tournamentId, view) {
  const number = (view?.sanctions || []).at(-1)?.number;
  // The API's JSON, in a tab of its own: the organiser's page stays where it was.
  return number ? [" ", h("a", { href: `/tournaments/${tournamentId}/sanctions/${number}`, id: "organiser-report",
    target: "_blank", rel: "noopener" }, "report (JSON)")] : null;
}

// The tournament's sanctions, numbered as the API numbers them, each with its reason and its report: only
// the organiser's note said one, the moment it was made, and a disqualified player's own notice his; the
// other players and a later visitor saw a "voided" table or a "(disqualified)" entry with no reason.
function sanctionsList(t, nameOf) {
  const sanctions = t.sanctions || [];
  if (!sanctions.length) return null;
  const tableOf = (matchId) => {
    for (const [r, round] of (t.rounds || []).entries()) {
      const i = round.tables.findIndex((table) => table.match_id === matchId);
      if (i >= 0) return `round ${round.number ?? r + 1}, table ${i + 1}`;
    }
    return "a table";
  };
  return [h("h2", {}, "Sanctions"), h("ol", { class: "list", id: "sanction-list" }, sanctions.map((sanction) =>
    h("li", { "data-number": sanction.number, "data-kind": sanction.kind },
      sanction.kind === "disqualify" ? [nameOf(sanction.player_id), " disqualified"]
        : sanction.kind === "void" ? `${tableOf(sanction.match_id)} void` : sanction.kind,
      sanction.reason ? [": \u201c", h("bdi", {}, sanction.reason), "\u201d"] : " (no reason given)",
      // Each named for its sanction, the new tab said (every one read "what it changed (JSON)": a probe).
      " · ", h("a", { href: `/tournaments/${t.id}/sanctions/${sanction.number}`, target: "_blank", rel: "noopener" },
        `what sanction ${sanction.number} changed (JSON, a new tab)`))))];
}

// An organiser's action, already confirmed: sent with its control disabled meanwhile; refused, the API's
// words are shown in the organiser's box (brought into view: the control may be far down the rounds) and
// nothing is redrawn (the focus goes back to the control); done, the page is read again and the focus goes
// to the note saying what changed (the control pressed is gone with what it acted on).
function organiserRun(org, control, work) {
  return busy(control, (release) => attempt(org.error, async () => {
    fill(org.note);
    const said = await work();
    release();
    const note = h("p", { class: "notice", id: "organiser-done", role: "status", tabindex: -1 }, said);
    fill(org.note, note);
    await org.after();
    note.focus({ preventScroll: true });
    note.scrollIntoView({ block: "nearest" }); // the organiser's box is at the top, the control may be far below
  })).then(() => { if (org.error.firstChild) org.error.scrollIntoView({ block: "nearest" }); });
}

// The reason of a sanction (its players read it), asked first; null: the organiser thought better of it.
// A prompt, not a field on the page: the page is drawn again at each version of the tournament, a half-typed reason lost.
const askReason = (what) => {
  const reason = prompt(`${what}\n\nThe reason (its players read it; empty for none):`, "");
  return reason === null ? null : reason.trim();
};

// "Void…" beside a table's match: it then scores nothing for anybody and counts for no tie-break and no
// rating; a match still played stops. A sanction is an event, never undone.
function voidControl(org, round, r, table, i) {
  const where = tableWhere(round, r, table, i);
  return h("button", { type: "button", class: "small organiser", id: `void-${table.match_id}`, "aria-label": `Void ${where}…`,
    onclick: (event) => {
      const control = event.currentTarget;
      const reason = askReason(`Void ${where}?`);
      if (reason === null || !confirm(`Void ${where}${reason ? ` ("${reason}")` : ""}? It scores nothing for anybody and counts for `
        + `no rating${table.result ? "" : "; its match stops now"}. A void is not undone.`)) return;
      organiserRun(org, control, async () => {
        const view = await post(`/tournaments/${org.t.id}/sanctions`, { kind: "void", match_id: table.match_id, reason });
        return [`${where[0].toUpperCase()}${where.slice(1)} is void: it scores nothing for anybody.`, sanctionReport(org.t.id, view)];
      });
    } }, "Void…");
}

// "Disqualify…" and "Withdraw…" in a standings row. Disqualified, a player is listed last without a rank
// (a sanction, with its reason and report); withdrawn, not paired again, past results standing (no
// reason: the API takes none). Either way a table the player sits at now is resigned.
function playerControls(org, row) {
  const { t } = org;
  const name = row.name || "this player";
  const controls = [];
  // Not on the organiser's own row: he withdraws (a probe disqualified the organiser herself by mistake).
  if (["active", "finished"].includes(t.status) && ["registered", "withdrawn"].includes(row.status || "registered")
      && row.player_id !== identity.player()?.id)
    controls.push(h("button", { type: "button", class: "small organiser", id: `disqualify-${row.player_id}`, "aria-label": `Disqualify ${name}…`,
      onclick: (event) => {
        const control = event.currentTarget;
        const reason = askReason(`Disqualify ${name}?`);
        if (reason === null || !confirm(`Disqualify ${name}${reason ? ` ("${reason}")` : ""}? They are not paired again and are listed `
          + `last without a rank; a table they play now is resigned.${byeNote(t, row.player_id)} A disqualification is not undone.`)) return;
        organiserRun(org, control, async () => {
          const view = await post(`/tournaments/${t.id}/sanctions`, { kind: "disqualify", player_id: row.player_id, reason });
          return [named(name), " is disqualified: not paired again, listed last without a rank.", sanctionReport(t.id, view)];
        });
      } }, "Disqualify…"));
  if (["open", "active"].includes(t.status) && (row.status || "registered") === "registered" && row.player_id !== identity.player()?.id)
    controls.push(h("button", { type: "button", class: "small organiser", id: `withdraw-${row.player_id}`, "aria-label": `Withdraw ${name}…`,
      onclick: (event) => {
        const control = event.currentTarget;
        if (!confirm(t.status === "open" ? `Withdraw ${name} from this tournament?`
          : `Withdraw ${name} from this tournament? They are not paired again (past results stand), and a table they play now is resigned.`
            + byeNote(t, row.player_id))) return;
        organiserRun(org, control, async () => {
          await remove(`/tournaments/${t.id}/players/${encodeURIComponent(row.player_id)}`);
          return [named(name), t.status === "open" ? " is withdrawn from this tournament." : " is withdrawn: not paired again; past results stand."];
        });
      } }, "Withdraw…"));
  return controls;
}

// "Forfeit absent…" beside an unsettled table of the round being played, once its deadline has passed:
// a small form of the table's players, the absent ticked; they share the table's last place, the
// players present its first. The form's state (open, who is ticked) is the page's (org.forfeiting:
// match id -> the ticked player ids), so a redraw while it is filled in draws it again as it was.
function forfeitControls(org, round, r, table, i) {
  const matchId = table.match_id;
  const where = tableWhere(round, r, table, i);
  const nameOf = (player) => (org.names.has(player) ? org.names.get(player) : "someone");
  // A player of the table withdrawn or disqualified during it resigned its match: not present, never
  // ticked, and below the absent (docs/tournaments.md). Counted as present, the confirmation promised the
  // others a shared first place the API does not give when nobody else is there (a review).
  const gone = (player) => (org.statuses.get(player) || "registered") !== "registered";
  const close = (control) => {
    org.forfeiting.delete(matchId);
    document.getElementById(`forfeit-form-${matchId}`)?.remove();
    control?.setAttribute("aria-expanded", "false");
    control?.focus({ preventScroll: true });
  };
  const form = () => {
    const ticked = org.forfeiting.get(matchId);
    const submit = h("button", { type: "submit", id: `forfeit-submit-${matchId}` }, "Record forfeits");
    const box = h("form", { class: "controls forfeit", id: `forfeit-form-${matchId}`, "aria-label": `Forfeit absent players of ${where}`,
      onsubmit: (event) => {
        event.preventDefault();
        // A player ticked, then gone (withdrawn meanwhile, here or elsewhere) is no longer absent: never sent
        // (the API refuses him, and his box, disabled, could not be unticked; a review).
        const absent = table.players.filter((player) => ticked.has(player) && !gone(player));
        if (!absent.length) {  // said beside the form, where the person looks (the organiser's box is at the top)
          fill(org.error, problemBox(new Error("Tick the absent players of the table first.")));
          org.error.scrollIntoView({ block: "nearest" });
          return;
        }
        const who = absent.map(nameOf).join(", ");
        const present = table.players.some((player) => !ticked.has(player) && !gone(player));
        if (!confirm(`Forfeit ${who} at ${where}? ${present ? "They share its last place, the players present its first."
          : "Nobody is present: everyone takes its last place."} The round then goes on.`)) return;
        organiserRun(org, submit, async () => {
          // The table's match named: the round may have ended while the form was open, and without it the
          // API forfeits the players at their table of the round now being played (a 409 instead).
          await post(`/tournaments/${org.t.id}/forfeits`, { player_ids: absent, match_id: matchId });
          org.forfeiting.delete(matchId);
          return [`Forfeit recorded at ${where}: `, absent.map((player, k) => [k ? ", " : "", named(nameOf(player))]), " forfeited."];
        });
      },
      // Escape closes it, as Cancel does.
      onkeydown: (event) => { if (event.key === "Escape") { event.preventDefault(); close(document.getElementById(`forfeit-${matchId}`)); } } },
    h("span", {}, "Absent:"),
    table.players.map((player) => h("label", {}, h("input", { type: "checkbox", id: `forfeit-${matchId}-${player}`, value: player,
      checked: ticked.has(player) && !gone(player), disabled: gone(player),
      onchange: (event) => (event.currentTarget.checked ? ticked.add(player) : ticked.delete(player)) }),
    " ", named(nameOf(player)), gone(player) ? ` (${org.statuses.get(player)}: not present)` : "")),
    submit,
    h("button", { type: "button", id: `forfeit-cancel-${matchId}`, onclick: () => close(document.getElementById(`forfeit-${matchId}`)) },
      "Cancel"));
    return box;
  };
  const open = h("button", { type: "button", class: "small organiser", id: `forfeit-${matchId}`, "aria-label": `Forfeit absent players of ${where}…`,
    "aria-expanded": org.forfeiting.has(matchId) ? "true" : "false",
    onclick: (event) => {
      const control = event.currentTarget;
      if (org.forfeiting.has(matchId)) return document.getElementById(`forfeit-form-${matchId}`)?.querySelector("input:enabled")?.focus();
      org.forfeiting.set(matchId, new Set());
      control.setAttribute("aria-expanded", "true");
      const drawn = form();
      control.after(drawn);
      return drawn.querySelector("input:enabled")?.focus();
    } }, "Forfeit absent…");
  return [open, org.forfeiting.has(matchId) ? form() : null];
}

// The organiser's controls beside a table: Void… (a table with a match, not void yet, while the
// tournament runs or after), Forfeit absent… (see forfeitControls).
function tableControls(org, round, r, table, i, current) {
  const { t } = org;
  const controls = [];
  // An organiser who plays does not judge a table he sits at (the API refuses it, 403): the page offered
  // Void… and Forfeit absent… there, asked a reason and a confirmation, and only then said no (a probe).
  if ((table.players || []).includes(identity.player()?.id)) return controls;
  if (table.match_id && ["active", "finished"].includes(t.status) && table.result?.how !== "void")
    controls.push(" ", voidControl(org, round, r, table, i));
  if (round === current && table.match_id && !table.result && deadlinePassed(round.deadline))
    controls.push(" ", forfeitControls(org, round, r, table, i));
  return controls;
}

// The terms a player enters under (a probe: the page said only the game, format, rounds and table size):
// points by place, a bye's, tie-breaks, rated, computers, the turn limit and the round deadline.
// A deadline as set: rounded to whole minutes, one of 1 s read "0 min" (a cheater's probe forfeited the
// honest players 1.2 s after the start).
const minutesAndSeconds = (seconds) => {
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds - minutes * 60);
  return [minutes ? `${minutes} min` : "", rest || !minutes ? `${rest} s` : ""].filter(Boolean).join(" ");
};
function tournamentTerms(t) {
  const parts = [`points by place ${(t.points || []).join("/")}`, `a bye ${plural(t.bye_points ?? 0, "point")}`];
  if ((t.tie_breaks || []).length) parts.push(`tie-breaks ${t.tie_breaks.map((k) => k.replace(/-/g, " ")).join(", ")}`);
  parts.push(t.rated ? "rated" : "not rated");
  parts.push(t.computer ? `computers (${t.computer}) fill the tables` : "byes, no computers");
  if (t.turn_limit) parts.push(`turn limit ${t.turn_limit.seconds} s`);
  if (t.round_deadline_seconds) parts.push(`round deadline ${minutesAndSeconds(t.round_deadline_seconds)}`);
  return parts.join(" · ");
}

// A finished tournament's page reads it this often: only its organiser's sanctions change it then.
const FINISHED_READ_SECONDS = 30;

// A tournament page's reads, slow: only while its stream (which pushes every version) is refused or broken.
const TOURNAMENT_READ_SECONDS = 10;

// A standings row's tie-breaks in the order the organiser chose them (the order they rank by): the API's
// object lists them in a fixed order, and "opponents points 9 · wins 2" above "opponents points 13 · wins 1"
// looked wrong where wins came first (an organiser's probe). A player with no table played yet has no
// average place: a dash, not "null".
function tieBreaksText(t, row) {
  const values = row.tie_breaks || {};
  const order = [...(t.tie_breaks || []), ...Object.keys(values).filter((k) => !(t.tie_breaks || []).includes(k))];
  return order.filter((k) => k in values).map((k) => `${k.replace(/-/g, " ")} ${values[k] ?? "–"}`).join(" · ");
}

async function tournament(id) {
  const show = screen();
  const head = h("div");
  const actionsBox = h("div");
  const actionsError = h("div", { id: "tournament-error" });
  const standingsBox = h("div", { id: "standings" });
  const roundsBox = h("div", { id: "rounds" });
  const sanctionsBox = h("div", { id: "sanctions" });
  const byeBox = h("div");
  // Its status line: what changed, as the table's says it (entries, the start, a round paired, the viewer's
  // table ready, the end), and what Register or Start did; the page changed silently, the focus left on
  // Withdraw after Start.
  const newsLine = h("p", { id: "tournament-announce", class: "announce", role: "status" });
  const tellNews = announcer(newsLine);
  // The organiser's box: what their last action changed (a note, with a sanction's report), or the API's
  // refusal of it. Empty for anybody else.
  const organiserNote = h("div");
  const organiserError = h("div", { id: "organiser-error" });
  const organiserBox = h("div", { id: "organiser" }, organiserNote, organiserError);
  const forfeiting = new Map(); // the organiser's open forfeit forms: match id -> the players ticked absent
  let deadlineCheck = null; // the organiser's wait for the round's deadline (then Forfeit absent… is drawn)
  leaving.push(() => clearTimeout(deadlineCheck));
  let acted = false; // one of the actions was just pressed (and disabled meanwhile): focus goes to the new ones
  let shown = null; // the version drawn, { t, standings, pushed }: read, or pushed by the tournament's stream
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  // Draws a version of the tournament with its standings' items. One older than drawn (a read sent before
  // the stream's last push, answered after it) draws the newest instead, never going back; the stream's
  // push of what is drawn already (its first, at the version the page read) is not drawn again.
  const draw = (t, standings, pushed = false) => {
    if (shown && (t.version < shown.t.version || (pushed && t.version === shown.t.version && same(standings, shown.standings)))) {
      if (pushed) return shown.t;
      ({ t, standings } = shown);
    }
    // A read of the version a push drew keeps the push's standings: the stream's are the version's own
    // (computed with it), while a read takes the standings first and the tournament after, so a version
    // made between the two (or a read model behind: fresh() waits 5 s at most) paired it with older ones.
    const keptPush = !pushed && shown?.pushed && t.version === shown.t.version;
    if (keptPush) standings = shown.standings;
    const before = shown?.t; // what the status line compares the new version with
    shown = { t, standings, pushed: pushed || keptPush };
    // The focus on the heading or on the notice of the viewer's entry (where an action that took every
    // button away put it) is put back once they are drawn anew: a version read and then pushed (or the
    // other way round) drew them twice, and the second draw left the focus on the page's body.
    const held = document.activeElement;
    const heldId = held && held.id && [head, byeBox].some((box) => box.contains(held)) ? held.id : "";
    const status = t.status;
    // tabindex -1: focus may be put on it (an action pressed took every button away), never reached by Tab.
    fill(head, h("h1", { id: "tournament-title", tabindex: -1 }, h("bdi", { class: "title" }, t.name), " ", h("span", { class: `status ${status}`, id: "tournament-status" }, status)),
      h("p", { class: "muted" }, `${titleOf(t.game)} · ${t.format} · ${plural(t.rounds_planned, "round")} at tables of ${t.table_size}`),
      h("p", { class: "muted", id: "tournament-terms" }, tournamentTerms(t)));
    // Drawn again at each version (read or pushed): the focus on one of its buttons (just pressed) goes to the first new one;
    // on one not pressed (a keyboard user passing it as another client's change is pushed), to that button again.
    const focused = acted || actionsBox.contains(document.activeElement);
    const passing = !acted && focused && document.activeElement.id ? document.activeElement.id : "";
    acted = false;
    fill(actionsBox, tournamentActions(t, actionsError, () => { acted = true; return reread(); }));
    // An entry no longer in play (the API's row status: "withdrawn", "disqualified"; "registered" is
    // in play) is marked beside its name, while the tournament runs and after.
    const entryStatus = (row) => (row.status && row.status !== "registered"
      ? [" ", h("span", { class: "muted entry-status", "data-status": row.status }, `(${row.status})`)] : null);
    // Who plays at each table: its players by name (the standings name every entrant).
    const names = new Map(standings.map((row) => [row.player_id, row.name]));
    const statuses = new Map(standings.map((row) => [row.player_id, row.status || "registered"]));
    // The organiser's controls (organiserOf): a column of the standings, and beside the tables.
    const current = t.status === "active" ? t.rounds[t.rounds.length - 1] : null;
    const organiser = organiserOf(t);
    const org = organiser ? { t, names, statuses, note: organiserNote, error: organiserError, forfeiting, after: () => reread() } : null;
    if (!organiser) { fill(organiserNote); fill(organiserError); forfeiting.clear(); }
    // A forfeit form stays open only while its table may still be forfeited.
    for (const matchId of [...forfeiting.keys()])
      if (!current || !current.tables.some((table) => table.match_id === matchId && !table.result)) forfeiting.delete(matchId);
    // Drawn again at each version (read or pushed): a control of the standings or rounds that had the focus (an organiser's
    // Void…, a tick box of a forfeit form) has it again once drawn anew, not the page's body.
    const kept = focusMark([standingsBox, roundsBox, byeBox, sanctionsBox]);
    fill(standingsBox, scrolling(h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, ["rank", "player", "points", "tie-breaks"].map((x) => h("th", {}, x)),
        organiser ? quietHeader("the organiser's actions") : null)),
      // A row without a rank (a disqualified player; every row of a called-off tournament) shows a dash.
      h("tbody", {}, standings.map((row) => h("tr", { "data-status": row.status || null }, h("td", { class: "rank" }, row.rank ?? "–"),
        h("td", {}, h("a", { href: `#/player/${row.player_id}/${t.game}` }, named(row.name)), entryStatus(row)), h("td", {}, row.points),
        h("td", {}, tieBreaksText(t, row)),
        organiser ? h("td", { class: "row-actions" }, playerControls(org, row)) : null))))));
    const nameOf = (player) => (names.has(player) ? named(names.get(player)) : "someone");
    // A table's players, then its computers (a computer that came first was nowhere on the page).
    const who = (table) => [(table.players || []).map((player, i) => [i ? ", " : "", nameOf(player)]),
      table.computers ? `, ${plural(table.computers, "computer")}` : ""];
    // A table's places once it has a result (its players' ranks; a computer's place is not listed): each
    // table read only "finished", and an organiser opened every replay to follow the evening.
    const places = (table) => (table.result?.ranks ? h("span", { class: "table-places" }, " · places: ",
      (table.players || []).map((player, k) => [k ? ", " : "", nameOf(player), ` ${table.result.ranks[k] ?? "–"}`])) : null);
    // A table the viewer sits at opens as their seat; any other as a spectator.
    const me = identity.key() ? identity.player()?.id : null;
    const tableLink = (table) => (me && (table.players || []).includes(me) ? `#/match/${table.match_id}` : `#/match/${table.match_id}?as=spectator`);
    // A round's byes (round.byes: the players who sit it out, scoring its bye points) after its tables;
    // the viewer's own bye said to them, here and above the standings for the round being played.
    const byesOf = (round) => round.byes || [];
    const byeItem = (round) => (byesOf(round).length ? h("li", { class: "byes" }, "bye: ",
      byesOf(round).map((player, i) => [i ? ", " : "", player === me ? h("b", { class: "your-bye" }, names.has(player) ? named(names.get(player)) : "you", " (you sit this round out)")
        : names.has(player) ? named(names.get(player)) : "someone"])) : null);
    // The round's deadline, to everyone (after it the organiser may forfeit absent players: a player was
    // not shown it, a newcomer probe); the organiser's page says when forfeits may begin.
    const deadlineOf = (round) => (round === current && round.deadline
      ? h("p", { class: "muted round-deadline", id: "round-deadline" }, !organiser
        ? [deadlineNode(round.deadline, "Round deadline"),
          " (after it, the organiser may forfeit players absent from an unfinished table)"]
        : deadlinePassed(round.deadline)
          ? "The round's deadline has passed: the absent players of an unfinished table may be forfeited."
          : deadlineNode(round.deadline, "deadline")) : null);
    fill(roundsBox, ...t.rounds.map((round, r) => h("section", { "data-round": round.number ?? r + 1 }, h("h3", {}, `Round ${round.number ?? r + 1}`),
      deadlineOf(round),
      h("ul", { class: "list" }, round.tables.map((table, i) => h("li", {}, `table ${i + 1}`, (table.players || []).length ? [" (", who(table), ")"] : "", ": ",
        table.match_id ? h("a", { href: tableLink(table) },
          // forfeited: the table's result is the organiser's (its match may play on, computers in the absent seats)
          !table.result ? "playing" : table.result.how === "void" ? "voided" : table.result.how === "forfeit" ? "forfeited" : "finished") : "bye",
        places(table), table.match_id ? [" · ", h("a", { href: `#/replay/${table.match_id}` }, "replay")] : null,
        organiser ? tableControls(org, round, r, table, i, current) : null)), byeItem(round)))));
    // The organiser's page waits for the round's deadline (on the server's clock, as deadlinePassed), then
    // is drawn again: Forfeit absent… appears as the API starts taking forfeits, no reload needed.
    clearTimeout(deadlineCheck);
    deadlineCheck = null;
    // Drawn from what it holds: the tournament does not change at the deadline, so there is nothing to read.
    if (organiser && current?.deadline && !deadlinePassed(current.deadline)) {
      const wait = () => {
        if (!show.live()) return; // the page left (a draw in flight as it did must not keep waiting)
        deadlineCheck = deadlinePassed(current.deadline) ? null : setTimeout(wait, 1000);
        if (deadlineCheck === null) draw(shown.t, shown.standings);
      };
      deadlineCheck = setTimeout(wait, 1000);
    }
    const round = current ? current.number ?? t.rounds.length : null;
    // The viewer's table of the round being played, while it is played: a link to it above the standings
    // (a phone probe: the status line said "Your table is ready" as text, the link was far below).
    const yourTable = (playing, number) => {
      const index = playing && me ? playing.tables.findIndex((table) => (table.players || []).includes(me)) : -1;
      const table = index >= 0 ? playing.tables[index] : null;
      if (!table?.match_id || table.result) return null;
      const others = table.players.filter((player) => player !== me).map(nameOf);
      return h("p", { class: "notice", id: "your-table" }, `Round ${number}: `,
        h("a", { href: `#/match/${table.match_id}` }, `play your table (table ${index + 1})`),
        others.length ? [", with ", others.map((name, k) => [k ? ", " : "", name])] : null,
        table.computers ? `, ${plural(table.computers, "computer")}` : null, ".");
    };
    // The viewer's own entry once it is out of play (withdrawn by themselves or the organiser, or
    // disqualified): said so above the standings, instead of a bye's "next table" that never comes.
    // While the tournament is open a withdrawn player may register again (the count beside Register).
    const mine = me ? (t.players || []).find((p) => p.player_id === me) : null;
    const out = t.status !== "open" && mine && mine.status !== "registered" ? mine.status : null;
    fill(byeBox, out
      ? h("p", { class: "notice", id: "your-bye", role: "status", tabindex: -1, "data-status": out },
        out === "withdrawn" ? "You are withdrawn from this tournament: you are not paired again."
          : out === "disqualified" ? ["You were disqualified from this tournament: you are not paired again.",
            disqualifiedFor(t, me)]
            : `Your entry is ${out}: you are not paired again.`)
      : current && me && byesOf(current).includes(me)
        ? h("p", { class: "notice", id: "your-bye", role: "status" },
          `You have a bye in round ${round}: you sit it out and score its bye points. Your next table comes with the next round.`)
        : yourTable(current, round));
    fill(sanctionsBox, sanctionsList(t, nameOf));
    focusBack(kept, head.querySelector("h1"));
    // Drawn again at each version (read or pushed): the focus on one of its buttons (just pressed) goes to the first new one,
    // or, when none is left (a withdrawal while it runs), to the notice saying so, else the heading.
    if (focused) ((passing && actionsBox.querySelector(`#${passing}`)) || actionsBox.querySelector("button")
      || byeBox.querySelector("#your-bye[tabindex]") || head.querySelector("h1"))
      ?.focus({ preventScroll: true });
    else if (heldId && document.activeElement !== held) document.getElementById(heldId)?.focus({ preventScroll: true });
    if (before && t.version > before.version) tellNews(tournamentNews(before, t, me));
    return t;
  };
  // The standings first, the tournament after: read side by side, the tournament could be read before
  // the last table's result reached it while the standings (read later, after /health) say finished.
  const read = async () => {
    const standings = await fresh(`/tournaments/${id}/standings`);
    return draw(await get(`/tournaments/${id}`), standings.items);
  };
  await games();
  const t = await read();
  if (!show.live()) return;
  show.titled(`${t.name}: tournament`);
  show(head, newsLine, actionsBox, actionsError, organiserBox, byeBox, h("h2", {}, "Standings"), standingsBox, h("h2", {}, "Rounds"), roundsBox,
    sanctionsBox);
  // Live: the tournament's own stream (GET /tournaments/{id}/stream, docs/tournaments.md) pushes each new
  // version with its standings, whoever made it (a player registering or withdrawing, the start, the round
  // keeper pairing a round, a table's result, a forfeit, another tab's sanction): drawn as it comes,
  // nothing read. One stream of the client's 4 (api/rates.py), where the page once followed up to 3 of
  // its tables' streams and still read the tournament every few seconds (and the organiser's all along).
  // While it is refused or broken (the client's 4 held elsewhere, the server away; follow() tries it
  // again by itself), and until it is first answered, the tournament is read every
  // TOURNAMENT_READ_SECONDS. An action pressed here reads it at once (its button stays disabled until it
  // is drawn again). A finished tournament opens no stream and is not read again; the stream ends with it.
  const finished = (tour) => tour.status === "finished" || tour.status === "cancelled";
  const over = () => finished(shown.t);
  let live = false; // the stream is answered now
  let later = null; // the next read while it is not
  let stopStream = () => {};
  leaving.push(() => clearTimeout(later));
  const ended = () => {
    if (!over()) return;
    stopStream();
    clearTimeout(later);
    later = null;
  };
  // A failed read (the server away) leaves what is drawn: the stream, or the next read, tells.
  const reread = () => read().then(ended, () => {});
  const readLater = () => {
    if (later !== null || live || over() || !show.live()) return;
    later = setTimeout(() => {
      later = null;
      if (show.live() && !live && !over()) reread().then(readLater);
    }, TOURNAMENT_READ_SECONDS * 1000);
  };
  // A finished tournament still changes by its organiser's sanctions (a void re-scores the standings):
  // read every FINISHED_READ_SECONDS while shown, where it was never read again (a web organiser's probe:
  // a spectator never saw a void after the end). A cancelled one never changes.
  let settledRead = null;
  leaving.push(() => clearTimeout(settledRead));
  const readFinished = () => {
    if (!show.live() || shown.t.status !== "finished") return;
    clearTimeout(settledRead);
    settledRead = setTimeout(() => read().then(readFinished, readFinished), FINISHED_READ_SECONDS * 1000);
  };
  if (finished(t)) return readFinished();
  stopStream = follow(`/tournaments/${id}/stream?seconds=300`, (name, pushed) => {
    if (name !== "tournament" || !pushed?.tournament) return undefined;
    draw(pushed.tournament, pushed.standings || [], true);
    if (!over()) return undefined;
    clearTimeout(later); // finished: the server ends the stream, and a reconnection would find nothing new
    later = null;
    readFinished();
    return "stop";
  // With the viewer's key where the page has one: a signed-in viewer's stream counts against their own 4,
  // not their address's (several people behind one address, each a tab of the tournament).
  }, { key: identity.key() || undefined, anonymous: !identity.key(),
    onState: (state) => {
      live = state === "live" || state === "ended"; // ended: over, and its last version drawn: nothing to read
      if (!live) return readLater();
      clearTimeout(later);
      later = null;
      return undefined;
    },
    // Refused for good (a 4xx but 429: follow() tries no more): the timer reads from now on.
    onError: () => { live = false; readLater(); } });
  leaving.push(stopStream);
  readLater();
}

// -- the keyboard in what the views draw ------------------------------------------------------------

// A control inside a box that scrolls sideways (the organiser's Disqualify… at the end of a standings row,
// on a phone) is scrolled into the box's view as it takes the focus: Chromium left it half cut off, its
// focus ring with it. Only the box scrolls, not the document.
view.addEventListener("focusin", (event) => {
  const box = event.target.closest?.(".scroll-x");
  if (!box || box === event.target) return;
  const left = box.getBoundingClientRect().left + box.clientLeft;
  const right = left + box.clientWidth;
  const { left: from, right: to } = event.target.getBoundingClientRect();
  const margin = 4; // the focus ring drawn outside the control
  if (from < left + margin || to - from > box.clientWidth) box.scrollLeft -= left + margin - from;
  else if (to > right - margin) box.scrollLeft += to - (right - margin);
});

// -- the router ----------------------------------------------------------------------------------
const ROUTES = [
  [/^#\/match\/([^/?]+)$/, (m, params) => table(m[1], params)],
  [/^#\/replay\/([^/?]+)$/, (m, params) => replay(m[1], params)],
  [/^#\/join\/([^/?]+)\/([^/?]+)$/, (m) => joinLink(m[1], decodeURIComponent(m[2]))],
  [/^#\/join\/([^/?]+)$/, (m) => joinLink(m[1], null)], // the lobby's join: a listed match, its terms first
  [/^#\/leaderboard\/([^/?]+)$/, (m, params) => leaderboard(m[1], params)],
  [/^#\/player\/([^/?]+)(?:\/([^/?]+))?$/, (m) => player(m[1], m[2])],
  [/^#\/tournaments$/, (m, params) => tournaments(params)],
  [/^#\/tournament\/([^/?]+)$/, (m) => tournament(m[1])],
  [/^.*$/, () => lobby()],
];

// The address the view shows (or is being drawn for).
let routed = null;

async function route(placing = true) {
  const ticket = ++routeTicket;
  leaving.forEach((stop) => stop());
  leaving = [];
  // The focus was in the view (or waits on it): once drawn, the view's heading takes it. A route the
  // hashchange handler runs is placed by the handler (a pager's Next kept); any other (another tab's
  // sign-in drawing the same address anew, the server back) left it on the body or on the view (probes).
  const held = view.contains(document.activeElement);
  // Another address: the view left is taken down at once, not kept until the new one is drawn (a read
  // or two later). Kept, it could still be used meanwhile: its form filled and sent, its Next pressed,
  // its words read as the new view's (a browser test filled the tournaments list's old form, which the
  // list drawn a moment later replaced, empty). The same address drawn again (another key, the server
  // back) keeps it until then.
  const address = location.hash.length > 1 ? location.hash : "#/"; // "", "#" and "#/": the lobby
  if (address !== routed) {
    routed = address;
    // The focus in the view taken down waits on the view itself (it fell to the page's body until the new
    // view's heading took it: a probe after Create and Fork); the hashchange handler places it after.
    view.replaceChildren();
    view.setAttribute("aria-busy", "true");
    document.title = "Loading… · Motley"; // not the view left's name meanwhile
    if (held) {
      view.setAttribute("tabindex", "-1");
      view.focus({ preventScroll: true });
    }
  }
  const [path, query] = (location.hash || "#/").split("?");
  const params = new URLSearchParams(query || "");
  for (const [pattern, open] of ROUTES) {
    const m = pattern.exec(path);
    if (!m) continue;
    try {
      await open(m, params);
    } catch (error) {
      if (ticket === routeTicket) {
        show(problemBox(error));
        // The server away (no answer at all): opened again every few seconds until it answers (a table
        // opened then stayed an error until a reload); another route or a leave stops it.
        if (error instanceof Problem && error.problem.status === 0) {
          const again = setTimeout(() => { if (ticket === routeTicket) route(); }, POLL_SECONDS * 1000);
          leaving.push(() => clearTimeout(again));
        }
      }
    } finally {
      if (ticket === routeTicket) {
        view.removeAttribute("aria-busy");
        const active = document.activeElement;
        if (placing && held && (!active || active === document.body || active === view)) focusHeading();
      }
    }
    return;
  }
}

// A navigation (a link followed, a fork, a match created) draws a new page over the control that had the
// focus, which falls to the page's body: a keyboard or screen-reader user starts again from the top.
// The new page's heading takes it instead (focusable from script only, as the table's own heading).
// A control that changed the hash and is drawn again on the new page (the leaderboard's game picker, its
// Next and Previous) keeps the focus, so a keyboard user steps on from it.
// A link of the header (Lobby, Leaderboards, Tournaments, the player's name) keeps the focus, the view
// changed under it unsaid: the new view's heading takes it too.
// The view's heading takes the focus (focusable from script only, as the table's own heading).
function focusHeading() {
  const heading = view.querySelector("h1");
  if (!heading) return;
  if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  heading.focus({ preventScroll: true });
}

window.addEventListener("hashchange", async () => {
  // (the view itself, where the focus waits while a view is drawn, is no control to go back to: a second
  // address while the first was drawn left the focus there)
  const from = document.activeElement === view ? "" : document.activeElement?.id || "";
  await route(false);
  const active = document.activeElement;
  const header = active?.matches?.("header a");
  if (active && active !== document.body && active !== document.documentElement && active !== view && !header) return; // placed already
  const again = from ? document.getElementById(from) : null;
  // (brought into sight: the new view is drawn from its top, a leaderboard's Next at its foot)
  if (again && view.contains(again)) return again.focus();
  focusHeading();
});
// Another tab changed who this browser is: this one shows (and acts as) that identity at once, so no
// screen naming one player sends another's key.
identity.onChange(() => { renderMe(); route(); });
// The server refused the key this tab held (revoked, or replaced in another browser): api.js forgot it;
// the page is drawn again signed out (its streams and re-reads with the dead key stopped), saying why.
identity.onRefused((player) => { forgetPlayerData(player?.id); renderMe(); route(); });
// The skip link, the first stop of Tab: past the header's links (and, at a table, its lifecycle buttons:
// twelve stops and Resign before the first move, a web-play probe) to the person's first move where
// there is one, else the view's heading. The hash is the router's: the link's own "#view" is not followed.
document.getElementById("skip")?.addEventListener("click", (event) => {
  event.preventDefault();
  const target = view.querySelector("#actions button.action:enabled") || view.querySelector("h1") || view;
  if (!target.matches("button, a[href]") && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus();
});
setInterval(() => tickDeadlines(view), 250); // every countdown drawn (a timed phase, a turn clock)
renderMe();
route();
