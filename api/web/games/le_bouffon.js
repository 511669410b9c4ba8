// Le Bouffon (docs/rules/le-bouffon.md): a themed Président. The roles, the seat's hand grouped by kind,
// the trick on the table (its leader, whose turn, the top play), cards left per seat and the scores.
import { everyHand, generic, h, plural, scrolling, seatLabel } from "../render.js";

const STRENGTH = { archer: 9, magicien: 10, guerrier: 11, assassin: 12, paladin: 13, minotaure: 14 };
const kindOf = (id) => id.split("#")[0];
const strength = (kind) => (kind.startsWith("soldat-") ? Number(kind.slice(7)) : STRENGTH[kind] || 0);
const kindName = (kind) => (kind.startsWith("soldat-") ? `soldat ${kind.slice(7)}` : kind);

export function card(id, extra = "") {
  const kind = kindOf(id);
  const s = strength(kind);
  return h("span", { class: `chip bcard ${s > 8 ? "figure" : "soldat"} ${extra}`, title: `${id} (strength ${s})` },
    kind.startsWith("soldat-") ? h("span", {}, h("small", {}, "soldat "), kind.slice(7)) : kind);
}

const cards = (ids) => h("span", { class: "chips" }, ids.map((id) => card(id)));

// "play: 2 × soldat 7"
function playText(ids) {
  const counts = new Map();
  for (const id of ids) counts.set(kindOf(id), (counts.get(kindOf(id)) || 0) + 1);
  return [...counts].map(([kind, k]) => `${k > 1 ? `${k} × ` : ""}${kindName(kind)}`).join(" + ");
}

// What the top counts as, which the next play must match: k paladins (1 minotaure) laid on a bigger set count
// as that set's number of cards (house rule 5.4 exceptions), so the chips alone undercount it.
function topCount(top) {
  const counted = `${top.count} card${top.count === 1 ? "" : "s"} of strength ${top.strength}`;
  return top.count === top.cards.length ? `${top.kind}, ${counted}`
    : `${top.cards.length} ${top.kind}${top.cards.length === 1 ? "" : "s"} counting as ${counted}`;
}

const byStrength = (ids) => [...ids].sort((a, b) => strength(kindOf(a)) - strength(kindOf(b)));

// A revealed match (finished: the whole state): every seat's hand, and the deal's exchanges (rulebook 3),
// which an observation shows only to the two seats of each: `every_exchange` (per seat {gave, received}, once
// the last gift is in) and `every_gift` (per seat, the cards a giver has chosen while the others still choose).
export function reveal(obs, state) {
  const out = { ...obs, every_hand: state.hands };
  if (Array.isArray(state.exchanged) && state.exchanged.some(Boolean)) out.every_exchange = state.exchanged;
  if (Array.isArray(state.gifts) && state.gifts.some(Boolean)) out.every_gift = state.gifts;
  return out;
}

// Who gives to whom (docs/rules/le-bouffon.md §3): the roi and the bouffon, the héritier and the ouvrier.
const PARTNER = { roi: "bouffon", bouffon: "roi", "héritier": "ouvrier", ouvrier: "héritier" };
const partnerOf = (roles, seat) => (roles && PARTNER[roles[seat]] ? roles.indexOf(PARTNER[roles[seat]]) : -1);

// Every exchange of the deal, once revealed: each seat's cards given and received, or the gift it has chosen.
function everyExchange(obs, seats, you) {
  const done = obs.every_exchange, chosen = obs.every_gift;
  if (!done && !chosen) return null;
  const who = (s) => [h("b", {}, seatLabel(seats, s)), s === you ? " (you)" : "", obs.roles && obs.roles[s] ? ` (${obs.roles[s]})` : ""];
  const to = (s) => {
    const other = partnerOf(obs.roles, s);
    return other >= 0 ? [" to ", seatLabel(seats, other)] : "";
  };
  const from = (s) => {
    const other = partnerOf(obs.roles, s);
    return other >= 0 ? [" from ", seatLabel(seats, other)] : "";
  };
  const items = [];
  (done || []).forEach((exchange, s) => {
    if (exchange) items.push(h("li", { "data-seat": s }, who(s), ": gave ", h("span", { class: "gave" }, cards(exchange.gave)), to(s),
      " · received ", h("span", { class: "received" }, cards(exchange.received)), from(s)));
  });
  (chosen || []).forEach((gift, s) => {
    if (gift) items.push(h("li", { "data-seat": s }, who(s), ": chose to give ", h("span", { class: "gift" }, cards(gift)), to(s)));
  });
  return h("div", { class: "every-hand every-exchange", id: "every-exchange" },
    h("h3", {}, "Every exchange this deal (revealed)"), h("ul", { class: "seatlist" }, items));
}

// The end of the match: the last deal's scoring gathered the hands; the last player's cards stay hidden
// (docs/rules/le-bouffon.md §4, "His remaining cards stay hidden").
const GATHERED = "the match is over: the hands are gathered (the last player's cards stay hidden)";

