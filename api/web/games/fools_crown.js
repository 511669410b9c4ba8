// Fool's Crown (docs/rules/fools-crown.md): the crowns in the centre, the seat's hand, each seat's
// committed pair (face up or down), its dice, its gamble, its won crowns; the last round's claim.
import { chip, everyHand, faceDown, generic, h, plural, scrolling, seatLabel, seatName } from "../render.js";

const DIE = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
// A die's face as a glyph, its number beside it for a screen reader (whether it speaks "⚄" depends on its
// symbols table: a screen-reader probe heard nothing of the dice but their total on a failed qualifying).
export const die = (value) => h("span", { class: "die", title: `a ${value}` },
  h("span", { "aria-hidden": "true" }, DIE[value] || String(value)), h("span", { class: "visually-hidden" }, ` ${value} `));
const back = () => faceDown(); // called, not bound: render.js imports this module before it defines faceDown
const none = (text = "—") => h("span", { class: "muted" }, text);

function commitView(commit) {
  if (commit === null || commit === undefined) return none("not yet");
  if (Array.isArray(commit)) return h("span", { class: "chips" }, commit.map((c) => (c === null ? back() : chip(c))));
  return generic(commit);
}

// The two Nobles a Noble Exchange discarded (rulebook: "reveal your hand, discard two Nobles"): public, so
// everyone knows which three stayed in the hand shown beside them.
const discarded = (cards) => (cards ? h("span", { class: "exchange-discards" }, " · discarded ",
  h("span", { class: "chips" }, cards.map((c) => chip(c)))) : null);

// A revealed match (finished: the whole state): every commit in full and every hand, Jokers included
// (the state holds them apart, as "JOKER1"...: drawn as Joker cards).
export function reveal(obs, state) {
  return { ...obs, commits: state.commits.map((commit) => (commit ? [...commit] : commit)),
    every_hand: state.hands.map((hand, s) => [...hand, ...state.jokers[s].map(() => "JK")]) };
}

// The match's end: the winner by name (not a seat index), the reason, and the rest as it comes.
function endView(end, seats) {
  const { winner, reason, rounds, ...rest } = end;
  return [h("p", { class: "winner" }, winner === null || winner === undefined ? "No winner"
    : ["Won by ", h("b", {}, seatLabel(seats, winner))],
  reason ? ` · ${String(reason).replace(/-/g, " ")}` : "", typeof rounds === "number" ? ` · after ${plural(rounds, "round")}` : ""),
  Object.keys(rest).length ? generic(rest, seats) : null];
}

// The last round as its resolution showed it (every commit, the dice, the strengths, who failed to
// qualify): with the claim the round's table is cleared, and a player who looked away read only "X won
// and claimed A♥" (a web-play probe). A summary stored before rules kept it has none of it.
// A roll's total as the qualification counts it: the Joker face counts 1 (docs/rules/fools-crown.md).
const diceTotal = (roll) => roll.reduce((sum, face) => sum + (typeof face === "number" ? face : 1), 0);

export function lastRoundDetail(last, seats) {
  if (!last || !Array.isArray(last.commits)) return null;
  const qualified = new Set(last.qualified || []);
  const rows = last.commits.map((commit, s) => (commit ? h("li", {}, seatLabel(seats, s), ": ", commitView(commit),
    last.rolls?.[s] ? [" · dice ", last.rolls[s].map(die)] : "",
    // Why a seat did not qualify (docs/rules/fools-crown.md: two dice, 6 or more qualifies): "did not qualify"
    // beside "strength 19" read as a mistake (a desktop probe).
    qualified.has(s) ? ` · strength ${last.strengths?.[s] ?? "—"}`
      : ` · did not qualify${last.rolls?.[s] ? ` (dice ${diceTotal(last.rolls[s])}: 6 or more qualifies)` : ""}`) : null)).filter(Boolean);
  return rows.length ? h("ul", { class: "list last-round-detail", "aria-label": `round ${last.round} as it was resolved` }, rows) : null;
}

