// Drawing what a viewer sees: a generic renderer for any game's observation, a touch per game, the
// legal actions as labels, and a small inline-SVG chart (no library needed for one line). The other games'
// views live in games/<game>.js (plain ES modules, no build step).
import { serverNow } from "./api.js";
import * as foolsCrown from "./games/fools_crown.js";
import * as jester from "./games/jester.js";
import * as leBouffon from "./games/le_bouffon.js";
import * as tumultRoyale from "./games/tumult_royale.js";

// replaceChildren without the empty slots (a native call would write "null").
export function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A count with its noun, singular or plural as the count wants ("1 card", "0 cards"): the page said
// "0 card(s)", "1 more moves" (a new player's probe). `many`: the plural, where it is not the noun + "s".
export const plural = (count, one, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
const RED = new Set(["D", "H"]);

// Cards written as codes ("AS", "4H", "JK", "10D", ...) become chips; other short strings stay text.
const CARD = /^(10|[2-9AJQKT])([SCDH])$|^JK$/;

export function chip(code, extra = "") {
  const match = CARD.exec(code);
  if (!match) return h("span", { class: `chip ${extra}` }, code);
  if (code === "JK") return h("span", { class: `chip card joker ${extra}`, title: "Joker" }, "Joker");
  const [, rank, suit] = match;
  return h("span", { class: `chip card ${RED.has(suit) ? "red" : "black"} ${extra}`, title: code }, rank + SUITS[suit]);
}

// A card nobody may see yet: drawn as its back, named for a screen reader (a title alone is not read).
export const faceDown = () => h("span", { class: "chip card back", title: "face down", role: "img", "aria-label": "face-down card" }, "\u00a0");

// A wide table scrolls inside its own box: on a phone the document stays as wide as the screen. A box
// that does overflow is reached with Tab (to scroll it with the arrow keys); one that fits is no tab stop.
// A box taken out of the page shrinks to nothing, which tells the observer to let it go.
const overflowing = typeof ResizeObserver === "function" ? new ResizeObserver((entries) => {
  for (const { target } of entries) {
    if (!target.isConnected) { overflowing.unobserve(target); continue; }
    edges(target);
    if (target.scrollWidth > target.clientWidth) tabStop(target);
    else {
      target.removeAttribute("tabindex");
      target.removeAttribute("role");
      target.removeAttribute("aria-label");
    }
  }
}) : null;

// While a box is a Tab stop it is a region named after the heading it sits under and its table's columns:
// a screen reader landed on an unnamed stop (an accessibility probe, WCAG 4.1.2).
function tabStop(box) {
  box.setAttribute("tabindex", "0");
  const heading = [...document.querySelectorAll("h1, h2, h3, h4")]
    .filter((node) => node.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING && node.parentElement.contains(box)).at(-1);
  const columns = [...box.querySelectorAll("thead th")].map((th) => th.textContent.trim()).filter(Boolean);
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", `${heading ? `${headingText(heading)}: ` : ""}${columns.length ? `table of ${columns.join(", ")}` : "table"}, scrolls sideways`);
}

// A heading's words, without the options of a select inside it (the leaderboard's game picker).
function headingText(heading) {
  const copy = heading.cloneNode(true);
  for (const control of copy.querySelectorAll("select, input, button")) control.remove();
  return copy.textContent.replace(/\s+/g, " ").trim();
}

// Which sides of a box hold more of its table out of sight: data-more "left", "right" or both, which
// style.css fades, so a table that scrolls looks cut off where it goes on (a phone probe: nothing showed
// that more columns waited, and a player read the visible ones as the whole table).
function edges(box) {
  const hidden = box.scrollWidth - box.clientWidth;
  const more = [box.scrollLeft > 1 ? "left" : null, hidden - box.scrollLeft > 1 ? "right" : null].filter(Boolean).join(" ");
  if (more) box.dataset.more = more;
  else delete box.dataset.more;
}

export function scrolling(table) {
  const box = h("div", { class: "scroll-x" }, table);
  box.addEventListener("scroll", () => edges(box), { passive: true });
  overflowing?.observe(box);
  return box;
}

// A header cell whose column needs no visible title (actions, marks): named for a screen reader all the same.
export const quietHeader = (text) => h("th", {}, h("span", { class: "visually-hidden" }, text));

// Every seat's hand, once a finished match is revealed (a game's reveal() puts them in `every_hand`):
// drawHand(hand, seat) draws one in the game's own way.
export function everyHand(hands, seats, you, drawHand) {
  if (!Array.isArray(hands)) return null;
  return h("div", { class: "every-hand", id: "every-hand" }, h("h3", {}, "Every hand (revealed)"),
    h("ul", { class: "seatlist" }, hands.map((hand, s) => h("li", { "data-seat": s },
      h("b", {}, seatLabel(seats, s), s === you ? " (you)" : ""), ": ", drawHand(hand, s)))));
}

const label = (key) => key.replace(/_/g, " ");

// Any JSON value, readably: arrays of strings as chips, per-seat arrays named by seat, objects as lists.
export function generic(value, seats = []) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "—");
  if (typeof value === "boolean") return h("span", {}, value ? "yes" : "no");
  if (typeof value === "string" && isBoard(value))
    return h("table", { class: "board" }, value.split("/").map((row) => h("tr", {}, [...row].map((cell) => h("td", {}, cell)))));
  if (typeof value !== "object") return typeof value === "string" ? chip(value) : h("span", {}, String(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return h("span", { class: "muted" }, "none");
    if (value.every((item) => typeof item !== "object" || item === null)) {
      if (value.length === seats.length && value.every((item) => typeof item !== "string"))
        return h("ul", { class: "seatlist" }, value.map((item, i) => h("li", {}, h("b", {}, seatLabel(seats, i)), ": ", generic(item))));
      return h("span", { class: "chips" }, value.map((item) => generic(item)));
    }
    const perSeat = value.length === seats.length;
    return h("ul", { class: "list" }, value.map((item, i) => h("li", {}, perSeat ? h("b", {}, seatLabel(seats, i), ": ") : null, generic(item, seats))));
  }
  return h("dl", { class: "obs" }, Object.entries(value).flatMap(([key, item]) => [h("dt", {}, label(key)),
    h("dd", {}, SEAT_LISTS.has(key) && Array.isArray(item) && item.every(Number.isInteger) && seats.length
      ? seatNames(item, seats) : generic(item, seats))]));
}

