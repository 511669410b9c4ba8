"""The names other players see (a player's, a tournament's, an import's seats): what one may hold.

A name is shown beside others and is not unique (a player is told apart by its id), so the rule is that
two names which look alike are one name: nothing in it may show nothing, reorder what is shown, or
change nothing of what is drawn. POST /players, POST /tournaments and an import's seats all check it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Optional

from emoji import EMOJI_DATA
from idna.core import valid_contextj
from idna.idnadata import joining_types
from idna.intranges import intranges_contain

#: Bidirectional controls (LRM, RLM, ALM, the embeddings, overrides and isolates): in a name shown beside
#: others they reorder what follows it ("\u202eevil" reads "live"), so a name could pass for another.
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

#: Letters and symbols that show nothing: Hangul fillers, the blank Braille pattern.
BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800")

#: The zero-width non-joiner and joiner: format characters that some scripts (Persian, the Indic ones)
#: and emoji sequences need, checked by their place (``joiner_joins``), not refused outright.
JOINERS = frozenset("\u200c\u200d")
ZWJ = "\u200d"
VIRAMA = 9  # the canonical combining class of a virama
#: Mongolian's vowel separator: a format character that shapes the letter before it (it stands between
#: Mongolian letters: "ᠰᠠᠷᠠ\u180eᠠ").
MONGOLIAN_VOWEL_SEPARATOR = "\u180e"

#: Khmer's inherent vowels, which Unicode says not to use (they show nothing: "ann\u17b4" looked like "ann").
DISCOURAGED = frozenset("\u17b4\u17b5")

#: Variation selectors: an emoji's text or emoji form (U+FE0E, U+FE0F), the standardized variants of some
#: scripts and symbols (U+FE00-U+FE0D), an ideograph's variant (U+E0100-U+E01EF), Mongolian's free ones.
EMOJI_SELECTORS = frozenset("\ufe0e\ufe0f")
SELECTORS = re.compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
MONGOLIAN_SELECTORS = frozenset("\u180b\u180c\u180d\u180f")
#: The scripts whose letters have standardized variants (U+FE00-U+FE0F), by their characters' names.
VARIANT_SCRIPTS = ("CJK ", "MYANMAR ", "PHAGS-PA ", "MANICHAEAN ", "EGYPTIAN HIEROGLYPH ")
#: An emoji keycap: an ASCII digit, # or *, U+FE0F and U+20E3 ("1\ufe0f\u20e3").
KEYCAP_BASES = frozenset("0123456789#*")
KEYCAP = "\u20e3"

#: A subdivision flag (England, Scotland, Wales): a black flag, tag letters or digits, a cancel tag. Tag
#: characters show nothing anywhere else.
TAG_FLAG = re.compile("\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,6}\U000e007f")


def visible(character: str) -> bool:
    """A letter, digit, punctuation or symbol that draws something (not a space, a format character
    such as a zero-width space, a lone combining mark, a private-use or unassigned code point), or an
    emoji newer than the interpreter's Unicode ("🩷" is unassigned to Python 3.11's)."""
    return (unicodedata.category(character)[0] in "LNPS" and character not in BLANK_GLYPHS) \
        or character in EMOJI_DATA


def invisible(character: str) -> bool:
    """Drawn as nothing and no part of writing a name: a format character (a zero-width space, a
    byte-order mark, a word joiner, a tag character) but the joiners, the combining grapheme joiner,
    the blank letters, Khmer's discouraged vowels, an unassigned code point (but an emoji newer than the
    interpreter). Inside a name they made "ann" and "ann\u200b" two names that look one."""
    category = unicodedata.category(character)
    return (category == "Cf" and character not in JOINERS and character != MONGOLIAN_VOWEL_SEPARATOR) \
        or character == "\u034f" or character in BLANK_GLYPHS or character in DISCOURAGED \
        or (category == "Cn" and character not in EMOJI_DATA)  # unassigned: drawn as nothing


def base_before(name: str, at: int, past_selectors: bool = False) -> str:
    """The character a mark at ``at`` sits on: the one before it, past any combining marks (and the
    variation selectors, ``past_selectors``), or "" at the start."""
    at -= 1
    while at >= 0 and unicodedata.category(name[at]).startswith("M") and (
            past_selectors or not SELECTORS.match(name[at])):
        at -= 1
    return name[at] if at >= 0 else ""


def emoji_like(character: str) -> bool:
    """An emoji, or a part of an emoji sequence (a skin tone, a hair style, a gender sign)."""
    return character in EMOJI_DATA


def selector_varies(name: str, at: int) -> bool:
    """Whether the variation selector at ``at`` varies the character it follows: an emoji's form (a
    symbol, a keycap with U+FE0F), an ideograph's or another variant script's letter, a Mongolian
    letter (its free selectors). After a plain letter, a space, the start or another selector it shows
    nothing ("José\ufe0f" looked like "José")."""
    selector, base = name[at], base_before(name, at)
    if not base or base.isspace() or SELECTORS.match(base) or base in JOINERS:
        return False
    if selector in MONGOLIAN_SELECTORS:
        return unicodedata.name(base, "").startswith("MONGOLIAN ")
    if selector == "\ufe0f" and base in KEYCAP_BASES:
        return name[at + 1:at + 2] == KEYCAP
    if selector in EMOJI_SELECTORS:  # only an emoji with a text and an emoji form ("ℹ️", not "★️" nor "😀️")
        return bool(EMOJI_DATA.get(base, {}).get("variant"))
    if "\ufe00" <= selector <= "\ufe0f" or selector >= "\U000e0100":
        return unicodedata.name(base, "").startswith(VARIANT_SCRIPTS) or (
            selector < "\ufe0e" and unicodedata.category(base) == "Sm")
    return False


def joiner_joins(name: str, at: int) -> bool:
    """Whether the zero-width (non-)joiner at ``at`` joins something: a joiner between two emoji of a
    sequence ("👨\u200d👩"), or either where IDNA's context rules allow it (RFC 5892, CONTEXTJ): after a
    virama (the Indic scripts' conjuncts and half forms, Malayalam's chillus, Sinhala's "ශ්‍රී"), or a
    non-joiner between letters that would otherwise join (Persian's "می‌خواهم"). Elsewhere it shows
    nothing: "ann\u200d" looked like "ann", and "مح\u200dمد" like "محمد"."""
    before, after = base_before(name, at, past_selectors=True), name[at + 1:at + 2]
    if name[at] == ZWJ and before and after and emoji_like(before) and emoji_like(after):
        return True
    # A joiner before a virama: Bengali's ya-phala after ra ("র\u200d্যাব", RAB), Devanagari's eyelash ra,
    # Sinhala's touching letters; Unicode's conventions, which IDNA's rule (after a virama) does not know.
    if name[at] == ZWJ and before and after and unicodedata.combining(after) == VIRAMA:
        return True
    # A joiner that makes an Arabic-script letter take its joined form where nothing joins it ("م\u200d");
    # between letters that join anyway it changes nothing ("مح\u200dمد").
    if name[at] == ZWJ and before and (joining(before) in "DL") != (joining(after) in "DR" if after else False):
        return True
    try:
        return valid_contextj(name, at)
    except ValueError:  # a character the interpreter's Unicode does not name (an emoji newer than it)
        return False


def joining(character: str) -> str:
    """The Arabic-script joining type of ``character`` (D dual, L left, R right, T transparent, C causing,
    U none), from IDNA's tables."""
    point = ord(character)
    return next((kind for kind, ranges in joining_types.items() if intranges_contain(point, ranges)), "U")


def separator_shapes(name: str, at: int) -> bool:
    """Whether Mongolian's vowel separator at ``at`` stands between two Mongolian letters, where it
    shapes the one before it."""
    return 0 < at < len(name) - 1 and all(unicodedata.name(name[i], "").startswith("MONGOLIAN LETTER")
                                          for i in (at - 1, at + 1))


def shows_nothing_somewhere(name: str) -> bool:
    """A character in ``name`` that draws nothing there (``invisible``, a selector that varies nothing,
    a joiner that joins nothing)."""
    name = TAG_FLAG.sub("\U0001f3f4", name)  # a subdivision flag's tags are drawn: the flag
    for at, character in enumerate(name):
        if invisible(character):
            return True
        if SELECTORS.match(character) and not selector_varies(name, at):
            return True
        if character in JOINERS and not joiner_joins(name, at):
            return True
        if character == MONGOLIAN_VOWEL_SEPARATOR and not separator_shapes(name, at):
            return True
    return False


#: A run of spaces inside a name, or a no-break space: a browser draws "ann  bob" and "ann\u00a0bob" as
#: "ann bob" (HTML collapses spaces), so they are kept as one space (an ideographic space alone stays).
SPACE_SEPARATORS = "".join(chr(point) for point in range(0x3001) if unicodedata.category(chr(point)) == "Zs")
SPACES = re.compile(f"[{SPACE_SEPARATORS}]{{2,}}|\u00a0")  # a run first: "ann\u00a0 bob" is one space


def kept_name(text: str) -> str:
    """A name as the service keeps it: without the spaces around it, each run of spaces inside it one
    space, and in Unicode's composed form (NFC), so that an "é" typed as one character or as "e" and its
    accent is one name. Only spaces are trimmed: a control character at either end (a tab, U+0085) is
    refused, not dropped."""
    start, end = 0, len(text)
    while start < end and unicodedata.category(text[start]) == "Zs":
        start += 1
    while end > start and unicodedata.category(text[end - 1]) == "Zs":
        end -= 1
    # Composed again once the half-spaces are out: "\u0627\u200c\u0654" left "\u0627\u0654", not "\u0623".
    composed = unicodedata.normalize("NFC", SPACES.sub(" ", text[start:end]))
    return unicodedata.normalize("NFC", without_idle_half_spaces(composed))


def without_idle_half_spaces(name: str) -> str:
    """``name`` without the non-joiners that follow a letter joining nothing after it anyway: Persian
    keyboards put one (the "half-space") in "محمد\u200cرضا", where the dal draws alike with it or without
    it. Refused, such names were (a probe: 8 Persian names); kept, they would pass for the name without it.
    A non-joiner after a letter that would join ("می\u200cخواهم") shapes it, and stays."""
    kept = []
    for at, character in enumerate(name):
        if character == "\u200c" and name[at + 1:at + 2] and joining(name[at + 1]) != "U":
            before = base_before(name, at, past_selectors=True)  # only here: a walk back a character
            if before and joining(before) == "R":
                continue
        kept.append(character)
    return "".join(kept)


def name_problem(name: str) -> Optional[str]:
    """Why ``name`` cannot be a name other players see (None: it can): nothing visible, a line break,
    a bidirectional control or a character that shows nothing. POST /players and an import's seats
    both check it (an import took "ann\u200b", a name that looks like another's)."""
    if not any(visible(character) for character in name):
        return "A name needs a visible character."
    if "\u2028" in name or "\u2029" in name:
        return "A name is one line (no line or paragraph separator)."
    if BIDI_CONTROLS.search(name):
        return "A name must not hold bidirectional controls (they reorder what is shown)."
    if shows_nothing_somewhere(name):
        return "A name must not hold characters that show nothing (a zero-width space, say)."
    return None
