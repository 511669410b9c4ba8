"""The search for tables without rematches (domain/pairing.py ``fresh_tables``), against every way of
seating a small field: where such tables exist, it finds them, whatever the table sizes."""

from __future__ import annotations

import itertools
import random

from domain.pairing import fresh_tables, pair


def seatings(players: list[str], sizes: list[int]):
    """Every way of seating ``players`` at tables of ``sizes`` (as sets of tables)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for others in itertools.combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tables in seatings(remaining, left):
                yield [[first, *others], *tables]


def fresh(tables, met) -> bool:
    return not any(met.get(frozenset(pair_), 0) for table in tables for pair_ in itertools.combinations(table, 2))


def test_tables_of_uneven_sizes_without_rematches_are_found_where_they_exist():
    """8 players at tables of 3, 3 and 2 (a Fool's Crown Swiss, round 3): the search took the sizes in
    a fixed order (the best-placed player left always opened a table of 3) and missed seatings such as
    [E H C] [G F A] [B D], pairing rematches in most such tournaments."""
    rng = random.Random(2026)
    checked = 0
    for players, sizes in ((8, [3, 3, 2]), (10, [4, 3, 3]), (7, [3, 2, 2]), (9, [3, 3, 3])):
        names = [chr(ord("A") + i) for i in range(players)]
        for _ in range(60):
            met = {frozenset(p): 1 for p in itertools.combinations(names, 2) if rng.random() < 0.35}
            exists = any(fresh(tables, met) for tables in seatings(names, sizes))
            found = fresh_tables(names, met, sizes)
            if exists:
                checked += 1
                assert found is not None, (players, sorted(map(sorted, met)))
            if found is not None:
                assert fresh(found, met) and sorted(map(len, found), reverse=True) == sorted(sizes, reverse=True)
                assert sorted(p for table in found for p in table) == names
    assert checked >= 60  # enough fields where such tables exist


def test_a_third_round_at_tables_of_three_three_and_two_pairs_no_rematch():
    """After two rounds of 8 at tables of 3, 3 and 2, in this standings order the search (sizes in a
    fixed order) seated C with E again; [G F A] [C D] [H E B] seats nobody with an earlier opponent."""
    met = {frozenset(p): 1 for p in "AB AC AH BD BG CE CG CH DF DG DH EF EG FH".split()}
    pairing = pair(["G", "C", "D", "F", "A", "H", "E", "B"], met, {}, table_size=3, min_players=2)
    assert fresh(pairing.tables, met), pairing.tables
    assert pairing.tables == [["G", "F", "A"], ["C", "D"], ["H", "E", "B"]]  # the greedy's order where it can
