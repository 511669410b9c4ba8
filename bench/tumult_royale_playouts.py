"""Random playouts of the bare Tumult Royale engine per player count, in live and async tax mode
(the live timer runs out with probability 0.05 before each player action).

    python bench/tumult_royale_playouts.py [N]   (N playouts per player count and mode, default 1000)
"""

from playouts import count_argument, report

if __name__ == "__main__":
    report("tumult-royale", count_argument(), [("live", {"tax_mode": "live"}), ("async", {"tax_mode": "async"})])
