// Jester (docs/rules/jester.md): the place cards in hand, the four places with their price and pile, the
// city's classes, the court, the guilds and every player's tracks (money, VP, fame) and stamps.
import { everyHand, generic, h, plural, scrolling, seatLabel } from "../render.js";

const PLACES = ["city", "theater", "court", "guilds"];
const GUILDS = { 1: "Master Buffoon", 2: "Craftsmen", 3: "Theater Directors", 4: "Grand Duke", 5: "Merchants", 6: "Heralds" };
const DISCIPLINES = ["acrobatics", "singing", "harp", "magic", "juggling", "poetry", "theater"];
const ROYALTY = ["king", "queen", "prince", "princess"];

const placeCard = (place, count, extra = "") =>
  h("span", { class: `place-card ${place} ${extra}`, title: `${place} card` }, place, count > 1 ? h("b", {}, ` ×${count}`) : null);

const none = () => h("span", { class: "muted" }, "—");

function decisionText(decision, seats, over = false, status = "active", voided = null) {
  // A match ended otherwise (resigned, claimed, voided, cancelled) keeps the decision it stopped at: it named
  // who was to decide on a voided table (a web organiser's probe).
  if (status === "cancelled") return voided ? "the match was voided by the tournament's organiser" : "the match was cancelled";
  if (status === "finished" && !over) return "the game is over";
  if (!decision) return over ? "the game is over" : "no decision pending"; // it said "no decision pending" once over (a desktop probe)
  const who = typeof decision.seat === "number" ? [" · ", seatLabel(seats, decision.seat), " to decide"] : "";
  return [`${decision.kind.replace(/-/g, " ")}${decision.stage ? ` (${decision.stage})` : ""}`, who];
}

// A revealed match (finished: the whole state): every seat's place cards in hand and crowns behind its screen.
export function reveal(obs, state) {
  return { ...obs, every_hand: state.players.map((player) => ({ hand: player.hand, crowns: player.crowns })) };
}

const handCards = (hand) => (hand.some((k) => k > 0)
  ? h("span", { class: "chips" }, PLACES.map((place, i) => (hand[i] ? placeCard(place, hand[i], "small") : null))) : none());

