"""Fixed data of Jester (rulebook components, house rules 1.4 and 1.6)."""

PLACES = ["city", "theater", "court", "guilds"]
DISCIPLINES = ["acrobatics", "singing", "harp", "magic", "juggling", "poetry", "theater"]
# house rule S1: object names, one per discipline, 4 tokens of each on the teacher space.
OBJECTS = {
    "acrobatics": "hoop", "singing": "songbook", "harp": "harp", "magic": "wand",
    "juggling": "clubs", "poetry": "quill", "theater": "mask",
}
OBJECTS_PER_DISCIPLINE = 4
GENRES = ["comedy", "tragedy", "musical", "circus"]
GUILD_NAMES = {1: "Master Buffoon", 2: "Craftsmen", 3: "Theater Directors", 4: "Grand Duke",
               5: "Merchants", 6: "Heralds"}
GUILD_IDS = [1, 2, 3, 4, 5, 6]
# house rule S4 (02 and 06 DERIVED from the guild example, the others PROPOSAL).
THRESHOLD = {1: 4, 2: 3, 3: 3, 4: 3, 5: 2, 6: 3}
BUFFOON, CRAFTSMEN, DIRECTORS, GRAND_DUKE, MERCHANTS, HERALDS = 1, 2, 3, 4, 5, 6
# house rule 1.4 (DERIVED): the six event cards name the two places costing $2 that round.
EVENTS = {1: ["city", "theater"], 2: ["city", "guilds"], 3: ["city", "court"],
          4: ["theater", "guilds"], 5: ["theater", "court"], 6: ["guilds", "court"]}
PRICE_TOKENS = [1, 2, 2, 2, 3, 3, 3]
CITY_STAMPS = {2: 8, 3: 10, 4: 12}
STAMPS_PER_DISCIPLINE = 4
CARDS_PER_PLACE = 10
ROYALTY = ["king", "queen", "prince", "princess"]
# court stamp positions: 0 King, 1 Queen, 2 Prince, 3 Princess, 4-6 beside the Counselor.
PRESTIGE = [4, 3, 2, 1, 0, 0, 0]  # house rule task 4
SPEC_VP = [0, 1, 3, 6]  # house rule P1: stamps of the discipline owned -> VP of the table marker
RED_CHAIRS = {1, 3, 5, 7, 9}  # house rule 1.4 (DERIVED): red = odd
CHAIRS = 10
NOBLES = 10
MARKERS = 12
FAME_MAX = 13
FAVORS = [1, 2, 3, 4, 5, 6, 7]
# rulebook Setup: "two coins of value $3 and four of value $1" = $10 (rules 1.3.0; 1.0.0-1.2.0: $6)
START_MONEY = 10
START_MONEY_1_2 = 6
COUNSELOR_POINTS = 6
# rulebook How to Play: "each player takes a minimum of three and a maximum of nine turns" (enforced from 1.5.0)
MAX_TURNS = 9
