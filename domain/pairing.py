"""Pairing a tournament round into tables: pure functions, no I/O (docs/tournaments.md, "Pairing").

Swiss: players are taken in standings order; each table is opened by the best-placed player not yet
seated and filled with the players that met its members least often, the better-placed first among
equals; where that seats anyone with an earlier opponent, a depth-first search in the same order looks
for tables without rematches first. Round-robin: at tables of two the circle method (every pair once);
at larger tables the same greedy over a fixed seed order, so that over the rounds every pair meets as
evenly as possible regardless of results. Where the field does not divide into tables of the
chosen size, smaller tables are formed if the game allows them (``min_players``); otherwise the
lowest-placed players who have had the fewest byes sit the round out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence


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
    tables = greedy_tables(ranked, met, sizes)
    if any(met.get(frozenset((a, b)), 0) for table in tables for i, a in enumerate(table) for b in table[i + 1:]):
        # The greedy seated someone with an earlier opponent: look for tables where nobody meets anyone
        # again (the greedy's own choices first, so the search only departs from it where it must).
        tables = fresh_tables(ranked, met, sizes) or tables
    return Pairing(tables, byes)


def greedy_tables(ranked: Sequence[str], met: Mapping[frozenset, int], sizes: Sequence[int]) -> list[list[str]]:
    """Each table opened by the best-placed player left, filled seat by seat with the player who met
    the table's members fewest times; among equals the best-placed."""
    remaining = list(ranked)
    tables: list[list[str]] = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            best = min(
                range(len(remaining)),
                key=lambda i: (sum(met.get(frozenset((remaining[i], p)), 0) for p in table), i),
            )
            table.append(remaining.pop(best))
        tables.append(table)
    return tables


#: How many seatings the search for rematch-free tables tries before it settles for the greedy's.
SEARCH_BUDGET = 20_000


def fresh_tables(ranked: Sequence[str], met: Mapping[frozenset, int], sizes: Sequence[int]) -> list[list[str]] | None:
    """Tables where no two players have met before, found depth first in the greedy's order (each
    table opened by the best-placed player left, each seat offered to the best-placed first; the larger
    tables first), or None when there are none or the search runs past ``SEARCH_BUDGET`` seatings. Swiss
    at tables of two otherwise paired avoidable rematches: 6 players over 3 rounds met an opponent again
    in two tournaments of three where another pairing had none. Where the tables differ in size, the
    table the best-placed player left opens may be of any size still to fill: with the sizes taken in a
    fixed order, 8 players at tables of 3, 3 and 2 met again where [E H C] [G F A] [B D] met nobody."""
    tried = 0

    def fresh(player: str, table: list[str]) -> bool:
        return not any(met.get(frozenset((player, other)), 0) for other in table)

    def open_table(remaining: list[str], sizes_left: list[int], done: list[list[str]]) -> list[list[str]] | None:
        if not sizes_left:
            return done
        for size in sorted(set(sizes_left), reverse=True):
            rest = list(sizes_left)
            rest.remove(size)
            found = fill(remaining[1:], rest, size, [remaining[0]], done)
            if found is not None:
                return found
        return None

    def fill(remaining: list[str], sizes_left: list[int], size: int, table: list[str],
             done: list[list[str]]) -> list[list[str]] | None:
        nonlocal tried
        if len(table) == size:
            return open_table(remaining, sizes_left, [*done, table])
        for i, player in enumerate(remaining):
            tried += 1
            if tried > SEARCH_BUDGET:
                return None
            if fresh(player, table):
                found = fill(remaining[:i] + remaining[i + 1:], sizes_left, size, [*table, player], done)
                if found is not None:
                    return found
        return None

    return open_table(list(ranked), list(sizes), [])


def fewest_meetings_pairs(players: Sequence[str], met: Mapping[frozenset, int],
                          below: Optional[int] = None) -> tuple[int, list[list[str]]] | None:
    """Pairs of ``players`` (an even number) whose earlier meetings add up to the fewest, found depth
    first in the order given (each pair opened by the first player left, its partner the first in order
    that keeps the count below the best so far): (that count, the pairs), or None when none is below
    ``below``. Exact, for a round-robin's field (12 at most: 10,395 pairings, pruned by the bound): a
    round taking the circle's or the greedy's tables met earlier opponents twice where once would do."""
    best: list = [below, None]

    def open_pair(remaining: list[str], cost: int, done: list[list[str]]) -> None:
        if best[0] is not None and cost >= best[0]:
            return
        if not remaining:
            best[0], best[1] = cost, done
            return
        first = remaining[0]
        for i in range(1, len(remaining)):
            other = remaining[i]
            open_pair(remaining[1:i] + remaining[i + 1:], cost + met.get(frozenset((first, other)), 0),
                      [*done, [first, other]])

    open_pair(list(players), 0, [])
    return None if best[1] is None else (best[0], best[1])


