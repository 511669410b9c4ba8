"""Tumult Royale computer levels, each against the one below (bench/bot_ladder.py).

Usage: .venv/bin/python bench/bots_tumult_royale.py [MATCHES [MCTS_MATCHES [PLAYERS [FIRST]]]]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_ladder import main  # noqa: E402

if __name__ == "__main__":
    main("tumult-royale", [("basic", "random"), ("mcts", "basic")])
