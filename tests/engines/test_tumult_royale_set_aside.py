"""Tumult Royale rules 1.2.0: the option ``set_aside`` (house rule 4.5 tiles in play made switchable), and the
older versions playing and replaying as before (docs/rules/tumult-royale.md, "Rules versions and changelog").

The rulebook, "Getting Ready for the Next Round" (../shared/rules/rulebooks/tumult-royale.txt l.311-313): "placing
all the commodity tiles face down in the middle of the table, including the three tiles that each player had set
aside before the tax collection phase began ... Once that's done, each player will once again remove three tiles
and set them aside for the next round". House rules 4.5 "Tiles in play" (../shared/rules/house-rules.md) sets 12
aside in all at every player count instead; that stays the default (``"total"``), and ``"per-player"`` plays the
rulebook's 3 a player: 6/9/12 aside and 33/30/27 centre slots with 2/3/4 players.
"""

from __future__ import annotations

import copy
import random

import pytest

from domain.engine import CHANCE, SYSTEM, IllegalAction, InvalidOptions, Phase
from domain.games import get_engine, rules_versions
from domain.games.tumult_royale.bots import determinize
from domain.games.tumult_royale.house_rules import house_rules
from domain.games.tumult_royale.state import RULES
from domain.playout import new_match
from tests.engines.harness import options_kept_through_replay, random_playout
from tests.engines.test_tumult_royale import (
    E,
    check_observation,
    invariant,
    redaction_check,
    secrecy_check,
    settings,
    started,
)

OLD = {version: get_engine("tumult-royale", version) for version in ("1.0.0", "1.1.0")}
PER_PLAYER = {"set_aside": "per-player"}
#: Rulebook l.313, 3 a player: players -> (tiles set aside, centre slots).
RULEBOOK_COUNTS = {2: (6, 33), 3: (9, 30), 4: (12, 27)}


def counts_hold(aside: int, slots: int):
    """A playout invariant: the round's set-aside holds ``aside`` tiles from its shuffle to its end, its
    layout ``slots`` centre slots (both are empty between rounds), and the 39 tiles are all accounted
    for (test_tumult_royale.invariant: set aside + layout + centre + castles + spent)."""

    def check(state) -> None:
        invariant(state)
        assert len(state["set_aside"]) in (0, aside), (state["phase"], len(state["set_aside"]))
        if state["layout"] is not None:
            assert len(state["layout"]) == slots and len(state["set_aside"]) == aside
        if state["round"] >= 1 and state["phase"] not in ("shuffle", "first-statues", "over"):
            assert len(state["set_aside"]) == aside, state["phase"]

    return check


def seen_slots(check_seat_observation, slots: int):
    """test_tumult_royale.check_observation (nothing secret shown), and every seat sees ``slots`` centre slots
    during the collection and never a set-aside tile."""

    def check(state, seat, obs) -> None:
        check_seat_observation(state, seat, obs)
        if state["layout"] is not None:
            assert len(obs["slots"]) == slots
        assert "set_aside" not in obs and "layout" not in obs

    return check


# -- the option and its defaults -----------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_default_stays_twelve_aside_and_27_in_the_centre(n):
    """House rules 4.5 "Tiles in play": "the unseen set-aside is 12 tiles in total ... So 27 tiles are always in
    the centre", the default of 1.2.0 (set_aside "total") as of every older version."""
    options = E.check_options(n, {})
    assert options["set_aside"] == "total" and E.default_options()["set_aside"] == "total"
    s = started(n)
    assert len(s["set_aside"]) == 12 and len(s["layout"]) == 27 and len(E.observation(s, 0)["slots"]) == 27
    assert s["set_aside"] == list(range(12)) and s["layout"] == list(range(12, 39))  # the identity shuffle


@pytest.mark.parametrize("n", [2, 3, 4])
def test_per_player_sets_aside_three_tiles_a_player(n):
    """Rulebook l.313: "each player will once again remove three tiles and set them aside": with set_aside
    "per-player" the shuffle's first 3n tiles are set aside, the other 39 - 3n lie in the centre slots."""
    aside, slots = RULEBOOK_COUNTS[n]
    s = started(n, options=PER_PLAYER)
    assert s["options"]["set_aside"] == "per-player"
    assert s["set_aside"] == list(range(aside)) and s["layout"] == list(range(aside, 39))
    assert len(s["layout"]) == slots
    for seat in range(n):
        obs = E.observation(s, seat)
        assert obs["slots"] == "d" * slots and obs["options"]["set_aside"] == "per-player"
        assert "set_aside" not in obs
    assert E.public_observation(s)["slots"] == "d" * slots


