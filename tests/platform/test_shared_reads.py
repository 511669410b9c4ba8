"""Reads share the cached match; commands act on their own copy (issue 16: no deepcopy per read).

The repository fast-forwards copy-on-write (application/snapshots.py), so a match a reader holds never
changes under it, whatever is saved meanwhile, and what a command mutates is never what readers see."""

from __future__ import annotations

import copy
import json
import random

import pytest

from application import errors
from application.ports import NoTaskQueue
from infrastructure.composition import build
from tests.platform.test_match_story import (
    new_jest_match,
    play_one_random_move,
    random_step,
    seat_players,
    started_match,
)


def test_a_read_match_never_changes_under_its_reader_and_commands_act_on_a_copy(settings, seed):
    container = build(settings, tasks=NoTaskQueue())
    try:
        app, rng = container.app, random.Random(seed)
        players = seat_players(app, 3)
        match_id = new_jest_match(app, players)
        held = app.read_match(match_id)
        version, state = held.version, copy.deepcopy(held.state)
        assert app.read_match(match_id) is held  # nothing new: the same cached object, no copy
        for _ in range(5):
            play_one_random_move(app, match_id, players, rng)
        # The reader's match is as it was; the next read is the new version.
        assert held.version == version and json.dumps(held.state) == json.dumps(state)
        latest = app.read_match(match_id)
        assert latest is not held and latest.version > version
        # A command's match is a copy: mutating it shows nowhere.
        acting = app.get_match(match_id)
        assert acting is not latest
        acting.players[0] = "someone else"
        assert app.read_match(match_id).players[0] == latest.players[0] != "someone else"
        # And what readers see equals a rebuild from the stored events alone.
        cold = build(settings, tasks=NoTaskQueue())
        try:
            rebuilt = cold.app.get_match(match_id)
            assert rebuilt.version == latest.version and json.dumps(rebuilt.state) == json.dumps(latest.state)
        finally:
            cold.close()
    finally:
        container.close()


def test_a_verified_key_is_trusted_briefly_but_a_revoked_one_is_refused_at_once(settings):
    container = build(settings, tasks=NoTaskQueue())
    try:
        app = container.app
        _, key = app.register_player("ann")
        player = app.authenticate(key)
        assert app.authenticate(key) is player  # verified a moment ago: no lookup
        _, second = app.add_key(player)
        app.revoke_key(app.authenticate(second), app.key_id_of(key))
        with pytest.raises(errors.Unauthenticated):
            app.authenticate(key)
    finally:
        container.close()


def test_a_key_verified_while_it_is_revoked_is_not_trusted_after_the_revocation(settings):
    """A request verifying a key reads the player; the key is revoked before it caches what it read. Its
    stale read must not be trusted afterwards: it was, for VERIFIED_KEY_SECONDS, whenever the key was
    in use as it was revoked (probe of 2026-12-04: 1,773 requests accepted in the 2 s after the 204)."""
    container = build(settings, tasks=NoTaskQueue())
    try:
        app = container.app
        _, key = app.register_player("ann")
        player = app.authenticate(key)
        _, second = app.add_key(player)
        other = app.authenticate(second)
        app._verified_keys.clear()  # the next verification of ``key`` reads the player again
        read, revoked = app.repository.get, []

        def read_then_revoked_meanwhile(*args, **kwargs):
            found = read(*args, **kwargs)
            if not revoked:  # the revocation lands between this request's read and its caching
                revoked.append(True)
                app.revoke_key(other, app.key_id_of(key))
            return found

        app.repository.get = read_then_revoked_meanwhile
        assert app.authenticate(key).id == player.id  # in flight as the key was revoked: it began before
        app.repository.get = read
        assert revoked
        with pytest.raises(errors.Unauthenticated):
            app.authenticate(key)
    finally:
        container.close()


def _comparable(match) -> dict:
    return copy.deepcopy({k: v for k, v in vars(match).items() if k != "_pending_events"})


@pytest.mark.parametrize("game, seats, options", [("jest", 3, {}), ("jester", 2, {}), ("fools-crown", 3, {}),
                                                  ("tumult-royale", 3, {}), ("le-bouffon", 3, {"deals": 1})])
def test_no_command_changes_a_match_a_reader_holds_in_any_game(tmp_path, seed, game, seats, options):
    """A command acts on a working copy that shares the engine state with the cached match
    (domain/match.py ``Match.working_copy``): through a whole match of each game, what a reader holds
    stays exactly as it was read, however many moves, draws and automatic steps are saved after."""
    from infrastructure.settings import Settings

    container = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "held.sqlite")), tasks=NoTaskQueue(),
                      rng=random.Random(seed))
    try:
        app, rng = container.app, random.Random(seed)
        players = seat_players(app, seats)
        match_id = started_match(app, players, game, options)
        held: list = []
        for step in range(5000):
            match = app.read_match(match_id)
            if step % 5 == 0:
                held.append((match, _comparable(match)))
            if match.status == "finished":
                break
            random_step(app, match, players, rng)
        assert app.read_match(match_id).status == "finished" and len(held) > 3
        for match, as_read in held:
            assert _comparable(match) == as_read, f"version {as_read['_version']} changed under its reader"
    finally:
        container.close()
