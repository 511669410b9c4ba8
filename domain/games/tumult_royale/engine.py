"""Tumult Royale (Klaus & Benjamin Teuber, Kosmos 2015) as a pure rule engine.

Rules as implemented: docs/rules/tumult-royale.md. Rule citations: "rulebook <step>" for the rulebook
text, "house rule 4.5 <topic>" for /work/shared/rules/house-rules.md section 4.5, "engine <topic>" for
decisions documented in the rules document.
"""

from __future__ import annotations

import itertools
import marshal
import random
from math import factorial
from functools import lru_cache
from typing import Any, Mapping, Optional

from domain.engine import (
    CHANCE,
    SYSTEM,
    Engine,
    IllegalAction,
    InvalidOptions,
    Result,
    Timer,
    ToAct,
)

from . import data as D

PLAYER_PHASES = ("first-statues", "tax", "placement", "reveal")
AUTO_PHASES = ("tumults", "round-end")
CHANCE_PHASES = ("regions", "deal", "shuffle", "spin")


def _copy(value):
    # JSON-like data (dict, list, int, str, bool, None): marshal round-trips it exactly and fast.
    return marshal.loads(marshal.dumps(value))


def _copy_state(state: dict) -> dict:
    """A copy of the state deep enough for apply to mutate: every list one level down, the nested
    lists (castles, chronicle) two levels. ``last_tumults`` and ``options`` are never mutated in place."""
    s = dict(state)
    for key, value in s.items():
        if type(value) is list:
            s[key] = value[:]
    s["castle"] = [c[:] for c in state["castle"]]
    s["chronicle"] = [c[:] for c in state["chronicle"]]
    return s


def _codes(tiles) -> list:
    """Tiles as short codes, sorted: "B2" = a bread tile showing 2, "M" marble, "T" tools."""
    return list(_codes_cached(tuple(tiles))) if tiles else []


@lru_cache(maxsize=8192)
def _codes_cached(tiles: tuple) -> tuple:
    return tuple(_CODES[t] for t in sorted(tiles))


_CODES = tuple("BMT"[c] + str(v) for c, v in D.TILES)
_OWNER_CHARS = {None: ".", 0: "0", 1: "1", 2: "2", 3: "3"}


@lru_cache(maxsize=8192)
def _owner_rows(board: tuple, width: int) -> str:
    text = "".join([_OWNER_CHARS[o] for o in board])
    return "/".join(text[i : i + width] for i in range(0, len(text), width))


@lru_cache(maxsize=4096)
def _type_rows(n: int, regions: tuple, face_up: tuple) -> str:
    text = "".join("?" if t is None else t for t in D.field_types(n, regions, face_up))
    w = D.width(n)
    return "/".join(text[i : i + w] for i in range(0, len(text), w))


def _is_int(value) -> bool:
    return type(value) is int


def _keys(action, expected: set, rule: str) -> None:
    if not isinstance(action, dict) or set(action) != expected:
        raise IllegalAction(rule, f"this action must have exactly the keys {sorted(expected)}")