export function view(obs, seats, you) {
  const n = obs.hand_counts.length;
  const over = obs.phase === "over";
  const waiting = new Set(obs.waiting || []); // the exchange: the givers still to choose
  const trick = obs.trick;
  const turn = trick ? trick.turn : null;
  // Each scored deal's points, a column each: the view showed the totals alone, and a player traced them
  // only through the event list (a newcomer probe). The engine's `scored`. The total comes next to the
  // seat, the deals last: on a phone's 360 px the total sat beyond them, out of sight in the table's own
  // scroll box (a phone probe).
  const scored = Array.isArray(obs.scored) ? obs.scored : [];
  const rows = Array.from({ length: n }, (_, s) => h("tr", { class: turn === s || waiting.has(s) ? "acting" : "" },
    h("th", {}, seatLabel(seats, s), s === you ? " (you)" : ""), h("td", { class: "total" }, obs.scores[s]),
    h("td", { class: "role" }, obs.roles ? obs.roles[s] : "—"), h("td", {}, obs.hand_counts[s]),
    // The finishing order: the last place holds cards still, never out (it read "out (3)": a newcomer probe).
    // Its column is titled (it had no header a sighted player could read: a phone probe).
    h("td", {}, obs.finished.includes(s) ? (obs.finished.indexOf(s) + 1 === n ? `last (${n})` : `out (${obs.finished.indexOf(s) + 1})`) : ""),
    scored.map((deal) => h("td", { class: "deal-points" }, String(deal.points[s])))));
  const plays = trick ? trick.plays.map(([seat, kind, ids]) => h("li", {}, h("b", {}, seatLabel(seats, seat)), ": ",
    kind === "play" && Array.isArray(ids) ? cards(ids) : kind)) : [];
  return h("div", { class: "le-bouffon" },
    h("p", { class: "phase" }, `Deal ${obs.deal} of ${obs.deals} · phase: `, h("b", {}, obs.phase),
      turn !== null && turn !== undefined ? [" · ", seatLabel(seats, turn), " to play"] : ""),
    Array.isArray(obs.hand) ? h("div", { class: "hand" }, h("h3", {}, `Your hand (${obs.hand.length})`),
      obs.hand.length ? h("span", { class: "chips big" }, byStrength(obs.hand).map((id) => card(id)))
        : h("p", { class: "muted" }, over ? GATHERED : "empty: you are out")) : null,
    // Once over, the last deal's scoring gathered every hand: "Every hand (revealed)" said each was empty,
    // the last player's too, who was never out and whose cards stay hidden (a web-play probe).
    over ? null : everyHand(obs.every_hand, seats, you, (hand) => (hand.length ? cards(byStrength(hand)) : h("span", { class: "muted" }, "empty"))),
    everyExchange(obs, seats, you),
    h("div", { class: "trick" }, h("h3", {}, "The trick"),
      trick ? [h("p", {}, "led by ", seatLabel(seats, trick.leader), " · top: ", trick.top ? [cards(trick.top.cards),
        ` (${topCount(trick.top)}, by `, seatLabel(seats, trick.top.seat), ")"]
        : h("span", { class: "muted" }, "nothing yet: the leader plays any set")),
      plays.length ? h("ol", { class: "plays" }, plays) : null] : h("p", { class: "muted" }, "no trick")),
    scrolling(h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, "seat"), h("th", {}, scored.length ? "total" : "score"), h("th", {}, "role"),
        h("th", {}, "cards"), h("th", {}, "finished"),
        scored.map((deal) => h("th", { title: `points in deal ${deal.deal}` }, `deal ${deal.deal}`)))),
      h("tbody", {}, rows))),
    over ? null : h("p", { class: "muted" }, `${plural(obs.played.length, "card")} played this deal`),
    obs.gift ? h("p", { class: "gift" }, "Your gift: ", cards(obs.gift)) : null,
    obs.exchange ? h("div", { class: "exchange" }, h("h3", {}, "Your exchange this deal"),
      obs.exchange.gave ? h("p", {}, "gave ", cards(obs.exchange.gave)) : null,
      obs.exchange.received ? h("p", {}, "received ", cards(obs.exchange.received)) : null,
      obs.exchange.gave || obs.exchange.received ? null : generic(obs.exchange, seats)) : null);
}

export function describe(action) {
  if (action.type === "pass") return "pass";
  if (!["play", "give", "laugh"].includes(action.type)) return null;
  if (Array.isArray(action.cards)) return `${action.type}: ${playText(action.cards)}`;
  if (typeof action.count === "number") return `${action.type} ${plural(action.count, "card")}, face down`; // a sealed gift
  return null;
}

// Copies of a kind are interchangeable (docs/rules/le-bouffon.md, "Card ids"): legal_actions lists every
// choice among identical copies, a person chooses among kinds. The same type with the same kinds is one
// choice.
export function choice(action) {
  if (!Array.isArray(action.cards)) return null;
  return `${action.type}:${action.cards.map(kindOf).sort().join("+")}`;
}
