// Tumult Royale (docs/rules/tumult-royale.md): the kingdom's fields (type and owner, the legal targets
// marked), the tax slots of the live collection (27, or 33/30 with the option set_aside "per-player") with its hourglass, the seat's held tile and castle,
// and every seat's rank, supporters and statues; the chronicle and the last tumults.
import { countdown, everyHand, generic, h, phaseName, plural, scrolling, seatLabel, seatName } from "../render.js";

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

// The region tiles (domain/games/tumult_royale/data.py REGION_TILES): number -> its 3 x 3 fields, rows top
// to bottom. An observation writes a face-down tile's fields as "?"; the state names every tile.
const REGION_TILES = {
  1: "PFM/VPC/FMP", 2: "MPF/PCP/FVM", 3: "PMP/FVF/CMP", 4: "FPM/CPV/PFM", 5: "PPF/MCM/VFP",
  6: "MFP/PVP/CFM", 7: "PVM/FPF/MCP", 8: "FMP/PCV/MPF", 9: "VPF/MPM/FCP", 10: "PFC/MVP/PMF",
};

// The kingdom's fields as the observation writes them ("/"-joined rows), from every position's region tile:
// 2 rows of tiles, regions.length / 2 wide (data.py COLUMNS). A tile the page does not know stays "?".
function fieldRows(regions) {
  const columns = regions.length / 2;
  return Array.from({ length: 6 }, (_, r) => Array.from({ length: 3 * columns }, (_, c) => {
    const rows = REGION_TILES[regions[Math.floor(r / 3) * columns + Math.floor(c / 3)]];
    return rows ? rows.split("/")[r % 3][c % 3] : "?";
  }).join("")).join("/");
}

// The region position of a field (data.py region_of), the board `width` fields wide.
const regionOf = (field, width) => Math.floor(Math.floor(field / width) / 3) * (width / 3) + Math.floor((field % width) / 3);

// A revealed match (finished: the whole state): every castle's kept tiles, the tile each seat holds during
// a tax collection, the face-down region tiles (`hidden_regions`: the positions still face down then) and
// the tiles under the face-down tax slots (`slot_tiles`), with the tiles set aside this round (twelve, or three a player).
export function reveal(obs, state) {
  const out = { ...obs };
  if (Array.isArray(obs.castles)) out.castles = state.castle.map(tileCodes);
  if (state.layout && Array.isArray(state.hand))
    out.every_hand = state.hand.map((slot) => (slot === null || slot === undefined ? null : tileCode(state.layout[slot])));
  if (typeof obs.fields === "string" && Array.isArray(state.regions) && Array.isArray(state.face_up)) {
    out.fields = fieldRows(state.regions);
    out.regions = [...state.regions];
    out.hidden_regions = state.face_up.flatMap((up, p) => (up ? [] : [p]));
  }
  if (typeof obs.slots === "string" && Array.isArray(state.layout)) {
    out.slot_tiles = state.layout.map((id) => (id === null || id === undefined ? null : tileCode(id)));
    if (Array.isArray(state.set_aside) && state.set_aside.length) out.set_aside = tileCodes(state.set_aside);
  }
  return out;
}

// The first enabled move button of ``field``, scrolled to the middle of the screen and focused.
function toMoves(field) {
  const button = document.querySelector(`#actions button.action[data-field="${field}"]:enabled`);
  if (!button) return;
  button.scrollIntoView({ block: "center" });
  button.focus({ preventScroll: true });
  // A touch draws no focus ring: the button is marked a moment (among 14-20 like it: a phone probe).
  button.classList.add("flash");
  setTimeout(() => button.classList.remove("flash"), 2000);
}

