"""grognard's exact dice odds against icepool's (pin icepool==2.1.3).

Run it where Python and icepool are installed:
    python3 scripts/icepool_check.py [path/to/grognard]
For each expression, `grognard odds EXPR --json` and icepool's distribution of the
same dice must agree outcome by outcome, as exact fractions. Exits 0 when every
one agrees, 1 when any differs (each difference printed), and 3 when icepool is
not installed (the Rust test that runs this script then says it was skipped).
"""
import json
import os
import subprocess
import sys
from fractions import Fraction

try:
    import icepool
    from icepool import d6, d8, d10
except ImportError:
    print("icepool is not installed: pip install icepool==2.1.3")
    sys.exit(3)

# Each grognard expression with the same dice built in icepool.
CASES = [
    ("2d6", lambda: 2 @ d6),
    ("4d6kh3", lambda: d6.pool(4).highest(3).sum()),
    ("4d6kl1", lambda: d6.pool(4).lowest(1).sum()),
    ("6d6 hits 4+", lambda: 6 @ (d6 >= 4)),
    ("24d6 hits 4+", lambda: 24 @ (d6 >= 4)),
    ("10d10 hits 8+", lambda: 10 @ (d10 >= 8)),
    ("4d6kh2 hits 5+", lambda: (d6 >= 5).pool(4).highest(2).sum()),
    ("6d6 hits 4+ - 3d6 hits 5+", lambda: (6 @ (d6 >= 4)) - (3 @ (d6 >= 5))),
    ("2d6r1", lambda: 2 @ d6.reroll([1], depth=1)),
    ("2d6rr1", lambda: 2 @ d6.reroll([1], depth="inf")),
    ("3d6r<3", lambda: 3 @ d6.reroll([1, 2], depth=1)),
    ("6d6 hits 4+ reroll misses", lambda: 6 @ (d6.reroll([1, 2, 3], depth=1) >= 4)),
    ("4d6r1kh3", lambda: d6.reroll([1], depth=1).pool(4).highest(3).sum()),
    ("1d6!", lambda: d6.explode(depth=10)),
    ("3d6!2", lambda: 3 @ d6.explode(depth=2)),
    ("2d8!>=7", lambda: 2 @ d8.explode([7, 8], depth=10)),
    ("2d6*2+1", lambda: (2 @ d6) * 2 + 1),
    ("3d6/2", lambda: (3 @ d6) // 2),
    ("3d{2,3,3,4,4,5}", lambda: 3 @ icepool.Die([2, 3, 3, 4, 4, 5])),
    ("4d{2,3,3,4,4,5}kh2", lambda: icepool.Die([2, 3, 3, 4, 4, 5]).pool(4).highest(2).sum()),
    ("4d{-1,-1,0,0,1,1}", lambda: 4 @ icepool.Die([-1, -1, 0, 0, 1, 1])),
    # A d66 read as tens and units, and a die a ruleset names, each with the flags that say so.
    ("2d66", lambda: 2 @ (10 * d6 + d6), ["--d66", "tens-and-units"]),
    ("d66 >= 41", lambda: (10 * d6 + d6) >= 41, ["--d66", "tens-and-units"]),
    ("3avg hits 4+", lambda: 3 @ (icepool.Die([2, 3, 3, 4, 4, 5]) >= 4), ["--rules", "volley-example"]),
    ("2d{avg}kh1 + 1", lambda: icepool.Die([2, 3, 3, 4, 4, 5]).pool(2).highest(1).sum() + 1,
     ["--rules", "volley-example"]),
]


def grognard_odds(binary, expr, flags):
    out = subprocess.run([binary, "odds", expr, "--json", *flags], capture_output=True, text=True, check=True).stdout
    answer = json.loads(out)
    key = "outcome" if answer["kind"] == "chance" else "total"
    return {row[key]: Fraction(row["probability"]) for row in answer["distribution"] if Fraction(row["probability"])}


def icepool_odds(die):
    total = die.denominator()
    return {outcome: Fraction(die.quantity(outcome), total) for outcome in die.outcomes() if die.quantity(outcome)}


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GROGNARD", "grognard")
    differ = 0
    for expr, build, *flags in CASES:
        ours, theirs = grognard_odds(binary, expr, flags[0] if flags else []), icepool_odds(build())
        if ours != theirs:
            differ += 1
            keys = sorted(set(ours) | set(theirs))
            diffs = [(k, ours.get(k), theirs.get(k)) for k in keys if ours.get(k) != theirs.get(k)]
            print(f"DIFFER {expr}: (total, grognard, icepool) {diffs[:5]}")
        else:
            print(f"agree  {expr}: {len(ours)} totals")
    print(f"{len(CASES) - differ} passed, {differ} failed")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