// Keys whose value lists seats (not one value per seat): named, as everything beside them is (a result's
// "winners 1" read as a number beside scores and ranks named by player: a web-play probe).
const SEAT_LISTS = new Set(["winners", "resigned", "forfeited"]);
const seatNames = (list, seats) => (list.length ? h("span", {}, list.map((s, i) => [i ? ", " : "", seatLabel(seats, s)]))
  : h("span", { class: "muted" }, "none"));

// A board written as rows joined by "/" (FEN-like, e.g. Tumult Royale's fields): drawn as a grid.
function isBoard(text) {
  const rows = text.split("/");
  return rows.length >= 2 && rows[0].length >= 2 && rows.every((row) => row.length === rows[0].length);
}

// A seat's name; one that another seat shares (two computers of one level, "computer (basic)") says its
// seat number too, so that a screen-reader user tells them apart (the page's rows showed both alike).
export function seatName(seats, i) {
  const seat = seats[i];
  if (!seat || !seat.name) return `seat ${i}`;
  return shared(seats, i) ? `${seat.name} (seat ${i})` : seat.name;
}

const shared = (seats, i) => seats.some((other, j) => j !== i && other?.name === seats[i].name);

// A person's name as a node: isolated from the text around it (a right-to-left name does not reorder
// "ann: place 1" beside it) and wrapped anywhere when it is longer than the line (40 characters unbroken).
export const named = (name) => h("bdi", { class: "name" }, name);

// A seat's name as a node (named), or "seat i" for a seat nobody named.
export function seatLabel(seats, i) {
  const seat = seats[i];
  if (!seat || !seat.name) return `seat ${i}`;
  return shared(seats, i) ? [named(seat.name), ` (seat ${i})`] : named(seat.name);
}

