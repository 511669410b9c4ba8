// Tumult Royale (docs/rules/tumult-royale.md): the kingdom's fields (type and owner, the legal targets
// marked), the 27 tax slots of the live collection with its hourglass, the seat's held tile and castle,
// and every seat's rank, supporters and statues; the chronicle and the last tumults.
import { countdown, everyHand, generic, h, quietHeader, scrolling, seatName } from "../render.js";

const FIELDS = { P: "pasture", F: "forest", M: "mountain", V: "village", C: "palace", "?": "face down" };
const SLOTS = { d: "face down", h: "held", k: "kept" };
const TILE = { B: "bread", M: "marble", T: "tools" };
const none = (text = "—") => h("span", { class: "muted" }, text);

const tile = (code) => h("span", { class: `chip tile ${TILE[code[0]] || ""}`, title: `${TILE[code[0]] || code} ${code.slice(1)}` },
  `${TILE[code[0]] || code} ${code.slice(1)}`);

// A tile's id as the state holds it (domain/games/tumult_royale/data.py TILES: 13 per commodity, bread,
// marble, tools; values 1,1,1,1,1,2,2,2,2,2,3,3,3) -> its code, as observations write it ("B2").
const TILE_VALUES = [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3];
const tileCode = (id) => `${"BMT"[Math.floor(id / 13)]}${TILE_VALUES[id % 13]}`;
const tileCodes = (ids) => [...ids].sort((a, b) => a - b).map(tileCode);

// A revealed match (finished: the whole state): every castle's kept tiles and the tile each seat holds
// during a tax collection. The face-down region tiles stay as the observation draws them.
export function reveal(obs, state) {
  const out = { ...obs };
  if (Array.isArray(obs.castles)) out.castles = state.castle.map(tileCodes);
  if (state.layout && Array.isArray(state.hand))
    out.every_hand = state.hand.map((slot) => (slot === null || slot === undefined ? null : tileCode(state.layout[slot])));
  return out;
}

function board(obs, targets) {
  const types = obs.fields.split("/");
  const owners = (obs.owners || "").split("/");
  const width = types[0].length;
  return h("table", { class: "kingdom" }, types.map((row, r) => h("tr", {}, [...row].map((letter, c) => {
    const field = r * width + c;
    const owner = owners[r] ? owners[r][c] : ".";
    const classes = ["field", `f-${letter === "?" ? "down" : letter}`, owner !== "." ? `owner-${owner}` : "",
      targets.has(field) ? "target" : "", c % 3 === 2 && c < width - 1 ? "region-edge" : "", r % 3 === 2 && r < types.length - 1 ? "region-bottom" : ""];
    return h("td", { class: classes.join(" "), title: `field ${field}: ${FIELDS[letter] || letter}${owner !== "." ? `, seat ${owner}` : ""}`, "data-field": field },
      h("span", { class: "letter" }, letter === "?" ? "" : letter), owner !== "." ? h("span", { class: "statue" }, owner) : null);
  }))));
}

function slots(obs, you) {
  const mine = typeof you === "number" && obs.holding ? obs.holding[you] : null;
  return h("div", { class: "slots" }, [...obs.slots].map((mark, i) => h("span", {
    class: `slot ${mark}${i === mine ? " mine" : ""}`, title: `tile ${i}: ${SLOTS[mark] || mark}` },
  mark === "h" ? (obs.holding || []).map((held, s) => (held === i ? `${s}` : "")).join("") : mark === "k" ? "✓" : String(i))));
}