def rematch_free_rounds(players: Sequence[str], met: Mapping[frozenset, int], byes_had: Mapping[str, int],
                        rounds: int, first: Sequence[str] = ()) -> list[tuple[list[list[str]], list[str]]] | None:
    """``rounds`` rounds of tables of two for ``players`` in which no pair meets that has met (``met``) or
    meets in an earlier of these rounds, the player alone in each (an odd field) one of those with the
    fewest byes then (``byes_had``, and the rounds before it): [(pairs, alone)], or None when there are
    none or the search runs past ``SEARCH_BUDGET`` tables tried. Depth first in the order of ``players``,
    the ``first`` players alone tried first. A round-robin reshaped by a withdrawal chose each round's
    tables alone: 6 players, one withdrawn in round 2, met b and e twice in rounds 3 to 5 while c and f
    never met, though three such rounds existed (an organiser's probe)."""
    tried = 0
    odd = len(players) % 2 == 1

    def pairs_of(remaining: list[str], met_now: dict, done: list[list[str]]):
        nonlocal tried
        if not remaining:
            yield done
            return
        # The player with the fewest partners left first (ties: the order given): a dead end shows at once.
        options = {p: [q for q in remaining if q != p and not met_now.get(frozenset((p, q)), 0)] for p in remaining}
        head = min(remaining, key=lambda p: len(options[p]))
        for other in options[head]:
            tried += 1
            if tried > SEARCH_BUDGET:
                return
            yield from pairs_of([p for p in remaining if p not in (head, other)], met_now, [*done, [head, other]])

    def plan(left: int, met_now: dict, byes_now: dict) -> list | None:
        if left == 0:
            return []
        # Each player meets a new opponent in every round he is not alone in: at most one alone a round.
        unmet = {p: sum(1 for q in players if q != p and not met_now.get(frozenset((p, q)), 0)) for p in players}
        if any(count < left - (left if odd else 0) for count in unmet.values()) or \
                (odd and sum(max(0, left - count) for count in unmet.values()) > left):
            return None
        lones: list[Optional[str]] = [None]
        if odd:
            fewest = min(byes_now.get(p, 0) for p in players)
            lones = list(dict.fromkeys(p for p in [*first, *players] if byes_now.get(p, 0) == fewest))
        for lone in lones:
            seated = [p for p in players if p != lone]
            for pairs in pairs_of(seated, met_now, []):
                after = dict(met_now)
                for pair in pairs:
                    after[frozenset(pair)] = 1
                byes_after = dict(byes_now)
                if lone is not None:
                    byes_after[lone] = byes_after.get(lone, 0) + 1
                rest = plan(left - 1, after, byes_after)
                if rest is not None:
                    return [(pairs, [] if lone is None else [lone]), *rest]
                if tried > SEARCH_BUDGET:
                    return None
        return None

    return plan(rounds, dict(met), dict(byes_had))


def circle(
    order: Sequence[str], round_index: int, empty_place_stays: bool = False, second_cycle_swaps: bool = False
) -> tuple[list[list[str]], list[str]]:
    """Round ``round_index`` (from 0) of a round-robin at tables of two by the circle method (Berger
    tables): the first place stays, the others turn one place a round, so over ``n - 1`` rounds (``n``
    rounds for an odd field) every pair meets exactly once. With an odd field the player drawn against
    the empty place sits alone (a bye, or a computer's table). The greedy over a rotated order met some
    pairs two or three times and others never. The first place's seat alternates from round to round;
    the others alternate by their place on the circle. Returns (tables of two, players alone).

    ``empty_place_stays``: with an odd field, the empty place is the one that stays (as in FIDE's Berger
    tables), so every player's seats alternate from game to game and each is first in half its games.
    With the first player staying instead and the empty place last, 5 players were first 3, 2, 2, 2
    and 1 times of 4, one in the same seat three games running. An even field is the same either way:
    there the best any schedule does is one repeat ("break") for n - 2 players, which this one has.

    ``second_cycle_swaps``: rounds past a cycle repeat it, every pair meeting again; in every other cycle
    each table's seats are swapped, so a double round-robin seats each pair both ways (as chess's double
    round-robin reverses colours). Kept, a 3-player round-robin of 6 rounds seated each pair alike twice
    (an organiser's probe): whoever sat first sat first again."""
    players: list[str | None] = list(order)
    if len(players) % 2:
        players.insert(0, None) if empty_place_stays else players.append(None)
    n = len(players)
    if n < 2:
        return [], [p for p in players if p is not None]
    turn = round_index % (n - 1)
    rest = players[1:]
    rest = rest[len(rest) - turn:] + rest[:len(rest) - turn]
    line = [players[0], *rest]
    tables: list[list[str]] = []
    alone: list[str] = []
    for i in range(n // 2):
        a, b = line[i], line[n - 1 - i]
        if a is None or b is None:
            alone.append(b if a is None else a)  # type: ignore[arg-type]
            continue
        flip = turn % 2 if i == 0 else i % 2
        if second_cycle_swaps and (round_index // (n - 1)) % 2:
            flip = 1 - flip
        tables.append([b, a] if flip else [a, b])
    return tables, alone


def meetings(tables: Sequence[Sequence[str]]) -> dict[frozenset, int]:
    """How often each pair sat together over ``tables`` (every table of every round so far)."""
    counts: dict[frozenset, int] = {}
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                key = frozenset((a, b))
                counts[key] = counts.get(key, 0) + 1
    return counts