function board(obs, targets) {
  const types = obs.fields.split("/");
  const owners = (obs.owners || "").split("/");
  const width = types[0].length;
  const hidden = new Set(obs.hidden_regions || []); // revealed: the region tiles face down at this version
  return h("table", { class: "kingdom" }, types.map((row, r) => h("tr", {}, [...row].map((letter, c) => {
    const field = r * width + c;
    const owner = owners[r] ? owners[r][c] : ".";
    const down = hidden.has(regionOf(field, width));
    const classes = ["field", `f-${letter === "?" ? "down" : letter}`, down ? "was-down" : "", owner !== "." ? `owner-${owner}` : "",
      targets.has(field) ? "target" : "", c % 3 === 2 && c < width - 1 ? "region-edge" : "", r % 3 === 2 && r < types.length - 1 ? "region-bottom" : ""];
    const title = `field ${field}: ${FIELDS[letter] || letter}${down ? " (face down: revealed)" : ""}${owner !== "." ? `, seat ${owner}` : ""}`;
    // Said in words too (a title is not read by every screen reader, colour by none), so a move's button
    // ("first statue on field 18 (pasture)") matches a cell; the letter and statue drawn for the eye are not.
    // A field you may build on shows its number, as its move buttons name it, and a tap on it goes to
    // them: on a phone the number was only in a title (no hover) and hidden text, and six outlined pastures
    // could not be told apart from "18 (pasture)", "21 (pasture)" (a phone probe).
    const target = targets.has(field);
    return h("td", { class: classes.filter(Boolean).join(" "), title, "data-field": field,
      onclick: target ? () => toMoves(field) : null },
      h("span", { class: "letter", "aria-hidden": "true" }, letter === "?" ? "" : letter),
      target ? h("span", { class: "num", "aria-hidden": "true" }, String(field)) : null,
      owner !== "." ? h("span", { class: "statue", "aria-hidden": "true" }, owner) : null,
      h("span", { class: "visually-hidden" }, `${title}${target ? " (you may put a statue here)" : ""}`));
  }))));
}

// The centre's tax slots: face down (d), held by a seat (h, its digit), kept (k). A revealed match names the
// tile under a face-down or held slot (`slot_tiles`).
function slots(obs, you) {
  const mine = typeof you === "number" && obs.holding ? obs.holding[you] : null;
  const under = obs.slot_tiles || [];
  return h("div", { class: "slots" }, [...obs.slots].map((mark, i) => {
    const code = mark !== "k" ? under[i] : null;
    const what = code ? `${SLOTS[mark] || mark}, ${TILE[code[0]] || code} ${code.slice(1)}${mark === "d" ? " (revealed)" : ""}` : SLOTS[mark] || mark;
    const holders = mark === "h" ? (obs.holding || []).map((held, s) => (held === i ? `${s}` : "")).join("") : "";
    // An image named in words: face down, held (by whom, whether by you) or kept were told by colour and outline.
    const said = `tile ${i}: ${what}${holders ? ` by seat ${[...holders].join(", ")}` : ""}${i === mine ? " (yours: you hold it)" : ""}`;
    return h("span", { class: `slot ${mark}${code ? ` shown ${TILE[code[0]] || ""}` : ""}${i === mine ? " mine" : ""}`, title: `tile ${i}: ${what}`,
      "data-tile": code || null, role: "img", "aria-label": said },
      mark === "h" ? holders : mark === "k" ? "✓" : code || String(i));
  }));
}