export function view(obs, seats, you, match = null) {
  const pl = obs.players;
  const n = pl.money.length;
  const places = h("div", { class: "places" }, PLACES.map((place, i) =>
    h("div", { class: `place ${place} ${obs.card_prices[i] > 1 ? "dear" : ""}` },
      h("b", {}, place), h("span", {}, `card $${obs.card_prices[i]}`), h("span", { class: "muted" }, `${obs.piles[i]} in the pile`))));
  const hand = Array.isArray(obs.hand) ? h("div", { class: "hand" }, h("h3", {}, "Your hand",
    typeof obs.my_crowns === "number" ? h("span", { class: "muted" }, ` · ${plural(obs.my_crowns, "crown")} behind your screen`) : null),
  obs.hand.some((k) => k > 0) ? h("span", { class: "chips big" }, PLACES.map((place, i) => obs.hand[i] ? placeCard(place, obs.hand[i]) : null))
    : h("p", { class: "muted" }, "no place cards")) : null;
  const city = scrolling(h("table", { class: "grid city" },
    h("thead", {}, h("tr", {}, h("th", {}, "discipline"), DISCIPLINES.map((d) => h("th", {}, d)))),
    h("tbody", {},
      h("tr", {}, h("th", {}, "city classes"), obs.city.map((k) => h("td", {}, k))),
      h("tr", {}, h("th", {}, "class price"), obs.class_prices.map((k) => h("td", {}, `$${k}`))),
      h("tr", {}, h("th", {}, "objects left"), obs.objects.map((k) => h("td", {}, k))))));
  const court = h("div", { class: "court" },
    h("p", {}, h("b", {}, "Court: "), obs.court.map((d, i) => h("span", { class: "chip" },
      i < 4 ? `${ROYALTY[i]}: ` : "", d, i < 4 && obs.royalty[i] !== null ? [" (", seatLabel(seats, obs.royalty[i]), ")"] : ""))),
    h("p", {}, h("b", {}, "Counselor: "), obs.counselor.length ? obs.counselor.map((s, i) => [i ? ", " : "", seatLabel(seats, s)]) : none(),
      " · ", h("b", {}, "chairs: "), h("span", { class: "chairs" }, obs.chairs.map((c, i) =>
        h("span", { class: `chair ${i % 2 === 0 ? "red" : ""} ${c === null ? "" : "taken"}`, title: chairText(i + 1) },
          // An empty chair says so ("II ·" read as a stray mark: a desktop probe).
          `${ROMAN[i]} `, c === null ? h("span", { class: "muted" }, "free") : seatLabel(seats, c))))),
    h("p", {}, h("b", {}, "Favors: "), obs.favors.join(" "), obs.blocked.length ? [" · blocked: ", obs.blocked.join(", ")] : null));
  const row = (s) => h("tr", { class: obs.decision && obs.decision.seat === s ? "acting" : "" },
    h("th", {}, seatLabel(seats, s), s === you ? " (you)" : ""),
    h("td", { class: "money" }, `$${pl.money[s]}`), h("td", { class: "vp" }, pl.vp[s]), h("td", {}, pl.fame[s]),
    h("td", {}, pl.hand_count[s]),
    h("td", {}, h("span", { class: "chips" }, PLACES.map((place, i) => pl.table[s][i] ? placeCard(place, pl.table[s][i], "small") : null))),
    h("td", {}, pl.reserve[s]),
    h("td", {}, h("span", { class: "chips" }, pl.guilds[s].map((k, g) => k ? h("span", { class: "chip", title: GUILDS[g + 1] }, `${GUILDS[g + 1]} ${k}`) : null))),
    h("td", {}, Object.entries(pl.classes[s]).map(([d, k]) => `${d} ${k}`).join(", ") || none(),
      pl.specialized[s].length ? h("div", { class: "muted" }, `specialized: ${pl.specialized[s].join(", ")}`) : null,
      pl.objects[s].length ? h("div", { class: "muted" }, `objects: ${pl.objects[s].join(", ")}`) : null),
    h("td", {}, pl.pawn[s] || none(), pl.order[s] ? h("div", { class: "muted" }, `order: ${pl.order[s]}`) : null));
  return h("div", { class: "jester" },
    h("p", { class: "phase" }, `Round ${obs.round} · `, h("b", {}, decisionText(obs.decision, seats, Boolean(obs.final), match?.status, match?.voided)), eventText(obs.events),
      obs.trigger !== null && obs.trigger !== undefined ? [" · end triggered by ", seatLabel(seats, obs.trigger)] : ""),
    hand, everyHand(obs.every_hand, seats, you, (seen) => [handCards(seen.hand), ` · ${plural(seen.crowns, "crown")} behind the screen`]),
    places,
    scrolling(h("table", { class: "grid players" },
      h("thead", {}, h("tr", {}, ["seat", "money", "VP", "fame", "hand", "played", "reserve", "guilds", "classes", "pawn"].map((t) => h("th", {}, t)))),
      h("tbody", {}, Array.from({ length: n }, (_, s) => row(s))))),
    court, h("h3", {}, "City"), city,
    obs.final ? finalView(obs.final, seats, you, n, obs) : null);
}

// The final scoring's items (docs/rules/jester.md, "End of the game"), by their names in the rules, what
// each scores said beside it. The box read "Final: type final-scoring", then a list per item by its key
// (a new player's probe): the step's `type` is the engine's, not the players'.
const FINAL_ITEMS = {
  sets: "sets of 4 different cards in hand (3 VP each)",
  objects: "objects made (2 VP each)",
  specialization: "specialization table markers (1, 3 or 6 VP each)",
  money: "money (1 VP per $3)",
  disciplines: "disciplines marked (7 VP for 6, 10 VP for 7)",
  influence: "influence: markers on the board (8 VP first, 4 VP second)",
  crowns: "crowns behind the screen (a count: they score no VP)",
  crown_penalty: "Crown Penalty (−10 VP to the fewest crowns)",
  // The total counts the VP held before this scoring too: the rows above did not add up to it (a phone probe).
  vp: "final VP (the VP held before, plus the rows above)",
};

