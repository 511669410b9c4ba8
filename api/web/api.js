// The public JSON API, as any integrator calls it: a bearer key, problem documents, server-sent events.

const KEY = "motley.key";
const PLAYER = "motley.player";
const REFUSED = "motley.refused"; // set when the server refused the key held (revoked or replaced): the page says so

// Who the stored key names: a player ({id, name}), or the auditor ({auditor: true}), whose credential
// (MOTLEY_AUDITOR_KEY) names no player: player() is then null, auditor() true.
const stored = () => JSON.parse(localStorage.getItem(PLAYER) || "null");

export const identity = {
  key: () => localStorage.getItem(KEY),
  player: () => {
    const held = stored();
    return held && !held.auditor ? held : null;
  },
  auditor: () => Boolean(localStorage.getItem(KEY) && stored()?.auditor),
  // The key held was refused (and forgotten), and nobody signed in since: the page says why.
  refused: () => Boolean(localStorage.getItem(REFUSED)) && !localStorage.getItem(KEY),
  clearRefused: () => localStorage.removeItem(REFUSED),
  remember(registered) {
    localStorage.removeItem(REFUSED);
    localStorage.setItem(KEY, registered.api_key);
    localStorage.setItem(PLAYER, JSON.stringify({ id: registered.id, name: registered.name }));
  },
  rememberAuditor(key) {
    localStorage.removeItem(REFUSED);
    localStorage.setItem(KEY, key);
    localStorage.setItem(PLAYER, JSON.stringify({ auditor: true, name: "Auditor" }));
  },
  forget() {
    localStorage.removeItem(KEY);
    localStorage.removeItem(PLAYER);
  },
  // A key the server refused (401: revoked, or replaced elsewhere): forgotten, and then() told once (the
  // page redraws signed out and says why).
  onRefused(then) {
    refusedListeners.push(then);
  },
  // Another tab of this browser signed out, registered or signed in (the storage is shared): then(),
  // so that this tab shows and acts as the identity it now holds.
  // The key and the player are written one after the other, each with its own event: then() runs once
  // both have landed.
  onChange(then) {
    let settle = null;
    window.addEventListener("storage", (event) => {
      if (event.key !== null && event.key !== KEY && event.key !== PLAYER) return;
      clearTimeout(settle);
      settle = setTimeout(then, 50);
    });
  },
};

const refusedListeners = [];

// A 401 to a request sent with the key this browser holds now: the key is dead (revoked, or replaced in
// another browser). It is forgotten at once (the next request of the page goes without it) and the page
// told, once: what was sent with another key (a table opened before another tab signed in) says nothing.
function keyRefused(headers, status) {
  if (status !== 401 || !headers.Authorization || headers.Authorization !== `Bearer ${identity.key()}`) return;
  const player = identity.player();
  localStorage.setItem(REFUSED, "1"); // before the key goes: another tab redraws then, and says why too
  identity.forget();
  for (const then of refusedListeners) {
    try {
      then(player);
    } catch {
      // a listener's failure does not keep the others from redrawing
    }
  }
}

// A refusal: the problem document's detail is what a person reads.
export class Problem extends Error {
  constructor(problem) {
    super(problem.detail || problem.title || `HTTP ${problem.status}`);
    this.problem = problem;
  }
}

function uuid() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

// `key`: the key a view was opened with (a table's moves): sent as it is, whatever another tab stored since.
function headersFor(anonymous, key = identity.key()) {
  const headers = { Accept: "application/json" };
  if (key && !anonymous) headers.Authorization = `Bearer ${key}`;
  return headers;
}

// The server's clock, as the answers' Date headers tell it (1 s resolution): deadlines (a timed phase, a
// turn clock) are the server's, and a device whose clock is off would count down to the wrong moment.
// Each answer bounds the offset (server − device): the server wrote its Date, truncated to the second,
// between the request's departure (sent) and the answer's arrival (received), so the offset lies in
// [date − received, date + 1000 − sent]. The bounds of successive answers are intersected (narrower as
// answers come); one that does not overlap them (the device's clock was set meanwhile, or the server's)
// starts the bounds afresh. Of the offsets they allow, the smallest is taken: none at all for a device
// whose clock is right.
const skew = { low: null, high: null };

function heard(date, sent, received) {
  const server = Date.parse(date || "");
  if (!Number.isFinite(server) || !(received >= sent)) return;
  const low = server - received;
  const high = server + 1000 - sent;
  if (skew.low === null || low > skew.high || high < skew.low) Object.assign(skew, { low, high });
  else Object.assign(skew, { low: Math.max(skew.low, low), high: Math.min(skew.high, high) });
}

