"""Random playouts of the bare fools-crown engine per player count: playouts and moves per second.

    python bench/fools_crown_playouts.py [N]   (N playouts per player count, default 1000)
"""

from playouts import count_argument, report

if __name__ == "__main__":
    report("fools-crown", count_argument())