// The Winner's tie-breaks (rulebook "Winner"; docs/rules/jester.md): equal VP go to the most fame, then to
// the most influence markers on the board. Two seats on 34 VP read "place 1" and "place 2" with nothing saying
// why, the fame column off a phone's screen (a phone probe): the tie-break keys are rows of the table, and a
// tie on VP says which one decided it. The keys, in their order, are the engine's (the finished view's
// `ranking`): the page counted the markers on the board itself, a second copy of the rule.
const RANKING_ROWS = {
  fame: ["fame", "fame (the first tie-break: equal VP)"],
  markers_on_board: ["markers on the board", "markers on the board (the second: equal fame too)"],
};
const rankingName = (key) => (RANKING_ROWS[key] || [key.replace(/_/g, " ")])[0];

export function tieBreaks(obs, n) {
  const ranking = Array.isArray(obs.ranking) ? obs.ranking : [];
  if (!ranking.length) return { rows: [], said: null };
  const [first, ...rest] = ranking;
  const rows = rest.map(({ key, values }) => [key, (RANKING_ROWS[key] || [])[1] || rankingName(key), values]);
  const said = [];
  const seen = new Set();
  for (let s = 0; s < n; s += 1) {
    const value = first.values[s];
    const tied = Array.from({ length: n }, (_, t) => t).filter((t) => first.values[t] === value);
    if (tied.length < 2 || seen.has(value)) continue;
    seen.add(value);
    said.push(`${value} VP each: ${tieSaid(tied, rest)}.`);
  }
  return { rows, said: said.length ? said.join(" ") : null };
}

// How the keys ``rest`` rank the ``tied`` seats: by the first key that tells any of them apart, then those it
// leaves equal by the next, and so on. Three on equal VP, two of them on equal fame, read "ranked by fame"
// whether markers then split the two or they shared a place (a desktop probe).
function tieSaid(tied, rest) {
  const at = rest.findIndex(({ values }) => tied.some((t) => values[t] !== values[tied[0]]));
  if (at < 0) return `equal ${rest.map(({ key }) => rankingName(key)).join(" and ")}, so they share the place`;
  const { key, values } = rest[at];
  const groups = [...new Set(tied.map((t) => values[t]))].map((v) => tied.filter((t) => values[t] === v)).filter((g) => g.length > 1);
  const then = groups.map((group) => tieSaid(group, rest.slice(at + 1)));
  const name = rankingName(key);
  return [`ranked by ${name}`, ...[...new Set(then)].map((text) => `those on equal ${name}: ${text}`)].join("; ");
}

function finalView(final, seats, you, n, obs = {}) {
  const items = Object.entries(final).filter(([key]) => key !== "type");
  const ties = tieBreaks(obs, n);
  return h("div", { class: "final", id: "final-scoring" }, h("h3", {}, "Final scoring"),
    ties.said ? h("p", { class: "tie-break", id: "tie-break" }, "Tie: ", ties.said) : null,
    scrolling(h("table", { class: "grid final-scoring" },
      h("thead", {}, h("tr", {}, h("th", {}, "item"),
        Array.from({ length: n }, (_, s) => h("th", {}, seatLabel(seats, s), s === you ? " (you)" : "")))),
      h("tbody", {}, items.map(([key, value]) => h("tr", { "data-item": key, class: key === "vp" ? "total" : null },
        h("th", {}, FINAL_ITEMS[key] || key.replace(/_/g, " ")),
        Array.isArray(value) && value.length === n ? value.map((v) => h("td", {}, generic(v, seats)))
          : h("td", { colspan: n }, generic(value, seats)))),
      ties.rows.map(([key, label, values]) => h("tr", { "data-item": key, class: "tie-key" },
        h("th", {}, label), values.map((v) => h("td", {}, String(v)))))))));
}