export function view(obs, seats, you, match) {
  const n = obs.supporters.length;
  const acting = new Set(obs.to_act || []);
  const targets = new Set((match.legal_actions || []).filter((a) => typeof a.field === "number").map((a) => a.field));
  const timed = match.timer && match.timer.deadline;
  const rows = Array.from({ length: n }, (_, s) => h("tr", { class: acting.has(s) ? "acting" : "" },
    h("th", {}, h("span", { class: `statue owner-${s}` }, s), " ", seatLabel(seats, s), s === you ? " (you)" : ""),
    h("td", {}, obs.ranks ? obs.ranks[s] : "—"), h("td", { class: "supporters" }, obs.supporters[s]),
    h("td", {}, `${obs.statues_placed[s]} / 25`), h("td", {}, obs.mercy[s] ? "yes" : ""),
    h("td", {}, obs.castles ? (Array.isArray(obs.castles[s]) ? (obs.castles[s].length ? h("span", { class: "chips" }, obs.castles[s].map(tile)) : none("empty"))
      : `${plural(obs.castles[s], "tile")}, face down`) : none()),
    h("td", {}, [obs.ready && obs.ready[s] ? "ready" : null, obs.collecting && obs.collecting[s] ? "collecting" : null,
      obs.holding && obs.holding[s] !== null ? `holds tile ${obs.holding[s]}` : null, obs.passed && obs.passed[s] ? "passed" : null]
      .filter(Boolean).join(" · "))));
  const held = obs.hand ? h("p", { class: "held" }, "You hold tile ", obs.hand.slot, ": ", tile(`${obs.hand.commodity[0].toUpperCase()}${obs.hand.value}`),
    " — keep it or put it back") : null;
  return h("div", { class: "tumult-royale" },
    h("p", { class: "phase" }, `Round ${obs.round} · phase: `, h("b", {}, obs.phase),
      obs.demand !== null && obs.demand !== undefined ? ` · the king demands ${obs.demand}` : "",
      timed ? [" · ", countdown(match.timer.deadline, `hourglass (${phaseName(match.timer.phase)})`, "hourglass")] : null),
    obs.fields ? h("div", { class: "kingdom-box" }, h("h3", {}, "The kingdom"), scrolling(board(obs, targets)),
      // A face-down field is drawn hatched, without its "?" (the legend said "? face down": a newcomer probe).
      h("p", { class: "muted legend" }, Object.entries(FIELDS).map(([k, v]) => (k === "?" ? `hatched: ${v}` : `${k} ${v}`)).join(" · "),
        targets.size ? " · marked and numbered: where you may put a statue (tap one for its move)" : "",
        obs.hidden_regions && obs.hidden_regions.length ? " · outlined: region tiles still face down here, revealed" : "")) : null,
    obs.slots ? h("div", { class: "taxes" }, h("h3", {}, "Tax collection"), slots(obs, you), held,
      obs.set_aside ? h("p", { class: "set-aside" }, "Set aside this round (unseen): ", h("span", { class: "chips" }, obs.set_aside.map(tile))) : null,
      everyHand(obs.every_hand, seats, you, (code) => (code ? tile(code) : none("no tile held")))) : null,
    obs.centre ? h("div", {}, h("h3", {}, "Centre"), h("span", { class: "chips" }, obs.centre.map(tile))) : null,
    scrolling(h("table", { class: "grid" },
      // "nobility": the seat's nobility rank (1 the king or queen), not its place in the match, which the
      // Result above gives: both read "rank" (a desktop probe).
      h("thead", {}, h("tr", {}, ["seat", "nobility", "supporters", "statues", "mercy", "castle"].map((t) => h("th", {}, t)), h("th", {}, "now"))),
      h("tbody", {}, rows))),
    h("p", {}, h("b", {}, "Chronicle: "), obs.chronicle.length ? obs.chronicle.map((k, i) => [i ? " · " : "", seatLabel(seats, k)]) : none("empty")),
    obs.tumults ? h("div", {}, h("h3", {}, "Tumults this round"), generic(obs.tumults, seats)) : null,
    obs.result ? h("div", { class: "end-said" }, h("h3", {}, "How it ended"), h("p", { id: "tumult-end" }, endSaid(obs.result, seats))) : null);
}