export function view(obs, seats, you) {
  const n = obs.hands.length;
  const acting = new Set(obs.to_act || []);
  const rows = Array.from({ length: n }, (_, s) => h("tr", { class: acting.has(s) ? "acting" : "" },
    h("th", {}, seatLabel(seats, s), s === you ? " (you)" : "", obs.leader === s ? h("span", { class: "muted" }, " · leader") : null),
    h("td", {}, obs.hands[s]), h("td", {}, obs.jokers[s]),
    // A seat that made a Noble Exchange sits the round out (rulebook): it commits nothing, so not "not yet".
    h("td", {}, obs.exchanged[s] && !obs.commits[s] ? none("sat out") : commitView(obs.commits[s])),
    h("td", {}, obs.exchanged[s] ? [commitView(obs.exchanged[s]), discarded((obs.exchange_discards || [])[s])] : none()),
    h("td", {}, obs.gambled[s] || none("0")),
    h("td", { class: "dice" }, obs.rolls[s] ? obs.rolls[s].map(die) : none()),
    h("td", {}, obs.strengths ? obs.strengths[s] ?? "—" : "—"),
    h("td", {}, obs.crowns[s].length ? h("span", { class: "chips" }, obs.crowns[s].map((c) => chip(c, "crown"))) : none("none"))));
  const last = obs.last_round;
  return h("div", { class: "fools-crown" },
    h("p", { class: "phase" }, `Round ${obs.round}${obs.max_rounds ? ` of at most ${obs.max_rounds}` : ""} · stage: `,
      h("b", {}, obs.stage),
      ` · deck ${obs.deck} · discard ${obs.discard}`,
      obs.winner !== null && obs.winner !== undefined ? [" · round won by ", seatLabel(seats, obs.winner)] : ""),
    h("div", { class: "centre" }, h("h3", {}, "Crowns in the centre"),
      obs.centre.length ? h("span", { class: "chips big" }, obs.centre.map((c) => chip(c, "crown"))) : none("none left")),
    Array.isArray(obs.hand) ? h("div", { class: "hand" }, h("h3", {}, "Your hand"),
      obs.hand.length ? h("span", { class: "chips big" }, obs.hand.map((c) => chip(c))) : none("empty")) : null,
    everyHand(obs.every_hand, seats, you, (hand) => (hand.length ? h("span", { class: "chips" }, hand.map((c) => chip(c))) : none("empty"))),
    scrolling(h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, ["seat", "hand", "jokers", "committed", "exchanged", "gambled", "dice", "strength", "crowns won"]
        .map((t) => h("th", {}, t)))),
      h("tbody", {}, rows))),
    last ? h("p", { class: "last-round" }, `Round ${last.round}: `, last.winner === null ? "nobody won"
      : [seatLabel(seats, last.winner), " won", last.claimed && last.claimed.crown ? [" and claimed ", chip(last.claimed.crown),
        last.claimed.from !== null && last.claimed.from !== undefined ? [" from ", seatLabel(seats, last.claimed.from)] : ""] : ""]) : null,
    lastRoundDetail(last, seats),
    obs.end ? h("div", { class: "end", id: "end" }, h("h3", {}, "End"), endView(obs.end, seats)) : null);
}

export function describe(action, match, cardText) {
  // In a replay an action may be sealed (the others' commits): no cards, or only the face-up one.
  const cards = (list) => list.map(cardText).join(" and ");
  const sealed = (verb) => (action.up ? `${verb} ${cardText(action.up)} and a face-down card`
    : typeof action.count === "number" ? `${verb} ${plural(action.count, "card")}, face down` : `${verb} (face down)`);
  switch (action.type) {
    case "commit": return Array.isArray(action.cards) ? `commit ${cards(action.cards)}` : sealed("commit");
    // The gamble sacrifices a Joker into the deck (docs/rules/fools-crown.md, Gamble); "gamble 2♠" said not
    // what it costs, nor "pass" that it declines the challenge (a web-play probe).
    // Its cards last, one by one: a phone drew 25 to 35 full-width gamble buttons above the commits and the
    // hand (a phone probe); they are a tight group now, each button drawn by its cards (compact, below).
    case "gamble": return Array.isArray(action.cards) ? `gamble a Joker and draw back to five, discarding ${action.cards.map(cardText).join(" ")}`
      : sealed("gamble");
    case "pass": return "pass (no challenge)";
    case "noble-exchange": return Array.isArray(action.cards) ? `exchange ${cards(action.cards)}` : sealed("exchange");
    case "claim": return action.crown ? `claim the crown ${cardText(action.crown)}` : null;
    case "challenge": return action.crown ? `challenge ${seatName(match.seats, action.target)} for ${cardText(action.crown)}` : null;
    default: return null;
  }
}

// The gambles, one per set of 1–3 cards to discard (25 and more with a Joker in hand), are a tight group of
// small buttons drawn by their cards, after the commits (`last`), their whole label still their name.
export function compact(action, match, label) {
  const marker = ", discarding ";
  if (action.type === "gamble" && Array.isArray(action.cards) && label.includes(marker))
    return { group: "gamble", caption: "Or first gamble a Joker (it goes back into the deck): discard, draw back to five",
      shown: label.slice(label.indexOf(marker) + marker.length), last: true };
  return null;
}