// Where a marker comes from or goes to (`from`/`to` of guild-move, tragedy, rescue, specialize, court-b):
// a guild 1–6 by its name, the reserve, a royalty space or a discipline.
// The reserve is the mover's: "your reserve" on the person's own buttons, "their reserve" in another
// seat's move said or listed (a screen-reader probe heard "computer: tragedy: a marker from your reserve").
const whereText = (where, own) => (typeof where === "number" ? GUILDS[where] || `guild ${where}`
  : where === "reserve" ? (own ? "your reserve" : "their reserve") : String(where));

// The court's chairs I–X (docs/rules/jester.md, Play A): odd ones red (a penalty for the opponents), even
// ones blue. A button said only "court a: 3", so a person could not tell which chair hurts whom without
// the rules open (a web-play probe).
const ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"];
const CHAIR_EFFECTS = [
  "each opponent discards a card and takes a guild marker back",
  "a reserve marker to a guild, then take a card",
  "opponents lose 2 VP",
  "+$2 per object you made",
  "opponents lose $2",
  "+1 crown, +1 VP",
  "opponents take a guild marker back and lose 1 fame",
  "+$ half your fame",
  "opponents discard a card and lose 1 fame",
  "+1 crown, +$1",
];
// The round's event card (docs/rules/jester.md, "Events"): two of the four places' cards cost $2 this
// round, the other two $1. The page showed only the prices.
const EVENTS = [null, ["city", "theater"], ["city", "guilds"], ["city", "court"], ["theater", "guilds"],
  ["theater", "court"], ["guilds", "court"]];
const eventText = (events) => {
  const last = Array.isArray(events) && events.length ? events[events.length - 1] : null;
  return EVENTS[last] ? ` · event E${last}: ${EVENTS[last][0]} and ${EVENTS[last][1]} cards cost $2` : "";
};
export const chairText = (chair) => `chair ${ROMAN[chair - 1] || chair} (${chair % 2 ? "red" : "blue"}): ${CHAIR_EFFECTS[chair - 1] || ""}`;

export function describe(action, match = null, valueText = null, offered = true) {
  const words = action.type.replace(/-/g, " ");
  if (action.type === "court-a" && Number.isInteger(action.chair)) return `court A, ${chairText(action.chair)} (+$2 first)`;
  if (action.type === "setup-guild" && Array.isArray(action.guilds)) return `set up guilds: ${action.guilds.map((g) => GUILDS[g] || g).join(" + ")}`;
  if (action.type === "play" && action.place) return `play a ${action.place} card`;
  if ("from" in action || "to" in action) {
    // "guild move: a marker from your reserve to Merchants"
    const path = [action.from !== undefined && action.from !== null ? `from ${whereText(action.from, offered)}` : null,
      action.to !== undefined && action.to !== null ? `to ${whereText(action.to, offered)}` : null].filter(Boolean).join(" ");
    const others = Object.entries(action).filter(([k, v]) => !["type", "from", "to"].includes(k) && v !== null && v !== undefined)
      .map(([k, v]) => `${k.replace(/_/g, " ")} ${Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : v}`);
    return `${words}: a marker ${[path, ...others].filter(Boolean).join(" · ")}`;
  }
  // A part that does not apply is null (a suffering victim with no card to discard): left out, not "null".
  const rest = Object.entries(action).filter(([k, v]) => k !== "type" && v !== null && v !== undefined).map(([k, v]) =>
    k === "guild" ? GUILDS[v] || v : k === "discard" ? `discard a ${v} card` : k === "seat" || k === "target" ? `seat ${v}`
      : Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : v);
  return rest.length ? `${words}: ${rest.join(" · ")}` : words;
}