class TumultRoyale(Engine):
    name = "tumult-royale"
    title = "Tumult Royale"
    rules_version = "1.0.0"
    min_players = 2
    max_players = 4
    summary = (
        "Greedy royals grab commodity tiles in a timed tax collection, risk the people's tumult, "
        "and spend their loot on statues; most statues placed wins."
    )

    # -- options -------------------------------------------------------------------------------
    def default_options(self) -> dict:
        return {"gamble": False, "tax_seconds": 20, "tax_mode": "live"}

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> dict:
        options = dict(options)
        seconds = options.pop("tax_seconds", 20)
        merged = super().check_options(num_players, options)
        if type(seconds) not in (int, float) or not 1 <= seconds <= 600:
            raise InvalidOptions("tumult-royale options", "tax_seconds must be a number from 1 to 600")
        merged["tax_seconds"] = seconds
        if merged["tax_mode"] not in ("live", "async"):
            raise InvalidOptions("tumult-royale options", "tax_mode must be 'live' or 'async'")
        return merged

    # -- setting up ----------------------------------------------------------------------------
    def initial_state(self, num_players: int, options: Mapping[str, Any]) -> dict:
        options = self.check_options(num_players, options)
        n = num_players
        start = D.START_SUPPORTERS[n]
        return {
            "n": n,
            "options": dict(options),
            "phase": "regions",
            "round": 0,
            "regions": None,  # position -> region tile number (1-10)
            "boxed": None,  # the region tiles not used
            "face_up": [p not in D.FACE_DOWN[n] for p in range(2 * D.COLUMNS[n])],
            "board": [None] * D.num_fields(n),  # field -> owning seat
            "ranks": None,  # seat -> nobility rank (1 = king)
            "supporters": [start] * n,
            "pool": D.SUPPORTER_TOTAL - start * n,  # unbounded: may go below 0
            "statues_left": [D.STATUES] * n,  # statues still on the castle board
            "chronicle": [],  # [seat, statues] per space
            "mercy": [False] * n,
            "demand": None,
            "turn": None,
            # commodity tiles
            "layout": None,  # during tax collection: slot -> tile id, None once kept
            "set_aside": [],
            "centre": list(range(D.NUM_TILES)),  # face-up tiles in the centre (after the reveal)
            "castle": [[] for _ in range(n)],
            "spent": [],
            "hand": [None] * n,  # slot held (peeked) by each seat
            "revealed": False,
            # per-round flags
            "collecting": [False] * n,
            "peeks": [0] * n,
            "passed": [False] * n,
            "placed_round": [0] * n,
            "greedy": [False] * n,
            "reveals_left": 0,
            "last_tumults": None,
            "winner25": None,
            "end": None,
        }

    # -- whose move ----------------------------------------------------------------------------
    def to_act(self, state) -> ToAct:
        phase = state["phase"]
        if phase == "over":
            return ToAct.over()
        if phase in CHANCE_PHASES:
            return ToAct.chance()
        if phase in AUTO_PHASES:
            return ToAct.auto()
        if phase == "tax" and state["options"]["tax_mode"] == "live":
            return ToAct.players(*[s for s in range(state["n"]) if state["collecting"][s]])
        return ToAct.players(state["turn"])

    def _seats_to_act(self, state) -> list:
        phase = state["phase"]
        if phase in PLAYER_PHASES:
            if phase == "tax" and state["options"]["tax_mode"] == "live":
                return [s for s, c in enumerate(state["collecting"]) if c]
            return [state["turn"]]
        return []

    def _order(self, state) -> list:
        """Seats in rank order, king first."""
        return sorted(range(state["n"]), key=lambda s: state["ranks"][s])

    def _types(self, state) -> tuple:
        return D.field_types(state["n"], tuple(state["regions"]), tuple(state["face_up"]))

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self, state, seat: int) -> list:
        if seat not in self.to_act(state).seats:
            return []
        phase = state["phase"]
        if phase == "first-statues":
            types = self._types(state)
            return [
                {"type": "first-statue", "field": f}
                for f, t in enumerate(types)
                if t == "P" and state["board"][f] is None
            ]
        if phase == "tax":
            if state["hand"][seat] is not None:
                return [{"type": "keep"}, {"type": "return"}]
            actions = []
            if state["options"]["tax_mode"] == "live" or state["peeks"][seat] < D.ASYNC_PEEKS:
                actions = [{"type": "peek", "tile": i} for i in self._peekable(state)]
            actions.append({"type": "done"})
            return actions
        if phase == "placement":
            actions = []
            for f, t, mult in self._candidate_fields(state, seat):
                for pay in self._payments(state, seat, t, mult):
                    actions.append({"type": "place", "field": f, "pay": pay})
            actions.append({"type": "pass"})
            return actions
        if phase == "reveal":
            return [
                {"type": "reveal", "region": p}
                for p in range(len(state["face_up"]))
                if not state["face_up"][p]
            ]
        return []

    def _peekable(self, state) -> list:
        held = set(h for h in state["hand"] if h is not None)
        return [i for i, t in enumerate(state["layout"]) if t is not None and i not in held]

    def _candidate_fields(self, state, seat):
        """(field, type, cost multiplier) of every field ``seat`` may build on, ignoring commodities."""
        types = self._types(state)
        board = state["board"]
        nb = D.neighbours(state["n"])
        left = state["statues_left"][seat]
        for f, t in enumerate(types):
            if t is None or board[f] is not None or left < D.COSTS[t][1]:
                continue
            if any(board[g] == seat for g in nb[f]):
                yield f, t, 1
            elif t in "PF" and any(types[g] in ("V", "C", "M") for g in nb[f]):
                yield f, t, 2

    def _counts(self, castle) -> list:
        counts = [[0, 0, 0, 0] for _ in range(3)]
        for tile in castle:
            c, v = D.TILES[tile]
            counts[c][v] += 1
        return counts

    def _payments(self, state, seat, t, mult) -> list:
        counts = self._counts(state["castle"][seat])
        cost = D.COSTS[t][0]
        per = []
        for c in range(3):
            need = cost[c] * mult
            cc = counts[c]
            opts = D.pay_options(min(cc[1], need), min(cc[2], need), min(cc[3], need), need)
            if not opts:
                return []
            per.append(opts)
        return [
            {"bread": list(b), "marble": list(m), "tools": list(o)}
            for b, m, o in itertools.product(*per)
        ]

    def _can_place(self, state, seat) -> bool:
        counts = self._counts(state["castle"][seat])
        units = [cc[1] + 2 * cc[2] + 3 * cc[3] for cc in counts]
        # cheapest costs: every field type needs at least one of these three
        if not (
            (units[0] >= 1 and units[1] >= 1)  # pasture / forest / mountain
            or (units[0] >= 2 and units[2] >= 2)  # village
            or (units[1] >= 2 and units[2] >= 3)  # palace
        ):
            return False
        for f, t, mult in self._candidate_fields(state, seat):
            cost = D.COSTS[t][0]
            if units[0] >= cost[0] * mult and units[1] >= cost[1] * mult and units[2] >= cost[2] * mult:
                return True
        return False

    # -- checking ------------------------------------------------------------------------------
    def check_action(self, state, seat, action) -> None:
        turn = self.to_act(state)
        if not _is_int(seat) or turn.kind != "players" or seat not in turn.seats:
            raise IllegalAction("turn order", "it is not this seat's turn to act")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("action format", "an action is a JSON object with a 'type'")
        phase = state["phase"]
        kind = action["type"]
        if phase == "first-statues":
            if kind != "first-statue":
                raise IllegalAction("rulebook Placing the First Statue", "place your first statue now")
            _keys(action, {"type", "field"}, "rulebook Placing the First Statue")
            f = action["field"]
            if not _is_int(f) or not 0 <= f < len(state["board"]):
                raise IllegalAction("rulebook Placing the First Statue", "no such field")
            if self._types(state)[f] != "P":
                raise IllegalAction(
                    "rulebook Placing the First Statue", "the first statue must go on a pasture"
                )
            if state["board"][f] is not None:
                raise IllegalAction("rulebook Placing the First Statue", "that pasture is occupied")
            return
        if phase == "tax":
            self._check_tax(state, seat, action)
            return
        if phase == "placement":
            self._check_placement(state, seat, action)
            return
        if phase == "reveal":
            rule = "rulebook The Royal Chronicle (space 3)"
            if kind != "reveal":
                raise IllegalAction(rule, "the king must reveal a face-down region tile now")
            _keys(action, {"type", "region"}, rule)
            p = action["region"]
            if not _is_int(p) or not 0 <= p < len(state["face_up"]) or state["face_up"][p]:
                raise IllegalAction(rule, "that is not a face-down region tile")
            return
        raise IllegalAction("turn order", "no player acts now")

    def _check_tax(self, state, seat, action) -> None:
        rule = "rulebook 2 Get Taxes"
        kind = action["type"]
        hand = state["hand"][seat]
        if kind == "peek":
            _keys(action, {"type", "tile"}, rule)
            i = action["tile"]
            if hand is not None:
                raise IllegalAction(rule, "you may look at only one tile at a time: keep or return it first")
            if state["options"]["tax_mode"] == "async" and state["peeks"][seat] >= D.ASYNC_PEEKS:
                raise IllegalAction("house rule 4.5 asynchronous mode", "you have used your 8 peeks")
            if not _is_int(i) or not 0 <= i < D.CENTRE_SLOTS or state["layout"][i] is None:
                raise IllegalAction(rule, "that is not a face-down tile in the centre")
            if i in state["hand"]:
                raise IllegalAction("house rule 4.5 digital tax collection", "another player holds that tile")
            return
        if kind in ("keep", "return"):
            _keys(action, {"type"}, rule)
            if hand is None:
                raise IllegalAction(rule, "you hold no tile")
            return
        if kind == "done":
            _keys(action, {"type"}, rule)
            if hand is not None:
                raise IllegalAction(rule, "keep or return the tile in your hand first")
            return
        raise IllegalAction(rule, f"unknown tax-collection action {kind!r}")

    def _check_placement(self, state, seat, action) -> None:
        rule = "rulebook 4 Set Up Statues"
        kind = action["type"]
        if kind == "pass":
            _keys(action, {"type"}, rule)
            return
        if kind != "place":
            raise IllegalAction(rule, "place a statue or pass")
        _keys(action, {"type", "field", "pay"}, rule)
        f, pay = action["field"], action["pay"]
        if not _is_int(f) or not 0 <= f < len(state["board"]):
            raise IllegalAction(rule, "no such field")
        if not isinstance(pay, dict) or set(pay) != set(D.COMMODITIES):
            raise IllegalAction(rule, "pay must list the tile values paid for bread, marble and tools")
        for values in pay.values():
            if not isinstance(values, list) or not all(_is_int(v) and 1 <= v <= 3 for v in values):
                raise IllegalAction(rule, "each payment is a list of tile values 1 to 3")
        types = self._types(state)
        t = types[f]
        if t is None:
            raise IllegalAction("rulebook The Royal Chronicle", "that field lies on a face-down region tile")
        if state["board"][f] is not None:
            raise IllegalAction(rule, "that field is already occupied")
        cost, size = D.COSTS[t]
        if state["statues_left"][seat] < size:
            raise IllegalAction(rule, f"a {D.FIELD_NAMES[t]} needs {size} statues at once")
        nb = D.neighbours(state["n"])
        if any(state["board"][g] == seat for g in nb[f]):
            mult = 1
        elif t in "PF":
            if not any(types[g] in ("V", "C", "M") for g in nb[f]):
                raise IllegalAction(
                    rule + " (distant pasture/forest)",
                    "a distant pasture or forest must touch a village, palace or mountain",
                )
            mult = 2
        else:
            raise IllegalAction(rule + " (adjacency)", "the field must be orthogonally next to one of your statues")
        counts = self._counts(state["castle"][seat])
        for c, name in enumerate(D.COMMODITIES):
            need = cost[c] * mult
            paid = sorted(pay[name])
            have = counts[c]
            if any(paid.count(v) > have[v] for v in (1, 2, 3)):
                raise IllegalAction(rule + " (payment)", f"you do not hold those {name} tiles")
            if sum(paid) < need:
                raise IllegalAction(rule + " (payment)", f"this field needs {need} {name}")
            if paid and sum(paid) - paid[0] >= need:
                raise IllegalAction(
                    rule + " (no excess tiles)", f"you may only use the {name} tiles needed for the payment"
                )

    # -- chance --------------------------------------------------------------------------------
    def chance_outcomes(self, state):
        phase = state["phase"]
        if phase == "spin":
            return [({"type": "spin", "value": v}, 1 / len(D.SPINNER)) for v in D.SPINNER]
        if phase == "deal":
            n = state["n"]
            p = 1 / factorial(n)
            return [
                ({"type": "deal", "ranks": list(perm)}, p)
                for perm in itertools.permutations(range(1, n + 1))
            ]
        return None

    def sample_chance(self, state, rng: random.Random):
        phase = state["phase"]
        if phase == "regions":
            return {"type": "regions", "order": rng.sample(range(1, 11), 10)}
        if phase == "deal":
            return {"type": "deal", "ranks": rng.sample(range(1, state["n"] + 1), state["n"])}
        if phase == "shuffle":
            return {"type": "shuffle", "order": rng.sample(range(D.NUM_TILES), D.NUM_TILES)}
        if phase == "spin":
            return {"type": "spin", "value": rng.choice(D.SPINNER)}
        raise IllegalAction("chance", "no chance step now")

    def chance_is_public(self, state, outcome) -> bool:
        return isinstance(outcome, dict) and outcome.get("type") in ("spin", "deal")

    def _check_chance(self, state, outcome) -> None:
        phase = state["phase"]
        if phase not in CHANCE_PHASES:
            raise IllegalAction("chance", "no chance step now")
        expected = {"regions": "regions", "deal": "deal", "shuffle": "shuffle", "spin": "spin"}[phase]
        if not isinstance(outcome, dict) or outcome.get("type") != expected:
            raise IllegalAction("chance", f"a {expected!r} outcome is expected")
        if phase == "regions":
            _keys(outcome, {"type", "order"}, "chance")
            o = outcome["order"]
            ok = isinstance(o, list) and all(_is_int(x) for x in o) and sorted(o) == list(range(1, 11))
            if not ok:
                raise IllegalAction("chance", "order must be a permutation of the region tiles 1-10")
        elif phase == "deal":
            _keys(outcome, {"type", "ranks"}, "chance")
            r = outcome["ranks"]
            n = state["n"]
            if not isinstance(r, list) or not all(_is_int(x) for x in r) or sorted(r) != list(range(1, n + 1)):
                raise IllegalAction("chance", "ranks must be a permutation of 1..n")
        elif phase == "shuffle":
            _keys(outcome, {"type", "order"}, "chance")
            o = outcome["order"]
            if (
                not isinstance(o, list)
                or not all(_is_int(x) for x in o)
                or sorted(o) != list(range(D.NUM_TILES))
            ):
                raise IllegalAction("chance", "order must be a permutation of the 39 tiles")
        else:
            _keys(outcome, {"type", "value"}, "chance")
            if not _is_int(outcome["value"]) or outcome["value"] not in D.SPINNER:
                raise IllegalAction("chance", "the spinner shows 2 to 5")

    # -- automatic steps -----------------------------------------------------------------------
    def timer(self, state) -> Optional[Timer]:
        if state["phase"] == "tax" and state["options"]["tax_mode"] == "live":
            return Timer(f"tax-{state['round']}", state["options"]["tax_seconds"])
        return None

    def timeout_action(self, state) -> dict:
        if self.timer(state) is None:
            raise IllegalAction("house rule 4.5 digital tax collection", "no timed phase now")
        return {"type": "close-tax"}

    def cooldown(self, state, seat, action) -> float:
        if isinstance(action, dict) and action.get("type") == "peek":
            return D.PEEK_COOLDOWN
        return 0.0

    def auto_action(self, state) -> dict:
        phase = state["phase"]
        if phase == "tumults":
            return self._compute_tumults(state)
        if phase == "round-end":
            return self._compute_round_end(state)
        raise IllegalAction("auto", "no automatic step now")

    def _placed(self, state) -> list:
        return [D.STATUES - left for left in state["statues_left"]]

    def _compute_tumults(self, state) -> dict:
        n = state["n"]
        demand = state["demand"]
        left = [0, 0, 0]
        for tile in state["centre"]:
            c, v = D.TILES[tile]
            left[c] += v
        supporters = list(state["supporters"])
        tumults = []
        for c, name in enumerate(D.COMMODITIES):
            if left[c] >= demand:
                continue
            took = [sum(D.TILES[t][1] for t in state["castle"][s] if D.TILES[t][0] == c) for s in range(n)]
            mercy = state["round"] > 1
            counted = [
                max(0, took[s] - (1 if mercy and state["mercy"][s] and took[s] else 0)) for s in range(n)
            ]
            takers = [s for s in range(n) if took[s] > 0]
            entry = {"commodity": name, "took": took, "counted": counted, "greediest": None, "lost": 0, "returned": []}
            if takers:
                g = min(takers, key=lambda s: (-counted[s], state["ranks"][s]))
                mine = sorted(
                    (t for t in state["castle"][g] if D.TILES[t][0] == c), key=lambda t: (D.TILES[t][1], t)
                )
                lost = min(D.TUMULT_LOSS, supporters[g])
                supporters[g] -= lost
                entry.update(greediest=g, lost=lost, returned=sorted(mine[1:]))
            tumults.append(entry)
        return {
            "type": "tumults",
            "demand": demand,
            "left": {name: left[c] for c, name in enumerate(D.COMMODITIES)},
            "tumults": tumults,
        }

    def _compute_round_end(self, state) -> dict:
        """Steps 4 (end: expiry, consolation), 5 (ranks), 6 (give-back, chronicle, end check), 7 (mercy)."""
        n = state["n"]
        supporters = list(state["supporters"])
        # step 4, end of the placement phase: +2 supporters to whoever placed no statue this round,
        # unless he was a greediest player this round; unused tiles expire (no supporters).
        consolation = [s for s in range(n) if state["placed_round"][s] == 0 and not state["greedy"][s]]
        for s in consolation:
            supporters[s] += D.CONSOLATION
        expired = sorted(t for castle in state["castle"] for t in castle)
        # step 5: most supporters first, ties -> the previously higher rank
        order = sorted(range(n), key=lambda s: (-supporters[s], state["ranks"][s]))
        ranks = [0] * n
        for i, s in enumerate(order):
            ranks[s] = i + 1
        # step 6: the king gives back 5 supporters and fills the next chronicle space
        king = order[0]
        give_back = min(D.GIVE_BACK, supporters[king])
        space = state["round"]
        statues = min(1 if space <= 5 else 2, state["statues_left"][king])
        out = {
            "type": "round-end",
            "consolation": consolation,
            "expired": expired,
            "ranks": ranks,
            "king": king,
            "give_back": give_back,
            "space": space,
            "statues": statues,
            "reveal": [],
            "difference": None,
            "threshold": None,
            "game_over": False,
            "reason": None,
            "mercy": None,
        }
        placed = self._placed(state)
        placed[king] += statues
        if state["statues_left"][king] - statues == 0:
            out.update(game_over=True, reason="25th statue")
            return out
        if space == 5:
            out["reveal"] = [p for p in range(len(state["face_up"])) if not state["face_up"][p]]
        if space >= 6:
            diff = max(placed) - min(placed)
            out["difference"] = diff
            out["threshold"] = D.THRESHOLDS[space]
            if space == 10:
                out.update(game_over=True, reason="tenth round")
                return out
            if diff > D.THRESHOLDS[space]:
                out.update(game_over=True, reason="chronicle threshold")
                return out
        # step 7: mercy for the fewest statues placed; nobody if all are equal
        low = min(placed)
        out["mercy"] = [False] * n if all(p == low for p in placed) else [p == low for p in placed]
        return out

    # -- applying ------------------------------------------------------------------------------
    def apply(self, state, actor, action):
        if actor == CHANCE:
            self._check_chance(state, action)
            s = _copy_state(state)
            self._apply_chance(s, action)
            return s
        if actor == SYSTEM:
            phase = state["phase"]
            if phase == "tax" and state["options"]["tax_mode"] == "live":
                if action != {"type": "close-tax"}:
                    raise IllegalAction("house rule 4.5 digital tax collection", "only close-tax ends this phase")
                s = _copy_state(state)
                self._close_tax(s)
                return s
            if phase not in AUTO_PHASES:
                raise IllegalAction("auto", "no automatic step now")
            expected = self.auto_action(state)
            if action != expected:
                raise IllegalAction("auto", "this automatic step does not match the rules' computation")
            s = _copy_state(state)
            getattr(self, "_auto_" + phase.replace("-", "_"))(s, expected)
            return s
        if not _is_int(actor):
            raise IllegalAction("actor", "unknown actor")
        self.check_action(state, actor, action)
        s = _copy_state(state)
        phase = s["phase"]
        if phase == "first-statues":
            self._apply_first_statue(s, actor, action)
        elif phase == "tax":
            self._apply_tax(s, actor, action)
        elif phase == "placement":
            self._apply_placement(s, actor, action)
        else:
            self._apply_reveal(s, actor, action)
        return s

    def _apply_chance(self, s, outcome) -> None:
        phase = s["phase"]
        n = s["n"]
        if phase == "regions":
            k = 2 * D.COLUMNS[n]
            s["regions"] = outcome["order"][:k]
            s["boxed"] = outcome["order"][k:]
            s["phase"] = "deal"
        elif phase == "deal":
            s["ranks"] = list(outcome["ranks"])
            s["phase"] = "first-statues"
            s["turn"] = s["ranks"].index(n)  # the lowest rank starts
        elif phase == "shuffle":
            order = outcome["order"]
            s["set_aside"] = order[: D.SET_ASIDE]
            s["layout"] = order[D.SET_ASIDE :]
            s["centre"] = []
            s["revealed"] = False
            s["phase"] = "tax" if s["options"]["gamble"] else "spin"
            if s["phase"] == "tax":
                self._start_tax(s)
        else:  # spin
            s["demand"] = outcome["value"]
            if s["revealed"]:  # gamble variant: spun after tax collection
                s["phase"] = "tumults"
            else:
                s["phase"] = "tax"
                self._start_tax(s)

    def _apply_first_statue(self, s, seat, action) -> None:
        s["board"][action["field"]] = seat
        s["statues_left"][seat] -= 1
        rank = s["ranks"][seat]
        if rank == 1:
            self._new_round(s)
        else:
            s["turn"] = s["ranks"].index(rank - 1)

    def _new_round(self, s) -> None:
        n = s["n"]
        s["round"] += 1
        s["phase"] = "shuffle"
        s["turn"] = None
        s["demand"] = None
        s["layout"] = None
        s["centre"] = list(range(D.NUM_TILES))
        s["set_aside"] = []
        s["castle"] = [[] for _ in range(n)]
        s["spent"] = []
        s["hand"] = [None] * n
        s["revealed"] = False
        s["collecting"] = [False] * n
        s["peeks"] = [0] * n
        s["passed"] = [False] * n
        s["placed_round"] = [0] * n
        s["greedy"] = [False] * n
        s["reveals_left"] = 0
        s["last_tumults"] = None

    # tax collection
    def _start_tax(self, s) -> None:
        n = s["n"]
        s["collecting"] = [True] * n
        s["peeks"] = [0] * n
        s["hand"] = [None] * n
        s["turn"] = self._order(s)[0] if s["options"]["tax_mode"] == "async" else None

    def _apply_tax(self, s, seat, action) -> None:
        kind = action["type"]
        async_mode = s["options"]["tax_mode"] == "async"
        if kind == "peek":
            s["hand"][seat] = action["tile"]
            s["peeks"][seat] += 1
            return
        if kind == "keep":
            slot = s["hand"][seat]
            s["castle"][seat].append(s["layout"][slot])
            s["layout"][slot] = None
            s["hand"][seat] = None
        elif kind == "return":
            s["hand"][seat] = None
        else:  # done
            s["collecting"][seat] = False
        if async_mode and s["peeks"][seat] >= D.ASYNC_PEEKS:
            s["collecting"][seat] = False
        if not any(s["collecting"]):
            self._close_tax(s)
            return
        if async_mode:
            order = self._order(s)
            i = order.index(seat)
            for k in range(1, len(order) + 1):
                nxt = order[(i + k) % len(order)]
                if s["collecting"][nxt]:
                    s["turn"] = nxt
                    break

    def _close_tax(self, s) -> None:
        s["hand"] = [None] * s["n"]
        s["collecting"] = [False] * s["n"]
        s["centre"] = sorted(t for t in s["layout"] if t is not None)
        s["layout"] = None
        s["revealed"] = True
        s["turn"] = None
        s["phase"] = "spin" if s["demand"] is None else "tumults"

    # automatic steps
    def _auto_tumults(self, s, step) -> None:
        for entry in step["tumults"]:
            g = entry["greediest"]
            if g is None:
                continue
            s["greedy"][g] = True
            s["supporters"][g] -= entry["lost"]
            s["pool"] += entry["lost"]
            back = set(entry["returned"])
            s["castle"][g] = [t for t in s["castle"][g] if t not in back]
            s["centre"] = sorted(s["centre"] + entry["returned"])
        s["last_tumults"] = step
        s["phase"] = "placement"
        s["passed"] = [False] * s["n"]
        self._advance_placement(s, None)

    def _advance_placement(self, s, current) -> None:
        order = self._order(s)
        n = len(order)
        start = 0 if current is None else order.index(current) + 1
        for k in range(n):
            seat = order[(start + k) % n]
            if s["passed"][seat]:
                continue
            if not self._can_place(s, seat):
                s["passed"][seat] = True  # "you will have to pass"
                continue
            s["turn"] = seat
            return
        s["turn"] = None
        s["phase"] = "round-end"

    def _apply_placement(self, s, seat, action) -> None:
        if action["type"] == "pass":
            s["passed"][seat] = True
            self._advance_placement(s, seat)
            return
        f = action["field"]
        t = self._types(s)[f]
        cost, size = D.COSTS[t]
        nb = D.neighbours(s["n"])
        mult = 1 if any(s["board"][g] == seat for g in nb[f]) else 2
        castle = s["castle"][seat]
        paid_total = 0
        for c, name in enumerate(D.COMMODITIES):
            for v in action["pay"][name]:
                tile = min(x for x in castle if D.TILES[x] == (c, v))
                castle.remove(tile)
                s["spent"].append(tile)
                paid_total += v
        over = paid_total - sum(cost) * mult
        s["supporters"][seat] += over
        s["pool"] -= over
        s["board"][f] = seat
        s["statues_left"][seat] -= size
        s["placed_round"][seat] += size
        if s["statues_left"][seat] == 0:
            self._game_over(s, "25th statue", seat)
            return
        self._advance_placement(s, seat)

    def _auto_round_end(self, s, step) -> None:
        n = s["n"]
        for seat in step["consolation"]:
            s["supporters"][seat] += D.CONSOLATION
            s["pool"] -= D.CONSOLATION
        s["centre"] = sorted(s["centre"] + step["expired"])
        s["castle"] = [[] for _ in range(n)]
        s["ranks"] = list(step["ranks"])
        king = step["king"]
        s["supporters"][king] -= step["give_back"]
        s["pool"] += step["give_back"]
        s["statues_left"][king] -= step["statues"]
        s["chronicle"].append([king, step["statues"]])
        for p in step["reveal"]:
            s["face_up"][p] = True
        if step["game_over"]:
            self._game_over(s, step["reason"], king if step["reason"] == "25th statue" else None)
            return
        s["mercy"] = list(step["mercy"])
        if step["space"] == 3 and not all(s["face_up"]):
            s["phase"] = "reveal"
            s["turn"] = king
            s["reveals_left"] = min(D.FIRST_REVEAL[n], s["face_up"].count(False))
        else:
            self._new_round(s)

    def _apply_reveal(self, s, seat, action) -> None:
        s["face_up"][action["region"]] = True
        s["reveals_left"] -= 1
        if s["reveals_left"] == 0:
            self._new_round(s)

    def _game_over(self, s, reason, winner25) -> None:
        s["phase"] = "over"
        s["turn"] = None
        s["end"] = reason
        s["winner25"] = winner25

    # -- what each one sees ----------------------------------------------------------------------
    def _view(self, state, viewer: Optional[int]) -> dict:
        n = state["n"]
        phase = state["phase"]
        revealed = state["revealed"]
        obs = {
            "seat": viewer,
            "phase": phase,
            "round": state["round"],
            "to_act": self._seats_to_act(state),
            "demand": state["demand"],
            "ranks": list(state["ranks"]) if state["ranks"] else None,
            "supporters": list(state["supporters"]),
            "mercy": list(state["mercy"]),
            "statues_placed": [D.STATUES - x for x in state["statues_left"]],
            # the king of each filled chronicle space (spaces 1-5 hold 1 statue, 6-10 hold 2, but the
            # last one holds 1 when that was the king's 25th statue)
            "chronicle": [x[0] for x in state["chronicle"]],
        }
        if state["regions"] is not None:
            # face-down region tiles show as None / "?" (their identity is secret to everyone)
            face_up = state["face_up"]
            obs["regions"] = [state["regions"][p] if face_up[p] else None for p in range(len(face_up))]
            # board rows joined by "/": one letter per field (P F M V C, "?" face down) ...
            obs["fields"] = _type_rows(n, tuple(state["regions"]), tuple(face_up))
            # ... and one character per field: "." empty, else the owner's seat digit
            obs["owners"] = _owner_rows(tuple(state["board"]), D.width(n))
        if phase in ("tax", "spin", "tumults", "placement", "round-end"):
            # kept tiles stay face down until the reveal: others see only how many a seat kept
            obs["castles"] = [
                _codes(c) if (revealed or viewer == s) else len(c) for s, c in enumerate(state["castle"])
            ]
        layout = state["layout"]
        if layout is not None:
            marks = ["k" if t is None else "d" for t in layout]
            for h in state["hand"]:
                if h is not None:
                    marks[h] = "h"
            obs["slots"] = "".join(marks)  # d face down, h held by a seat, k kept
            obs["holding"] = list(state["hand"])
            obs["collecting"] = list(state["collecting"])
            if state["options"]["tax_mode"] == "async":
                obs["peeks"] = list(state["peeks"])
            if viewer is not None:
                slot = state["hand"][viewer]
                if slot is not None:
                    c, v = D.TILES[layout[slot]]
                    obs["hand"] = {"slot": slot, "commodity": D.COMMODITIES[c], "value": v}
                else:
                    obs["hand"] = None
        elif revealed:
            obs["centre"] = _codes(state["centre"])
        if phase == "placement":
            obs["passed"] = list(state["passed"])
            obs["placed_this_round"] = list(state["placed_round"])
            obs["greedy"] = list(state["greedy"])
        if state["last_tumults"] is not None:
            obs["tumults"] = _copy(state["last_tumults"]["tumults"])
        if phase == "reveal":
            obs["reveals_left"] = state["reveals_left"]
        if phase == "over":
            obs["result"] = self.result(state).to_json()
        return obs

    def observation(self, state, seat: int) -> dict:
        return self._view(state, seat)

    def public_observation(self, state) -> dict:
        return self._view(state, None)

    def redact(self, state, actor, action, viewer):
        if actor == CHANCE:
            return action if self.chance_is_public(state, action) else None
        if isinstance(action, dict) and action.get("type") == "peek":
            # The peek names a centre slot only; its value is never part of an action.
            return {"type": "peek", "tile": action.get("tile")}
        return action

    # -- the end -------------------------------------------------------------------------------
    def result(self, state) -> Optional[Result]:
        if state["phase"] != "over":
            return None
        placed = self._placed(state)
        w = state["winner25"]
        order = sorted(
            range(state["n"]), key=lambda s: (0 if s == w else 1, -placed[s], state["ranks"][s])
        )
        ranks = [0] * state["n"]
        for i, s in enumerate(order):
            ranks[s] = i + 1
        return Result(
            scores=tuple(placed),
            ranks=tuple(ranks),
            detail={
                "reason": state["end"],
                "round": state["round"],
                "statues_placed": placed,
                "nobility": list(state["ranks"]),
                "supporters": list(state["supporters"]),
            },
        )