// The offset (ms) to add to the device's clock to read the server's (0 until an answer has come).
export const clockOffset = () => (skew.low === null ? 0 : Math.min(Math.max(0, skew.low), skew.high));
// Now on the server's clock (ms since the epoch), as well as the answers tell it.
export const serverNow = () => Date.now() + clockOffset();

// call("POST", "/matches", body, {anonymous, key}) -> the answer's JSON, or throws a Problem.
// `contentType`: the body is sent as it is (a string: an export's JSON Lines), not as JSON.
export async function call(method, path, body, { anonymous = false, key, contentType } = {}) {
  const headers = headersFor(anonymous, key === undefined ? identity.key() : key);
  if (body !== undefined) headers["Content-Type"] = contentType || "application/json";
  if (method === "POST") headers["Idempotency-Key"] = uuid(); // a retried click is never applied twice
  const sent = Date.now();
  let answer;
  try {
    answer = await fetch(path, { method, headers, body: body === undefined ? undefined : contentType ? body : JSON.stringify(body) });
  } catch {
    // No answer at all (the network, or the server away): the browser's "Failed to fetch" said nothing.
    throw new Problem({ status: 0, title: "No answer", detail: "The server could not be reached: check your connection and try again." });
  }
  heard(answer.headers.get("Date"), sent, Date.now());
  const text = await answer.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // Not the service's answer (a proxy's error page, HTML): its status says what happened, its markup nothing.
    const kind = answer.status >= 500 ? "The server (or a proxy in front of it) failed" : "The request was refused";
    data = { title: answer.statusText || `HTTP ${answer.status}`, status: answer.status,
             detail: `${kind}: HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ""}. Try again in a moment.` };
  }
  // A key the server no longer takes (revoked, or another server's): sign out, and the page reads on
  // as a spectator instead of showing the refusal on every read.
  keyRefused(headers, answer.status);
  if (!answer.ok) throw new Problem(data || { status: answer.status, title: answer.statusText });
  return data;
}

export const get = (path, options) => call("GET", path, undefined, options);
export const post = (path, body, options) => call("POST", path, body === undefined ? {} : body, options);
export const remove = (path, options) => call("DELETE", path, undefined, options);

// Save what `path` answers as a file, read with the key (a plain link cannot send the Authorization
// header): a Blob handed to a download link, named as the answer's Content-Disposition says.
export async function download(path, { anonymous = false, key, fallbackName = "download" } = {}) {
  const headers = headersFor(anonymous, key === undefined ? identity.key() : key);
  headers.Accept = "*/*";
  let answer;
  try {
    answer = await fetch(path, { headers });
  } catch {
    throw new Problem({ status: 0, title: "No answer", detail: "The server could not be reached: check your connection and try again." });
  }
  keyRefused(headers, answer.status);
  if (!answer.ok) {
    const problem = await answer.json().catch(() => ({ status: answer.status, title: answer.statusText || `HTTP ${answer.status}` }));
    throw new Problem(problem);
  }
  const blob = await answer.blob();
  const disposition = answer.headers.get("Content-Disposition") || "";
  const named = /filename\*=UTF-8''([^;]+)/i.exec(disposition) || /filename="?([^";]+)"?/i.exec(disposition);
  const name = named ? decodeURIComponent(named[1].trim()) : fallbackName;
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement("a"), { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { name, size: blob.size };
}