// Jest (docs/rules/jest.md): the hand, each seat's offer (one card up, one down) and Jest (the others': its
// size and the face-up cards it took, `taken_up`), the trophies.
function jest(obs, seats, you) {
  const n = obs.offers.length;
  // Once over, every card is in a Jest (the last offer card joined it: docs/rules/jest.md, the end): the
  // page said "no offer", "empty: both cards offered" and listed three empty hands (a web-play probe).
  const over = obs.phase === "over";
  const rows = [];
  for (let s = 0; s < n; s++) {
    const offer = obs.offers[s];
    let offerView;
    if (offer === null) offerView = h("span", { class: "muted" }, over ? "—" : "no offer");
    else if ("offered" in offer) offerView = offer.offered ? [faceDown(), faceDown()] : h("span", { class: "muted" }, "choosing…");
    else
      offerView = [
        offer.up ? chip(offer.up, "up") : null,
        offer.down === true ? faceDown() : offer.down ? chip(offer.down, "down") : null,
      ];
    const jestCards = obs.jests ? obs.jests[s] : s === you ? obs.jest : null;
    // The face-up cards a seat took are public (the table saw them go into its Jest): shown for a Jest
    // that is not on view, beside its size.
    const takenUp = (obs.taken_up && obs.taken_up[s]) || [];
    rows.push(
      h("tr", { class: obs.to_act.includes(s) ? "acting" : "" },
        h("th", {}, seatLabel(seats, s), s === you ? " (you)" : ""),
        h("td", {}, h("span", { class: "chips" }, offerView)),
        h("td", {}, h("span", { class: "chips" }, jestCards && jestCards.length ? jestCards.map((c) => chip(c))
          : [h("span", { class: "muted" }, plural(obs.jest_counts[s], "card")), takenUp.length
            ? h("span", { class: "chips taken-up", "data-seat": s, role: "img",
              "aria-label": `face-up cards taken: ${takenUp.map((c) => (CARD.test(c) ? cardText(c) : c)).join(", ")}` }, takenUp.map((c) => chip(c)))
            : null])),
        obs.scores ? h("td", {}, obs.scores[s], obs.breakdown?.[s]
          ? h("div", { class: "muted jest-breakdown", "data-seat": s }, jestBreakdownText(obs.breakdown[s])) : null) : null,
      ),
    );
  }
  return h("div", { class: "jest" },
    h("p", {}, `Round ${obs.round} of ${obs.rounds} · phase: ${obs.phase} · deck: ${plural(obs.deck_count, "card")}`),
    obs.hand ? h("div", { class: "hand" }, h("h3", {}, "Your hand"), obs.hand.length
      ? h("span", { class: "chips big" }, obs.hand.map((c) => chip(c)))
      : h("p", { class: "muted" }, over ? "the game is over: every card is in a Jest" : "empty: both cards offered")) : null,
    over && Array.isArray(obs.every_hand) && obs.every_hand.every((hand) => !hand.length) ? null
      : everyHand(obs.every_hand, seats, you, (hand) => (hand.length ? h("span", { class: "chips" }, hand.map((c) => chip(c)))
        : h("span", { class: "muted" }, "empty"))),
    scrolling(h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, "seat"), h("th", {}, "offer"), h("th", {}, "Jest"), obs.scores ? h("th", {}, "score") : null)),
      h("tbody", {}, rows))),
    h("div", { class: "trophies" }, h("h3", {}, obs.phase === "over" ? "Trophies won" : "Trophies"),
      h("ul", { class: "list" }, obs.trophies.map((t) => h("li", { "data-card": t.card }, chip(t.card), " ", t.trophy,
        trophyWinner(obs, t.card, seats, you))))),
  );
}

// What each part of a finished Jest scored (the engine's breakdown, house rule R6): a player read only his
// total. "A♠ +5 · 3♦ −3 · Joker +4 · ♠/♣ pair of 2s +2".
const signed = (points) => (points > 0 ? `+${points}` : points < 0 ? `−${-points}` : "0");
function jestBreakdownText(breakdown) {
  return [...breakdown.cards.map(([card, points]) => `${cardText(card)} ${signed(points)}`),
    breakdown.joker === null || breakdown.joker === undefined ? null : `Joker ${signed(breakdown.joker)}`,
    ...breakdown.pairs.map(([spade]) => `♠/♣ pair of ${spade.slice(0, -1)}s +2`)].filter(Boolean).join(" · ");
}

// A revealed Jest (a finished match: the whole state): the face-down offer cards, every Jest and hand.
// An offer still being chosen stays as the observation says ("choosing…").
function revealJest(obs, state) {
  const offers = state.offers.map((offer, s) => (offer === null || offer === undefined ? obs.offers[s] : { up: offer.up, down: offer.down }));
  return { ...obs, offers, jests: state.jests, every_hand: state.hands };
}