export function view(obs, seats, you, match) {
  const n = obs.supporters.length;
  const acting = new Set(obs.to_act || []);
  const targets = new Set((match.legal_actions || []).filter((a) => typeof a.field === "number").map((a) => a.field));
  const timed = match.timer && match.timer.deadline;
  const rows = Array.from({ length: n }, (_, s) => h("tr", { class: acting.has(s) ? "acting" : "" },
    h("th", {}, h("span", { class: `statue owner-${s}` }, s), " ", seatName(seats, s), s === you ? " (you)" : ""),
    h("td", {}, obs.ranks ? obs.ranks[s] : "—"), h("td", { class: "supporters" }, obs.supporters[s]),
    h("td", {}, `${obs.statues_placed[s]} / 25`), h("td", {}, obs.mercy[s] ? "yes" : ""),
    h("td", {}, obs.castles ? (Array.isArray(obs.castles[s]) ? (obs.castles[s].length ? h("span", { class: "chips" }, obs.castles[s].map(tile)) : none("empty"))
      : `${obs.castles[s]} tile(s), face down`) : none()),
    h("td", {}, [obs.ready && obs.ready[s] ? "ready" : null, obs.collecting && obs.collecting[s] ? "collecting" : null,
      obs.holding && obs.holding[s] !== null ? `holds tile ${obs.holding[s]}` : null, obs.passed && obs.passed[s] ? "passed" : null]
      .filter(Boolean).join(" · "))));
  const held = obs.hand ? h("p", { class: "held" }, "You hold tile ", obs.hand.slot, ": ", tile(`${obs.hand.commodity[0].toUpperCase()}${obs.hand.value}`),
    " — keep it or put it back") : null;
  return h("div", { class: "tumult-royale" },
    h("p", { class: "phase" }, `Round ${obs.round} · phase: `, h("b", {}, obs.phase),
      obs.demand !== null && obs.demand !== undefined ? ` · the king demands ${obs.demand}` : "",
      timed ? [" · ", countdown(match.timer.deadline, `hourglass (${match.timer.phase})`, "hourglass")] : null),
    obs.fields ? h("div", { class: "kingdom-box" }, h("h3", {}, "The kingdom"), scrolling(board(obs, targets)),
      h("p", { class: "muted legend" }, Object.entries(FIELDS).map(([k, v]) => `${k} ${v}`).join(" · "),
        targets.size ? " · marked: where you may put a statue" : "")) : null,
    obs.slots ? h("div", { class: "taxes" }, h("h3", {}, "Tax collection"), slots(obs, you), held,
      everyHand(obs.every_hand, seats, you, (code) => (code ? tile(code) : none("no tile held")))) : null,
    obs.centre ? h("div", {}, h("h3", {}, "Centre"), h("span", { class: "chips" }, obs.centre.map(tile))) : null,
    scrolling(h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, ["seat", "rank", "supporters", "statues", "mercy", "castle"].map((t) => h("th", {}, t)), quietHeader("collecting"))),
      h("tbody", {}, rows))),
    h("p", {}, h("b", {}, "Chronicle: "), obs.chronicle.length ? obs.chronicle.map((k) => seatName(seats, k)).join(" · ") : none("empty")),
    obs.tumults ? h("div", {}, h("h3", {}, "Tumults this round"), generic(obs.tumults, seats)) : null,
    obs.result ? h("div", {}, h("h3", {}, "Result"), generic(obs.result, seats)) : null);
}

export function describe(action, match) {
  const fields = match.observation && match.observation.fields ? match.observation.fields.replace(/\//g, "") : "";
  const where = (f) => `field ${f}${fields[f] && fields[f] !== "?" ? ` (${FIELDS[fields[f]]})` : ""}`;
  switch (action.type) {
    case "first-statue": return typeof action.field === "number" ? `first statue on ${where(action.field)}` : null;
    case "place": return typeof action.field === "number" ? `statue on ${where(action.field)}, pay ${payText(action.pay)}` : null;
    case "peek": return typeof action.tile === "number" ? `take tile ${action.tile}` : "take a tile";
    case "keep": return "keep the tile";
    case "return": return "put the tile back";
    case "done": return "done collecting";
    case "ready": return "ready";
    case "reveal": return `reveal region ${action.region}`;
    default: return null;
  }
}

function payText(pay) {
  if (Array.isArray(pay)) return pay.join("/");
  if (pay && typeof pay === "object") return Object.entries(pay).map(([k, v]) => `${v} ${k}`).join(", ");
  return String(pay);
}

// docs/rules/tumult-royale.md, "Tax collection": at least 0.6 s between a seat's peeks (the server's
// cooldown); no other action waits.
export function cooldown(action) {
  return action.type === "peek" ? 0.6 : 0;
}
