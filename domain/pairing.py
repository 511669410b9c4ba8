"""Pairing a tournament round into tables: pure functions, no I/O (docs/tournaments.md, "Pairing").

Swiss: players are taken in standings order; each table is opened by the best-placed player not yet
seated and filled with the players that met its members least often, the better-placed first among
equals. Round-robin: the same greedy over a fixed seed order, so that over the rounds every pair meets
as evenly as possible regardless of results. Where the field does not divide into tables of the
chosen size, smaller tables are formed if the game allows them (``min_players``); otherwise the
lowest-placed players who have had the fewest byes sit the round out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence


@dataclass(frozen=True)
class Pairing:
    tables: list[list[str]]  # the players of each table, in seat order
    byes: list[str]


def table_sizes(players: int, table_size: int, min_players: int) -> tuple[list[int], int]:
    """The sizes of the tables for ``players`` and how many sit out (byes).

    Tables of ``table_size`` if the field divides; else as many tables as needed with sizes as even
    as possible (never larger than ``table_size``) if none falls below ``min_players``; else full
    tables and byes for the rest.
    """
    if players < min_players:
        return [], players
    if players % table_size == 0:
        return [table_size] * (players // table_size), 0
    count = -(-players // table_size)  # ceil: the fewest tables that hold everyone
    base, extra = divmod(players, count)
    if base >= min_players:
        return [base + 1] * extra + [base] * (count - extra), 0
    full = players // table_size
    return [table_size] * full, players - full * table_size


def pair(
    order: Sequence[str],
    met: Mapping[frozenset, int],
    byes_had: Mapping[str, int],
    table_size: int,
    min_players: int,
) -> Pairing:
    """Pair ``order`` (best first) into tables. ``met`` counts how often each pair of players has
    sat at one table; ``byes_had`` how many byes each player has had."""
    sizes, bye_count = table_sizes(len(order), table_size, min_players)
    # Byes go to the lowest-placed players among those with the fewest byes so far.
    ranked = list(order)
    byes: list[str] = []
    for _ in range(bye_count):
        fewest = min(byes_had.get(p, 0) for p in ranked)
        chosen = next(p for p in reversed(ranked) if byes_had.get(p, 0) == fewest)
        ranked.remove(chosen)
        byes.append(chosen)
    remaining = ranked
    tables: list[list[str]] = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            # Fewest earlier meetings with the table first; among equals the best-placed.
            best = min(
                range(len(remaining)),
                key=lambda i: (sum(met.get(frozenset((remaining[i], p)), 0) for p in table), i),
            )
            table.append(remaining.pop(best))
        tables.append(table)
    return Pairing(tables, byes)


def meetings(tables: Sequence[Sequence[str]]) -> dict[frozenset, int]:
    """How often each pair sat together over ``tables`` (every table of every round so far)."""
    counts: dict[frozenset, int] = {}
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                key = frozenset((a, b))
                counts[key] = counts.get(key, 0) + 1
    return counts