// Who won a trophy, once the final scoring is public (`trophy_winners`: card -> seat, or null when nobody
// met its condition: it stays aside, docs/rules/jest.md R4).
function trophyWinner(obs, card, seats, you) {
  const winners = obs.trophy_winners;
  if (!winners || !(card in winners)) return null;
  const seat = winners[card];
  if (seat === null || seat === undefined)
    return [" — ", h("span", { class: "trophy-winner muted" }, "unclaimed: nobody met its condition")];
  return [" — ", h("span", { class: "trophy-winner", "data-seat": seat }, "won by ", h("b", {}, seatLabel(seats, seat)), seat === you ? " (you)" : "")];
}

const TOUCHES = {
  jest,
  jester: jester.view,
  "fools-crown": foolsCrown.view,
  "tumult-royale": tumultRoyale.view,
  "le-bouffon": leBouffon.view,
};
// What a revealed match's board draws from its whole `state` beyond the viewer's observation, per game:
// reveal(observation, state) -> an observation of the same shape with the hidden parts filled in.
const REVEALS = {
  jest: revealJest,
  jester: jester.reveal,
  "fools-crown": foolsCrown.reveal,
  "tumult-royale": tumultRoyale.reveal,
  "le-bouffon": leBouffon.reveal,
};
const DESCRIBE = {
  jester: jester.describe,
  "fools-crown": foolsCrown.describe,
  "tumult-royale": tumultRoyale.describe,
  "le-bouffon": leBouffon.describe,
};

// A timed phase's name for a person: the engines' ids ("tax-2", "ready-1") were shown as they are, three
// times at once (a newcomer probe).
export function phaseName(phase) {
  const match = /^(tax|ready)-(\d+)$/.exec(phase || "");
  if (!match) return phase || "";
  return `${match[1] === "tax" ? "tax collection" : "ready step"}, round ${match[2]}`;
}

// A deadline counting down (a timed phase, a turn clock): the text is kept fresh by tickDeadlines().
// The deadline is the server's: it is counted down on the server's clock (api.js serverNow), whatever
// the device's says.
export function countdown(deadline, what, extra = "") {
  const node = h("span", { class: `timer ${extra}`, "data-deadline": deadline, "data-what": what });
  tickNode(node);
  return node;
}

function tickNode(node) {
  const left = Math.max(0, (Date.parse(node.dataset.deadline) - serverNow()) / 1000);
  node.textContent = `${node.dataset.what}: ${left.toFixed(0)} s left`;
  node.classList.toggle("over", left <= 0);
}

// Every countdown on the page, once (app.js calls it on an interval).
export function tickDeadlines(root = document) {
  for (const node of root.querySelectorAll("[data-deadline][data-what]")) tickNode(node);
}

// The countdowns of a past version (a replay): what the timer was, "ready-1: timed, deadline 17:04:07"
// (the device's time of day), not a countdown against today's clock. They tick no more.
export function pastDeadlines(root) {
  for (const node of root.querySelectorAll("[data-deadline][data-what]")) {
    const when = new Date(Date.parse(node.dataset.deadline));
    const two = (n) => String(n).padStart(2, "0");
    const time = Number.isFinite(when.getTime())
      ? `${two(when.getHours())}:${two(when.getMinutes())}:${two(when.getSeconds())}` : node.dataset.deadline;
    node.textContent = `${node.dataset.what}: timed, deadline ${time}`;
    node.title = `${node.title ? `${node.title}: ` : ""}deadline ${when.toString()}`;
    node.classList.remove("over");
    node.classList.add("past");
    delete node.dataset.what; // tickDeadlines passes it by
  }
}

// What the board shows: the viewer's observation, or, once a finished match is revealed to everyone
// (docs/architecture.md, "Visibility": `viewer.sees_all` and the whole `state`), everything the state holds:
// a post-game replay is for reviewing the others' hands and face-down cards.
function shown(match) {
  const obs = match.observation;
  const reveal = REVEALS[match.game];
  if (!match.viewer?.sees_all || !match.state || !reveal || obs === null || obs === undefined) return obs;
  try {
    return reveal(obs, match.state);
  } catch (error) {
    console.warn("revealing the state failed, showing the observation", error);
    return obs;
  }
}

