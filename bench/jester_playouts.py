"""Random playouts of the bare jester engine per player count: playouts and moves per second.

    python bench/jester_playouts.py [N]   (N playouts per player count, default 1000)
"""

from playouts import count_argument, report

if __name__ == "__main__":
    report("jester", count_argument())
