"""Reconnect delays: doubling from ``initial`` up to ``maximum``, each with ±20 % jitter so many
clients do not reconnect in step. The same schedule as the TypeScript SDK."""

from __future__ import annotations

import random
from collections.abc import Callable


class Backoff:
    def __init__(
        self, initial: float = 0.1, maximum: float = 5.0, rand: Callable[[], float] = random.random
    ) -> None:
        self._initial = initial
        self._max = max(initial, maximum)
        self._random = rand
        self._attempt = 0

    def next(self) -> float:
        """Seconds to wait before the next attempt."""
        base: float = min(self._max, self._initial * 2.0 ** min(self._attempt, 30))
        self._attempt += 1
        return base * (0.8 + 0.4 * float(self._random()))

    def reset(self) -> None:
        self._attempt = 0