def test_the_option_is_described_and_only_its_two_values_pass():
    """The options schema (GET /games/tumult-royale) says both readings; check_options enforces its enum."""
    described = E.describe_options()["set_aside"]
    assert described["type"] == "string" and described["default"] == "total"
    assert described["enum"] == ["total", "per-player"]
    assert "12" in described["description"] and "three tiles" in described["description"]
    for bad in ("per_player", "PER-PLAYER", "", 3, True, None, ["per-player"]):
        with pytest.raises(InvalidOptions):
            E.check_options(2, {"set_aside": bad})
    assert E.check_options(3, PER_PLAYER)["set_aside"] == "per-player"


def test_the_catalogue_of_1_2_0_names_the_option_in_tiles_in_play():
    """House rules 4.5 "Tiles in play" is Motley's, switched since 1.2.0 by ``set_aside`` (house-rules.md: keep
    them configurable); 1.0.0's and 1.1.0's entry stays unswitched, as they played it."""
    rule = next(r for r in E.house_rules if r.id == "4.5 tiles in play")
    assert rule.option == "set_aside" and "per-player" in rule.text and "12" in rule.text
    assert E.house_rules == house_rules(RULES["1.2.0"])
    for engine in OLD.values():
        old = next(r for r in engine.house_rules if r.id == "4.5 tiles in play")
        assert old.option is None and "27" in old.text


# -- the centre slots a peek may name ------------------------------------------------------------------
def test_a_peek_within_the_larger_centre_is_legal_and_past_it_refused():
    """Rulebook l.313 (3 a player) with 2 players: 33 tiles lie in the centre, slots 0-32. Slot 30 holds a tile
    (the identity shuffle: tile 36, a tools 3) and may be peeked; slot 33 is past the layout. By default slot
    27 is past it (27 slots, house rules 4.5)."""
    s = started(2, options=PER_PLAYER)
    assert {"type": "peek", "tile": 30} in E.legal_actions(s, 0)
    assert {"type": "peek", "tile": 32} in E.legal_actions(s, 0)
    assert max(a["tile"] for a in E.legal_actions(s, 0) if a["type"] == "peek") == 32
    peeked = E.step(s, 0, {"type": "peek", "tile": 30})
    assert E.observation(peeked, 0)["hand"] == {"slot": 30, "commodity": "tools", "value": 3}
    kept = E.step(peeked, 0, {"type": "keep"})
    assert kept["castle"][0] == [36] and kept["layout"][30] is None
    with pytest.raises(IllegalAction):
        E.step(kept, 1, {"type": "peek", "tile": 30})  # kept: no tile there any more
    for past in (33, 34, 39, -1):
        with pytest.raises(IllegalAction):
            E.step(s, 0, {"type": "peek", "tile": past})
    default = started(2)
    assert {"type": "peek", "tile": 26} in E.legal_actions(default, 0)
    for past in (27, 30):
        with pytest.raises(IllegalAction):
            E.step(default, 0, {"type": "peek", "tile": past})


def test_with_three_players_slot_29_is_the_last():
    """Rulebook l.313 with 3 players: 9 aside, 30 in the centre, slots 0-29."""
    s = started(3, options=PER_PLAYER)
    assert max(a["tile"] for a in E.legal_actions(s, 1) if a["type"] == "peek") == 29
    E.step(s, 1, {"type": "peek", "tile": 29})
    with pytest.raises(IllegalAction):
        E.step(s, 1, {"type": "peek", "tile": 30})


# -- older versions --------------------------------------------------------------------------------------
@pytest.mark.parametrize("version", ["1.0.0", "1.1.0"])
def test_older_versions_refuse_the_option_as_unknown(version):
    """1.0.0 and 1.1.0 have no ``set_aside`` (as Fool's Crown 1.0.1-1.4.0 refuse challenge_sat_out): a match of
    theirs keeps exactly the options it was created with, and sets 12 aside (house rules 4.5)."""
    engine = OLD[version]
    assert engine.rules_version == version and rules_versions("tumult-royale")[version] is engine
    assert engine is not E and E.rules_version == "1.2.0"  # the current version has the option ...
    for value in ("total", "per-player"):
        assert E.check_options(2, {"set_aside": value})["set_aside"] == value
    # ... the older ones do not
    assert "set_aside" not in engine.default_options() and "set_aside" not in engine.describe_options()
    for value in ("total", "per-player"):
        with pytest.raises(InvalidOptions):
            engine.check_options(2, {"set_aside": value})
    state = new_match(engine, 2, {})
    assert "set_aside" not in state["options"]
    final = options_kept_through_replay(engine, 2, {}, seed=3, kept=lambda s: "set_aside" not in s["options"] and len(
        s["set_aside"]) in (0, 12) and (s["layout"] is None or len(s["layout"]) == 27))
    assert final["phase"] == "over"


