"""Fool's Crown ("Where Even a Fool Can Wear the Crown") as a pure rule engine.

Rules: rulebooks/fools-crown.txt completed by house rules section 3.4; the rules as implemented and
every decision are in docs/rules/fools-crown.md. The flow of a match, one module per phase (the table
in ``phases.py`` maps each stage of the state to its handlers):

    shuffle and deal (deck) -> commit phase (commit: in seat order, or simultaneous and sealed; a gamble
    is followed by a CHANCE shuffle of the Joker into the deck) -> one 2d6 roll per committed seat
    (dice: CHANCE, public) -> resolve-round (resolution: AUTO) -> tiebreak rolls (dice) if needed ->
    claim / challenge by the round winner (claim) -> cleanup and refill (round_end; deck: CHANCE
    reshuffles of the discard pile) -> next round ... until a seat holds all four Crowns (or the
    safety cap ends it).
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Optional

from domain.engine import Actor, Engine, IllegalAction, Phase, Result, ToAct, competition_ranks, without_switches

from . import claim, observation
from .bots import BOTS, blind, search_bot
from .cards import sort_cards
from .commit import commit_options
from .house_rules import HOUSE_RULES, house_rules
from .phases import ACTION_KEYS, OUT_OF_PHASE, PHASES
from .resolution import commit_strength
from .state import COMMIT_ORDERS, CURRENT_VERSION, GAME, FoolsCrownState, Rules, copy_state, new_state

__all__ = ["FoolsCrownEngine", "commit_options", "commit_strength"]

PUBLIC_CHANCE = ("roll", "tiebreak-roll", "first-player")
#: The option challenge_sat_out (rules 1.5.0), as docs/rules/fools-crown.md states it: house rule 3.4 step 6
#: says both "The challenged player must have taken part in this round (committed)" and "A player who sat
#: out or failed qualification cannot defend".
CHALLENGE_SAT_OUT = (
    "House rule 3.4 step 6 [PROPOSAL; FC-CHALLENGE]: who the round winner may challenge once the centre is "
    "empty. false (default): only a Crown holder who committed this round (\"must have taken part in this round "
    "(committed)\"), a failed qualifier included; one who sat out for a Noble Exchange cannot be challenged. "
    "true: a Crown holder who sat out for a Noble Exchange may be challenged too, like a failed qualifier "
    "(\"A player who sat out or failed qualification cannot defend\") (docs/rules/fools-crown.md)")


class FoolsCrownEngine(Engine):
    name = GAME
    title = "Fool's Crown"
    min_players = 2
    max_players = 4
    house_rules = HOUSE_RULES
    #: The shape of the state (application/snapshots.py keys snapshots by it): 2 since the state keeps
    #: ``exchange_discards``, the two Nobles a Noble Exchange discarded (named in the observation).
    state_layout = 2
    summary = (
        "Commit a Noble and a Squire, roll two dice to qualify, and the strongest qualifier claims a "
        "Crown Ace; hold all four Crowns to win. Jokers give a lasting +1 or fuel a gamble."
    )

    def __init__(self, rules_version: str = CURRENT_VERSION):
        self.rules = Rules.of(rules_version)
        self.rules_version = rules_version
        # Each version's house rules as it plays them (docs/rules/fools-crown.md, "Changes"); an option a
        # version does not have switches none of them there.
        rules = house_rules(self.rules)
        missing = {r.option for r in rules if r.option is not None} - set(self.default_options())
        self.house_rules = without_switches(rules, missing)

    # -- setting up ----------------------------------------------------------------------------
    def default_options(self) -> dict:
        # commit_order: "seat-order" (HR 3.4 step 2) since 1.3.0, "simultaneous" (FC-SEAL) before
        options: dict[str, Any] = {"safety_cap": True, "commit_order": self.rules.default_commit_order}
        if self.rules.challenge_option:  # 1.5.0 on (FC-CHALLENGE); older versions refuse it as unknown
            options["challenge_sat_out"] = False
        return options

    #: Each option in plain words for a player choosing it (``Engine.option_titles``).
    option_titles = {
        "safety_cap": (
            "End the match after round 30, most Crowns winning (on); off: play until someone holds "
            "all four Crowns"
        ),
        "commit_order": (
            "Committing cards: one player at a time, face-up cards shown at once (seat-order), or "
            "everyone at once, hidden until all have (simultaneous)"
        ),
        "challenge_sat_out": (
            "The round's winner may also challenge a Crown holder who sat the round out (on); off: "
            "only one who took part"
        ),
    }

    def describe_options(self) -> dict[str, dict]:
        # What check_options enforces, as docs/rules/fools-crown.md states it.
        described = super().describe_options()
        described["safety_cap"]["description"] = (
            "The safety cap [HR 3.4; on by default, FC-CAP]: the match ends after round 30, "
            + ("once that round's refill is done" if self.rules.refill_at_cap
               else "as soon as that round's played cards are discarded, before its refill")
            + "; most Crowns wins, ties go to most Jokers, and seats still tied share the rank. Off: the match "
              "ends only when a seat holds all four Crowns (docs/rules/fools-crown.md)")
        described["commit_order"].update(
            enum=list(COMMIT_ORDERS),
            description="seat-order: one seat at a time, from the seat left of the previous round's winner, each "
                        "face-up card shown at once (HR 3.4 step 2) [FC-ORDER]; simultaneous: every seat commits "
                        "at once, sealed until all have [FC-SEAL]")
        if self.rules.challenge_option:
            described["challenge_sat_out"]["description"] = CHALLENGE_SAT_OUT
        return described

    def initial_state(self, num_players: int, options: Mapping[str, Any]) -> FoolsCrownState:
        return new_state(num_players, self.check_options(num_players, options))  # type: ignore[arg-type]

    def num_players(self, state: FoolsCrownState) -> int:
        return state["players"]

    # -- whose move ----------------------------------------------------------------------------
    def to_act(self, state: FoolsCrownState) -> ToAct:
        phase = PHASES[state["stage"]]
        if phase.kind == Phase.PLAYERS:
            assert phase.seats is not None
            return ToAct.players(*phase.seats(state))
        return ToAct(phase.kind)

    def _acting(self, state: FoolsCrownState, seat: Any) -> bool:
        return type(seat) is int and seat in self.to_act(state).seats

    def legal_actions(self, state: FoolsCrownState, seat: int) -> list:
        legal = PHASES[state["stage"]].legal
        if legal is None or not self._acting(state, seat):
            return []
        return legal(state, seat)

    def check_action(self, state: FoolsCrownState, seat: int, action: Any) -> None:
        phase = PHASES[state["stage"]]
        if phase.kind != Phase.PLAYERS:
            raise IllegalAction(f"{GAME} turn order", "no player may act now")
        if not self._acting(state, seat):
            raise IllegalAction(f"{GAME} turn order", "it is not this seat's turn to act")
        if not isinstance(action, dict) or type(action.get("type")) is not str:
            raise IllegalAction(f"{GAME} actions", "an action is a JSON object with a string 'type'")
        kind = action["type"]
        if kind not in ACTION_KEYS:
            raise IllegalAction(f"{GAME} actions", f"unknown action type {kind!r}")
        if set(action) != ACTION_KEYS[kind]:
            raise IllegalAction(
                f"{GAME} actions", f"a {kind} action has exactly the keys {sorted(ACTION_KEYS[kind])}"
            )
        if kind not in phase.actions or phase.check is None:
            if kind in claim.ACTIONS:
                raise IllegalAction(*claim.out_of_phase(state, seat, kind))
            raise IllegalAction(*OUT_OF_PHASE[kind])
        phase.check(state, seat, action)

    # -- chance --------------------------------------------------------------------------------
    def chance_outcomes(self, state: FoolsCrownState) -> Optional[list]:
        outcomes = PHASES[state["stage"]].outcomes
        return None if outcomes is None else outcomes(state)

    def validate_chance(self, state: FoolsCrownState, outcome: dict) -> None:
        validate = PHASES[state["stage"]].validate
        if validate is None:
            raise IllegalAction(f"{GAME} chance", "no shuffle is due now")
        validate(state, outcome)

    def sample_chance(self, state: FoolsCrownState, rng: random.Random) -> dict:
        sample = PHASES[state["stage"]].sample
        if sample is None:
            raise ValueError("no chance step now")
        return sample(state, rng)

    def chance_is_public(self, state: FoolsCrownState, outcome: Any) -> bool:
        return isinstance(outcome, dict) and outcome.get("type") in PUBLIC_CHANCE

    # -- automatic step ------------------------------------------------------------------------
    def auto_action(self, state: FoolsCrownState) -> dict:
        auto = PHASES[state["stage"]].auto
        if auto is None:
            raise IllegalAction(f"{GAME} turn order", "no automatic step is due now")
        return auto(state)

    # -- applying ------------------------------------------------------------------------------
    def apply(self, state: FoolsCrownState, actor: Actor, action: dict) -> FoolsCrownState:
        """Trusted (see domain.engine): the stage's handler, on a fresh copy of the state."""
        handler = PHASES[state["stage"]].apply
        assert handler is not None, "the match is over"
        new = copy_state(state)
        handler(self.rules, new, actor, action)
        return new

    # -- what each one sees ----------------------------------------------------------------------
    def public_observation(self, state: FoolsCrownState) -> dict:
        return observation.view(state, None, self.to_act(state).seats)

    def observation(self, state: FoolsCrownState, seat: int) -> dict:
        return observation.view(state, seat, self.to_act(state).seats)

    def redact_action(self, state: FoolsCrownState, actor: Actor, action: Any, viewer: Optional[int]) -> Any:
        return observation.redact_action(state, actor, action, viewer)

    # -- the end -------------------------------------------------------------------------------
    def result(self, state: FoolsCrownState) -> Optional[Result]:
        end = state["end"]
        if state["stage"] != "over" or end is None:
            return None
        n = state["players"]
        keys = [(len(state["crowns"][i]), len(state["jokers"][i])) for i in range(n)]
        return Result(
            scores=tuple(len(state["crowns"][i]) for i in range(n)),
            ranks=competition_ranks(keys),
            detail={
                "reason": end["reason"],
                "rounds": end["rounds"],
                "crowns": [sort_cards(c) for c in state["crowns"]],
                "jokers": [len(j) for j in state["jokers"]],
            },
        )

    # -- computer opponents --------------------------------------------------------------------
    def bots(self):
        # mcts: the flat Monte Carlo search (bots.FlatSearch) on this rules version
        return {**BOTS, "mcts": blind(search_bot(self))}