// The end in words (docs/rules/tumult-royale.md, "End and result"): the 25th statue wins at once; else the
// most statues placed, ties to the higher nobility rank. The box dumped the result's fields ("reason:
// chronicle threshold", "nobility: 2, 3, 1") under a second "Result" heading (a desktop probe).
export function endSaid(result, seats) {
  const detail = result.detail || {};
  const winners = (result.winners || []).map((s) => seatName(seats, s)).join(" and ");
  const why = { "25th statue": "placed the 25th statue, which wins at once",
    "chronicle threshold": "the royal chronicle reached its threshold", "tenth round": "the tenth round ended" }[detail.reason]
    || String(detail.reason || "the game ended");
  if (detail.reason === "25th statue") return `${winners} ${why}${typeof detail.round === "number" ? ` (round ${detail.round})` : ""}.`;
  const placed = detail.statues_placed || result.scores || [];
  const best = Math.max(...placed);
  const tied = placed.map((v, s) => s).filter((s) => placed[s] === best);
  const tie = tied.length > 1 ? ` ${tied.map((s) => seatName(seats, s)).join(" and ")} placed ${best} each: the higher `
    + `nobility rank (1 the king or queen) took the higher place.` : "";
  return `The game ended${typeof detail.round === "number" ? ` in round ${detail.round}` : ""}: ${why}. The most statues `
    + `placed win: ${winners}, with ${best}.${tie}`;
}

// docs/rules/tumult-royale.md: a seat that said done "has no action left this round"; a pass ends the
// seat's placement for the round.
export function idle(obs, you) {
  if (obs.collecting && obs.collecting[you] === false && obs.phase === "tax") return "You are done collecting taxes this round.";
  if (obs.passed && obs.passed[you] && obs.phase === "placement") return "You passed: you place no more statues this round.";
  return null;
}

export function describe(action, match) {
  const fields = match.observation && match.observation.fields ? match.observation.fields.replace(/\//g, "") : "";
  const where = (f) => `field ${f}${fields[f] && fields[f] !== "?" ? ` (${FIELDS[fields[f]]})` : ""}`;
  // docs/rules/tumult-royale.md, Setup: region position = (row // 3) * columns + col // 3, on 6 × (3·columns) fields.
  const firstRow = match.observation && typeof match.observation.fields === "string" ? match.observation.fields.split("/")[0] : "";
  const columns = firstRow.length / 3;
  switch (action.type) {
    case "first-statue": return typeof action.field === "number" ? `first statue on ${where(action.field)}` : null;
    case "place": return typeof action.field === "number" ? `statue on ${where(action.field)}, pay ${payText(action.pay)}` : null;
    case "peek": return typeof action.tile === "number" ? `take tile ${action.tile}` : "take a tile";
    case "keep": return "keep the tile";
    case "return": return "put the tile back";
    case "done": return "done collecting";
    case "ready": return "ready (the hourglass starts once everyone is)";
    case "reveal": return Number.isInteger(action.region) && columns ? `reveal the region tile at row ${Math.floor(action.region / columns) + 1}, `
      + `column ${action.region % columns + 1} (regions of 3 × 3 fields)` : `reveal region ${action.region}`;
    default: return null;
  }
}

// The actions drawn as a tight group (render.js compactOf), the first two screens of a phone's table:
// the tax collection's "take tile N" by the tile's number, as the tax slots show it; the first statue's
// fields by number and type, as the kingdom's cells name them.
export function compact(action, match, label) {
  if (action.type === "peek" && typeof action.tile === "number")
    return { group: "peek", caption: "Take tile", shown: String(action.tile) };
  if (action.type === "first-statue" && typeof action.field === "number" && label.startsWith("first statue on field "))
    return { group: "first-statue", caption: "First statue on field", shown: label.slice("first statue on field ".length) };
  return null;
}

// The tiles a payment discards, one by one ("bread 3 + marble 2"): it read "3 bread, 2 marble, tools", naming a
// commodity not paid, and two tiles of one as "1,1 tools" (a web-play probe).
function payText(pay) {
  if (Array.isArray(pay)) return pay.join("/");
  if (pay && typeof pay === "object") {
    const tiles = Object.entries(pay).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((value) => `${k} ${value}`));
    return tiles.length ? tiles.join(" + ") : "nothing";
  }
  return String(pay);
}

// docs/rules/tumult-royale.md, "Tax collection": at least 0.6 s between a seat's peeks (the server's
// cooldown); no other action waits.
export function cooldown(action) {
  return action.type === "peek" ? 0.6 : 0;
}