// Streams and reads that wait (?after=) count against the client's 4 (api/rates.py): when one is refused
// (429, or 503 when the server keeps no slot), every stream of this page waits, longer after each refusal
// in a row (Retry-After, then half as long again each time, up to STREAM_WAIT_MAX seconds), and then one
// tries alone before the others follow: a page with several streams (a tournament's tables) does not
// knock every few seconds with all of them, each knock a refusal in the console.
const STREAM_WAIT_MAX = 30;
const gate = { until: 0, refusals: 0, probing: null, refusedAt: 0 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Whether the streams are being refused now: a read need not wait (?after=) for a slot it will not get.
export const crowded = () => Date.now() < gate.until;

async function throughGate(stopped) {
  for (;;) {
    if (stopped()) return () => {};
    const wait = gate.until - Date.now();
    if (wait > 0) { await sleep(Math.min(wait, 1000)); continue; }
    if (gate.refusals === 0) return () => {};
    if (gate.probing) { await gate.probing; continue; }
    let release;
    gate.probing = new Promise((resolve) => { release = resolve; });
    return () => { gate.probing = null; release(); };
  }
}

// A refusal of a request sent at `sent`: one sent before the last refusal came (the page's streams
// knocking together) says nothing new, and does not lengthen the wait.
function refused(retryAfter, sent = Date.now()) {
  if (sent >= gate.refusedAt || gate.refusals === 0) gate.refusals += 1;
  gate.refusedAt = Date.now();
  const wait = Math.min(STREAM_WAIT_MAX, Math.max(1, retryAfter) * 1.5 ** (gate.refusals - 1));
  gate.until = Math.max(gate.until, Date.now() + wait * 1000);
  return wait;
}

// A waiting read (?after=) refused as a stream is: the streams wait too.
export const heldRefused = (retryAfter, sent) => refused(retryAfter, sent);

// Follow a server-sent event stream. EventSource cannot send an Authorization header, so this reads the
// stream with fetch; when the server ends it (its `seconds`), it reconnects with Last-Event-ID, so no
// event is missed or repeated. onEvent(name, data, id) returning "stop" closes it. Returns a stop().
// onState("live") once the stream is answered; onState("ended") when it is answered 204 (what it follows is
// over and its last id held: not asked again); onState("paused", {retryAfter}) when it is refused (429:
// the client holds its 4 streams or waiting reads already; 503 or another 5xx: the server keeps no slot
// now) or breaks: it is tried again by itself, and the caller reads what it needs meanwhile.
// `since`: the Last-Event-ID to resume from at the first connection; onId(id) is told each id received
// (a position to keep, for the next visit to resume from).
export function follow(path, onEvent, { anonymous = false, key, onError = () => {}, onState = () => {}, since = null, onId = () => {} } = {}) {
  const control = new AbortController();
  let lastId = since;
  let stopped = false;
  let quickEnds = 0; // streams in a row the server ended within a second (a match over: it ends at once)
  const stop = () => {
    stopped = true;
    control.abort();
  };
  (async () => {
    while (!stopped) {
      const headers = { ...headersFor(anonymous, key === undefined ? identity.key() : key), Accept: "text/event-stream" };
      if (lastId !== null) headers["Last-Event-ID"] = lastId;
      let passed = null;
      try {
        passed = await throughGate(() => stopped);
        if (stopped) { passed(); return; }
        const sent = Date.now();
        const answer = await fetch(path, { headers, signal: control.signal });
        heard(answer.headers.get("Date"), sent, Date.now());
        if (answer.status === 429 || answer.status >= 500) {
          // Too many streams held at once (api/rates.py), or no slot for one on the server now: a stream
          // the page left is given back once the server notices (its next heartbeat), so wait as told
          // (longer at each refusal in a row, every stream of the page together: the gate above) and
          // follow on; the caller is told, to say so and to read meanwhile.
          const problem = await answer.json().catch(() => ({}));
          const wait = refused(Number(answer.headers.get("Retry-After")) || problem.retry_after || 1, sent);
          passed();
          passed = null;
          if (stopped) return;
          onState("paused", { retryAfter: wait, problem });
          continue;
        }
        gate.refusals = 0;
        gate.until = 0;
        passed();
        passed = null;
        if (!answer.ok) {
          keyRefused(headers, answer.status); // a dead key: the stream is not tried again with it
          onError(new Problem(await answer.json().catch(() => ({ status: answer.status }))));
          return;
        }
        if (stopped) return;
        // 204: what it follows is over and the last id is held: nothing will ever come (the API's answer
        // that stops a browser's EventSource too), so it is not asked again.
        if (answer.status === 204) { stopped = true; onState("ended"); return; }
        onState("live");
        const opened = Date.now();
        const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n/g, "\n");
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let name = "message", data = "", id = null;
            for (const line of frame.split("\n")) {
              if (line.startsWith(":")) continue; // a heartbeat
              const colon = line.indexOf(":");
              const field = colon < 0 ? line : line.slice(0, colon);
              const val = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
              if (field === "event") name = val;
              else if (field === "data") data += (data ? "\n" : "") + val;
              else if (field === "id") id = val;
            }
            if (id !== null) { lastId = id; onId(id); }
            if (!data) continue;
            let parsed;
            try {
              parsed = JSON.parse(data);
            } catch {
              parsed = data;
            }
            if (onEvent(name, parsed, id) === "stop") {
              stop();
              return;
            }
          }
        }
        // Reopened at once, a stream the server ends at once (a match over that the caller did not stop
        // for) was asked for hundreds of times a second: wait, longer each time, up to half a minute.
        quickEnds = Date.now() - opened < 1000 ? quickEnds + 1 : 0;
        if (quickEnds && !stopped) await new Promise((resolve) => setTimeout(resolve, Math.min(30, 2 ** (quickEnds - 1)) * 1000));
      } catch (error) {
        if (passed) passed();
        if (stopped) return;
        // The connection broke (the network, a proxy, the server going away): paused, tried again.
        onState("paused", { retryAfter: 1, error });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  })();
  return stop;
}