def test_the_versions_registered():
    """1.2.0 is current; 1.1.0 and 1.0.0 are kept so their matches replay under their own rules."""
    assert E.rules_version == "1.2.0" and get_engine("tumult-royale") is E
    assert set(rules_versions("tumult-royale")) == {"1.0.0", "1.1.0", "1.2.0"}
    assert get_engine("tumult-royale", "1.1.0").rules_version == "1.1.0"


def test_a_state_without_the_key_plays_twelve_aside_and_never_fails():
    """A match created before 1.2.0 has no ``set_aside`` in its options: whatever engine applies its shuffle
    (its own version's, or the current one's trusted ``apply``), 12 are set aside (house rules 4.5), and the
    computers' determinisation reads the missing key as "total" too."""
    assert started(2)["options"]["set_aside"] == "total"  # a 1.2.0 match keeps the key; an older one has none
    for engine in (E, *OLD.values()):
        s = copy.deepcopy(started(2))
        s["options"].pop("set_aside", None)
        s["phase"], s["layout"], s["set_aside"] = "shuffle", None, []
        s = engine.apply(s, CHANCE, {"type": "shuffle", "order": list(range(39))})
        assert len(s["set_aside"]) == 12 and len(s["layout"]) == 27
    obs = E.observation(started(2), 0)
    obs["options"].pop("set_aside")
    assert len(determinize(obs, 0, random.Random(0))["layout"]) == 27


# -- the computers' determinisation ----------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3])
def test_determinize_sets_aside_the_matchs_count(n):
    """bots.determinize samples the hidden tiles into the round's set-aside (rulebook l.313: 3 a player with
    "per-player") and spends the rest: after the reveal (statue placement, where spent tiles are hidden too)
    the set-aside it builds holds 3n tiles, not 12 (the rest are spent); during the collection the centre has
    39 - 3n slots."""
    aside, slots = RULEBOOK_COUNTS[n]
    rng = random.Random(n)
    checked = {"tax": 0, "placement": 0}
    for seed in range(60):
        state = new_match(E, n, dict(PER_PLAYER, tax_mode="async"))
        while E.to_act(state).kind != Phase.OVER and min(checked.values()) < 4:
            turn = E.to_act(state)
            if turn.kind == Phase.CHANCE:
                state = E.apply(state, CHANCE, E.sample_chance(state, rng))
                continue
            if turn.kind == Phase.AUTO:
                state = E.apply(state, SYSTEM, E.auto_action(state))
                continue
            seat = turn.seats[0]
            obs = E.observation(state, seat)
            # in placement, only once 3 tiles are spent: hidden among them, 12 set aside would differ from 3n
            if state["phase"] == "tax" or (state["phase"] == "placement" and len(state["spent"]) >= 3):
                sampled = determinize(obs, seat, random.Random(seed))
                assert len(sampled["set_aside"]) == aside, state["phase"]
                assert E.observation(sampled, seat) == obs
                if sampled["layout"] is not None:
                    assert len(sampled["layout"]) == slots
                invariant(sampled)
                checked[state["phase"]] += 1
            state = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
        if min(checked.values()) >= 4:
            break
    assert min(checked.values()) >= 4, checked


# -- random playouts -------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_with_three_aside_a_player(n):
    """100 playouts per player count with set_aside "per-player" (rulebook l.313), live and async tax, gamble
    on and off (test_tumult_royale.settings): every round sets 3n tiles aside and lays 39 - 3n in the centre,
    the 39 tiles are all accounted for at every step, no seat sees a secret, every match ends, and replay
    through ``apply`` rebuilds every state (tests/engines/harness.py); full purity, secrecy and redaction
    checks on a few."""
    aside, slots = RULEBOOK_COUNTS[n]
    rng = random.Random(100 + n)
    rounds = 0
    for seed in range(100):
        options, policy, timeout = settings(seed, n)
        full = seed % 50 == 0
        playout = random_playout(
            E,
            n,
            dict(options, **PER_PLAYER),
            seed=seed,
            invariant=counts_hold(aside, slots),
            check_observation=seen_slots(check_observation, slots),
            check_purity_every=1 if full else 50,
            policy=policy,
            timeout_probability=timeout,
        )
        assert playout.final["options"]["set_aside"] == "per-player"
        shuffles = [action for actor, action in playout.log if actor == CHANCE and action["type"] == "shuffle"]
        assert len(shuffles) == playout.final["round"]  # one shuffle a round, each splitting 3n / 39 - 3n
        rounds += len(shuffles)
        if full:
            secrecy_check(playout, rng)
            redaction_check(playout)
    assert rounds >= 100 * 3
