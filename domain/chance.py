"""Provable chance: every chance outcome of a match is derived from a secret seed it committed to.

At creation a match draws a 32-byte seed and publishes ``commitment = SHA-256(seed)`` (hex) in its
first event. The chance outcome stored as event number ``n`` (the match version the ``ChanceDrawn``
event gets) is ``engine.sample_chance(state, ChanceStream(seed, n))``, where the random stream is

    block(i) = HMAC-SHA-256(key=seed, message=n as 8 bytes big-endian || i as 8 bytes big-endian)
    stream   = block(0) || block(1) || block(2) || ...

read front to back, never reused. The generator draws from it exactly as CPython 3.11's
``random.Random`` draws from ``getrandbits``, so another language can reimplement it:

* ``getrandbits(k)``: take the next ``ceil(k / 8)`` bytes as a big-endian integer and drop its
  ``8 * ceil(k / 8) - k`` low bits.
* ``randbelow(m)`` (behind ``randrange``, ``randint``, ``choice``, ``sample``): ``k = m.bit_length()``,
  then ``r = getrandbits(k)`` until ``r < m`` (rejection sampling, no modulo bias).
* ``shuffle(x)``: Fisher-Yates from the end: for ``i`` from ``len(x) - 1`` down to 1,
  ``j = randbelow(i + 1)`` and swap ``x[i]`` and ``x[j]``.
* ``random()``: ``getrandbits(53) / 2**53``.

When the match ends the seed is revealed; anyone can then check the commitment and re-derive every
outcome (``application/chance.py``, ``motley verify``). Pure computation, no I/O: it belongs to the
domain, which draws chance through it.
"""

from __future__ import annotations

import hashlib
import hmac
import random

SCHEME = "hmac-sha256-stream/1"


def commitment(seed_hex: str) -> str:
    """SHA-256 of the seed's 32 bytes, as hex: published before any chance is drawn."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


class ChanceStream(random.Random):
    """The deterministic random generator of the chance event numbered ``event_number``."""

    def __init__(self, seed_hex: str, event_number: int):
        self._key = bytes.fromhex(seed_hex)
        self._event = event_number.to_bytes(8, "big")
        self._counter = 0
        self._buffer = b""
        super().__init__(0)

    def seed(self, *args, **kwargs) -> None:  # the stream is fixed by (seed, event number)
        pass

    def _take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            block = hmac.new(self._key, self._event + self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self._buffer += block
            self._counter += 1
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        size = (k + 7) // 8
        return int.from_bytes(self._take(size), "big") >> (8 * size - k)

    def random(self) -> float:
        return self.getrandbits(53) / 9007199254740992.0

    def getstate(self):
        raise NotImplementedError("a chance stream is not saved; it is re-derived from the seed")

    def setstate(self, state) -> None:
        raise NotImplementedError("a chance stream is not saved; it is re-derived from the seed")
