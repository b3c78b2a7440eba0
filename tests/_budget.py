"""How many cases the slow property checks run.

Each such check runs a bounded number of cases by default, so that the suite stays
quick on a small machine; ``KITTEN_TEST_SCALE`` multiplies them (``KITTEN_TEST_SCALE=20``
for a long run before a release, ``0.5`` for a quicker one).
"""
from __future__ import annotations

import os

SCALE = float(os.environ.get("KITTEN_TEST_SCALE", "1") or 1)


def cases(default: int) -> int:
    """``default`` cases scaled by ``KITTEN_TEST_SCALE`` (at least one)."""
    return max(1, round(default * SCALE))