// The fold with everything the viewer sees, as the game's own view leaves it out. Drawn again with every
// update, it stays as the person left it, and the focus on its summary (by its id, app.js focusAfter): an
// opponent's move closed it and put the focus on the first move button, which Enter then played (a
// screen-reader probe).
let seenAllOpen = false;
const seenAll = (content) => h("details", { id: "seen-all", open: seenAllOpen,
  ontoggle: (event) => { seenAllOpen = event.currentTarget.open; } },
  h("summary", { id: "seen-all-summary" }, "everything you see"), content);

export function observation(match) {
  const obs = shown(match);
  if (obs === null || obs === undefined) return h("p", { class: "muted" }, "Nothing to see yet: the match has not started.");
  const touch = TOUCHES[match.game];
  const you = match.your_seat;
  if (touch) {
    try {
      return h("div", { class: "game-view" }, touch(obs, match.seats, you, match), seenAll(generic(obs, match.seats)));
    } catch (error) {
      console.warn("game view failed, falling back to the generic one", error);
    }
  }
  return generic(obs, match.seats);
}

// What makes two legal actions the same choice for a person, per game (a key), where the game says
// some pieces are interchangeable: Le Bouffon's copies of a card kind.
const CHOICES = { "le-bouffon": leBouffon.choice };

// The legal actions a table offers as buttons: each choice once (the first action of its kind, in the
// server's order); actions whose labels would still read the same are numbered, so no two buttons read
// alike.
export function distinctActions(actions, match) {
  const keyOf = CHOICES[match.game];
  const seen = new Set();
  const kept = [];
  for (const action of actions) {
    let key = null;
    try {
      key = keyOf ? keyOf(action) : null;
    } catch (error) {
      console.warn("action grouping failed, every action kept", error);
    }
    if (key !== null && key !== undefined) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    kept.push(action);
  }
  return kept;
}

// The labels of actions, told apart: "x" twice reads "x (1)", "x (2)".
export function actionLabels(actions, match) {
  const labels = actions.map((action) => describeAction(action, match, true));
  const total = new Map();
  for (const label of labels) total.set(label, (total.get(label) || 0) + 1);
  const nth = new Map();
  return labels.map((label) => {
    if (total.get(label) < 2) return label;
    nth.set(label, (nth.get(label) || 0) + 1);
    return `${label} (${nth.get(label)})`;
  });
}

// Actions a game offers by the dozen, drawn as a tight group of small buttons (Tumult Royale's 27 "take tile
// N" filled a phone's screen above the board while the hourglass ran: a new player's probe). Per game,
// compact(action, match, label) -> { group, caption, shown } or null: `shown`, the end of the button's
// label drawn (the tile's number); the rest is read by a screen reader only, so the button's name and text
// stay its whole label ("take tile 12"), as every other button's.
const COMPACTS = { "tumult-royale": tumultRoyale.compact, "fools-crown": foolsCrown.compact };
export function compactOf(action, match, label) {
  const own = COMPACTS[match.game];
  if (!own) return null;
  try {
    const compact = own(action, match, label);
    return compact && compact.shown && label.endsWith(compact.shown) ? compact : null;
  } catch (error) {
    console.warn("compact action failed, drawn in full", error);
    return null;
  }
}

// A compact button's content: its label, only its `shown` end drawn.
export function compactLabel(label, shown) {
  const said = label.slice(0, label.length - shown.length);
  return [said ? h("span", { class: "visually-hidden" }, said) : null, shown];
}

// Why the person's seat has no move while others act, in the game's words, or null: Tumult Royale's
// "done collecting" and "pass" are final for the round, and the page said only "X, Y to act" (a second
// web-play probe).
const IDLES = { "tumult-royale": tumultRoyale.idle };
export function idleOf(match) {
  const own = IDLES[match.game];
  try {
    return own && typeof match.your_seat === "number" ? own(match.observation || {}, match.your_seat) : null;
  } catch (error) {
    console.warn("idle reason failed, left out", error);
    return null;
  }
}

// Seconds a game makes a seat wait after this action before the next one of its type (the server refuses
// a sooner one with 429 too-soon): Tumult Royale's peeks.
const COOLDOWNS = { "tumult-royale": tumultRoyale.cooldown };
export function cooldownOf(action, match) {
  const own = COOLDOWNS[match.game];
  return own ? Number(own(action, match)) || 0 : 0;
}

