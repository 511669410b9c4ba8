"""Static data of Tumult Royale: components, costs, region layouts, thresholds.

Tags refer to ../shared/rules/house-rules.md section 4 (RULEBOOK / FOUND / DERIVED / PROPOSAL).
"""

from __future__ import annotations

from functools import cache, lru_cache

COMMODITIES = ("bread", "marble", "tools")

# Commodity tiles [PROPOSAL 4.5]: 13 per commodity = 5 x "1", 5 x "2", 3 x "3". Tile id -> (commodity, value):
# ids 0-12 bread, 13-25 marble, 26-38 tools; inside a commodity the values run 1,1,1,1,1,2,2,2,2,2,3,3,3.
_VALUES = [1] * 5 + [2] * 5 + [3] * 3
TILES = tuple((c, v) for c in range(3) for v in _VALUES)
NUM_TILES = len(TILES)  # 39 [RULEBOOK]
SET_ASIDE = 12  # unseen tiles per round in total, all counts [PROPOSAL 4.5]: option set_aside "total" (default)
SET_ASIDE_EACH = 3  # per player [RULEBOOK l.313 "each player will once again remove three tiles"]: "per-player"
SET_ASIDE_MODES = ("total", "per-player")  # the option set_aside (rules 1.2.0); older versions play "total"


def set_aside(n: int, mode: str = "total") -> int:
    """Tiles set aside unseen each round: 12 in all with ``mode`` "total" [PROPOSAL 4.5], 3 a player with
    "per-player" [RULEBOOK l.313], so 6, 9 or 12 with 2, 3 or 4 players."""
    return SET_ASIDE_EACH * n if mode == "per-player" else SET_ASIDE


def centre_slots(n: int, mode: str = "total") -> int:
    """Face-down tiles in the centre (its tax slots): the rest of the 39, 27 with "total", 33/30/27 with
    "per-player" for 2/3/4 players."""
    return NUM_TILES - set_aside(n, mode)

STATUES = 25  # per player [RULEBOOK]
START_SUPPORTERS = {2: 30, 3: 20, 4: 15}  # [RULEBOOK]
SUPPORTER_TOTAL = 105  # 25x1 + 8x5 + 4x10 [FOUND]; the engine's pool is unbounded [PROPOSAL 4.5]

SPINNER = (2, 3, 4, 5)  # [FOUND]
TUMULT_LOSS = 3  # [RULEBOOK]
GIVE_BACK = 5  # [RULEBOOK]
CONSOLATION = 2  # [RULEBOOK]
ASYNC_PEEKS = 8  # [PROPOSAL 4.5] asynchronous tax mode
PEEK_COOLDOWN = 0.6  # [PROPOSAL 4.5] >= 600 ms between a seat's peeks

# Field costs per field, all statues at once [RULEBOOK / DERIVED / PROPOSAL 4.5]:
# letter -> ((bread, marble, tools), statues the field takes)
FIELD_NAMES = {"P": "pasture", "F": "forest", "M": "mountain", "V": "village", "C": "palace"}
COSTS = {
    "P": ((1, 1, 0), 1),  # RULEBOOK
    "F": ((1, 1, 1), 1),  # DERIVED from the double cost 2/2/2
    "M": ((1, 1, 2), 1),  # RULEBOOK
    "V": ((2, 0, 2), 2),  # PROPOSAL
    "C": ((0, 2, 3), 3),  # RULEBOOK
}

# Region tiles [PROPOSAL 4.5], rows top to bottom (P pasture, F forest, M mountain, V village, C palace).
REGION_TILES = {
    1: "PFM/VPC/FMP",
    2: "MPF/PCP/FVM",
    3: "PMP/FVF/CMP",
    4: "FPM/CPV/PFM",
    5: "PPF/MCM/VFP",
    6: "MFP/PVP/CFM",
    7: "PVM/FPF/MCP",
    8: "FMP/PCV/MPF",
    9: "VPF/MPM/FCP",
    10: "PFC/MVP/PMF",
}
# The kingdom: 2 rows of region tiles, COLUMNS[n] tiles wide. Position p = row * columns + column.
COLUMNS = {2: 2, 3: 3, 4: 4}  # 4, 6, 8 tiles [FOUND / PROPOSAL]
FACE_DOWN = {2: (0, 1), 3: (0, 1, 2), 4: (0, 3, 4, 7)}  # 2-3p top row; 4p outer columns [FOUND]
FIRST_REVEAL = {2: 1, 3: 1, 4: 2}  # region tiles revealed at chronicle space 3 [RULEBOOK]
THRESHOLDS = {6: 6, 7: 5, 8: 4, 9: 3, 10: 0}  # numbers under the double spaces [RULEBOOK 7 and 10, PROPOSAL]


def width(n: int) -> int:
    return 3 * COLUMNS[n]


def num_fields(n: int) -> int:
    return 6 * width(n)


def region_of(n: int, field: int) -> int:
    w = width(n)
    row, col = divmod(field, w)
    return (row // 3) * COLUMNS[n] + col // 3


@cache
def neighbours(n: int) -> tuple:
    """Orthogonal neighbours of every field (across region-tile borders)."""
    w, h = width(n), 6
    out = []
    for f in range(w * h):
        r, c = divmod(f, w)
        adj = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w:
                adj.append(rr * w + cc)
        out.append(tuple(adj))
    return tuple(out)


@lru_cache(maxsize=4096)
def field_types(n: int, regions: tuple, face_up: tuple) -> tuple:
    """The type letter of every field, None where its region tile is face down."""
    w = width(n)
    cols = COLUMNS[n]
    out: list = []  # a type letter, or None face down
    for f in range(6 * w):
        r, c = divmod(f, w)
        p = (r // 3) * cols + c // 3
        if not face_up[p]:
            out.append(None)
        else:
            rows = REGION_TILES[regions[p]].split("/")
            out.append(rows[r % 3][c % 3])
    return tuple(out)


@cache
def pay_options(c1: int, c2: int, c3: int, need: int) -> tuple:
    """Every minimal multiset of tile values (1, 2, 3) covering ``need`` from the counts available.

    Minimal: the sum reaches ``need`` and dropping any one tile would fall short ("you must only use
    the exact number of commodity tiles needed", RULEBOOK). Counts are capped at ``need`` by callers.
    """
    if need == 0:
        return ((),)
    out = []
    for a3 in range(c3 + 1):
        for a2 in range(c2 + 1):
            for a1 in range(c1 + 1):
                total = a1 + 2 * a2 + 3 * a3
                if total < need:
                    continue
                low = 1 if a1 else (2 if a2 else 3)
                if total - low >= need:
                    continue
                out.append((1,) * a1 + (2,) * a2 + (3,) * a3)
    out.sort()
    return tuple(out)
