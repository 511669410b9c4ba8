"""Leaderboards: the players of a game by their conservative rating (mu - 3 sigma)."""

from flask.views import MethodView

from api import schemas
from api.context import container, not_modified
from api.schemas import Blueprint
from api.tournaments import fresh
from application import errors
from application.league import changed_at, leaderboard
from domain.games import available_engines

blp = Blueprint("leaderboards", __name__, url_prefix="/leaderboards", description="Ratings per game")


def check_game(game: str) -> None:
    if game not in available_engines():
        raise errors.NotFound(f"no game named {errors.quoted(game)}", games=sorted(available_engines()))


@blp.route("/<game>")
class Leaderboard(MethodView):
    @blp.arguments(schemas.PageQuery, location="query")
    @blp.response(200, schemas.LeaderboardOut)
    @blp.alt_response(304, description="Not modified: the ratings have not moved since the ETag sent as "
                                       "If-None-Match (cheap polling)")
    def get(self, query, game):
        """Rated players of ``game`` best first (openskill Plackett-Luce, ordered by mu - 3 sigma),
        with rated games played and won."""
        check_game(game)
        fresh(query["after"])
        motley = container()
        # The position of the league's last change, read before its rows (then at it or past it): the tag.
        tag = f"board-{changed_at(motley.league_view)}"
        if (unchanged := not_modified(tag)) is not None:
            return unchanged
        items, total = leaderboard(motley.league_view, game, query["limit"], query["offset"])
        return ({"game": game, "items": items, "total": total, "limit": query["limit"], "offset": query["offset"]},
                {"ETag": f'"{tag}"'})
