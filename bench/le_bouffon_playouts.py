"""Random playouts of the bare Le Bouffon engine per player count: playouts and moves per second.

    python bench/le_bouffon_playouts.py [N] [DEALS]   (default 1000 playouts of the default 5 deals)
"""

import sys

from playouts import count_argument, report

if __name__ == "__main__":
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    report("le-bouffon", count_argument(), [(f"{deals} deal(s)", {"deals": deals})])