// A legal action, in words: "offer: up 2♦, down A♠", "take the face-down card from seat 1 (ann)".
// `offered`: the action is one the table offers now, so its observation may name what it takes (Jest's
// face-up card; an event of the past is described without it, the observation being another version's).
export function describeAction(action, match, offered = false) {
  const rest = Object.entries(action).filter(([key]) => key !== "type");
  if (match.game === "jest" && action.type === "take") {
    // By card and seat number: two computers of one level read alike, and the ordinal that told their
    // buttons apart ("(1)", "(2)") mapped to no row of the table.
    const up = offered && action.card === "up" ? match.observation?.offers?.[action.from]?.up : null;
    const what = action.card === "up" ? `face-up ${up && CARD.test(up) ? cardText(up) : "card"}` : "face-down card";
    const seat = match.seats[action.from];
    return `take the ${what} from seat ${action.from}${seat?.name ? ` (${seat.name})` : ""}`;
  }
  const own = DESCRIBE[match.game];
  if (own) {
    try {
      const text = own(action, match, valueText, offered);
      if (text) return text;
    } catch (error) {
      console.warn("action label failed, falling back to the generic one", error);
    }
  }
  const words = rest.map(([key, value]) => `${label(key)} ${valueText(value)}`);
  return words.length ? `${label(action.type)}: ${words.join(", ")}` : label(action.type);
}

function valueText(value) {
  if (typeof value === "string") return CARD.test(value) ? cardText(value) : value;
  if (Array.isArray(value) && value.every((item) => typeof item !== "object")) return value.map(valueText).join(" ");
  return JSON.stringify(value).replace(/"/g, "");
}

function cardText(code) {
  if (code === "JK") return "Joker";
  const match = CARD.exec(code);
  return match[1] + SUITS[match[2]];
}

// A line chart of points [{x label, y, low, high}] as inline SVG: the band is mu ± sigma.
// Drawn as wide as the window allows (at most 520 units): drawn 520 wide and shrunk to a phone's 330 px,
// its axis labels were 6 px high (a phone probe). An x label every few points where they would crowd.
const chartWidth = () => Math.max(280, Math.min(520, (globalThis.innerWidth || 520) - 48));

export function chart(points, { width = chartWidth(), height = 200, title = "" } = {}) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", title);
  const el = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  if (!points.length) {
    el("text", { x: 10, y: 20 }, "no rated matches yet");
    return svg;
  }
  const pad = 36;
  const lows = points.map((p) => p.low ?? p.y), highs = points.map((p) => p.high ?? p.y);
  let min = Math.min(...lows), max = Math.max(...highs);
  if (max - min < 1e-9) { min -= 1; max += 1; }
  const spacing = points.length > 1 ? (width - 2 * pad) / (points.length - 1) : width;
  const every = Math.ceil(24 / spacing);  // a label's room: "99" at 12 px and a gap
  const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => height - pad + ((v - min) * (2 * pad - height)) / (max - min);
  el("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: "axis" });
  el("line", { x1: pad, y1: pad / 2, x2: pad, y2: height - pad, class: "axis" });
  for (const v of [min, (min + max) / 2, max]) el("text", { x: 2, y: y(v) + 4, class: "tick" }, v.toFixed(1));
  const band = points.map((p, i) => `${x(i)},${y(p.high ?? p.y)}`).concat(points.map((p, i) => `${x(i)},${y(p.low ?? p.y)}`).reverse());
  el("polygon", { points: band.join(" "), class: "band" });
  el("polyline", { points: points.map((p, i) => `${x(i)},${y(p.y)}`).join(" "), class: "line" });
  points.forEach((p, i) => el("line", { x1: x(i), x2: x(i), y1: y(p.low ?? p.y), y2: y(p.high ?? p.y), class: "whisker" }));
  points.forEach((p, i) => {
    const dot = el("circle", { cx: x(i), cy: y(p.y), r: 3.5, class: "dot" });
    const tip = document.createElementNS(ns, "title");
    tip.textContent = p.label;
    dot.append(tip);
    if ((points.length - 1 - i) % every === 0)  // the last one always
      el("text", { x: x(i), y: height - pad + 16, class: "tick", "text-anchor": "middle" }, String(i + 1));
  });
  return svg;
}
