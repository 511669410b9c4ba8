"""Player ratings per game: openskill's Plackett-Luce model, one update per finished rated match.

Ranks come from the match's final placement (1 is best; tied seats share a rank, which openskill
treats as a tie). Updates are applied in the event log's order, so a rebuild from the events gives
the same numbers to the last bit. The leaderboard orders by the conservative estimate
``mu - 3 sigma`` (openskill's ``ordinal``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The players' ratings after one match: ``before[i]`` finished at ``ranks[i]``."""
    if len(before) < 2:
        return list(before)  # a match with one rated player teaches nothing about the others
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=list(ranks))
    return [Rating(team[0].mu, team[0].sigma) for team in after]
