#!/usr/bin/env python3
"""Regenerates the Fairy-Stockfish perft tables of tests/data/fs-ini.

Usage: scripts/fs-ini-perft.py [PATH-TO-FAIRY-STOCKFISH]   (or FAIRY_STOCKFISH=PATH)

Every section of tests/data/fs-ini/variants.ini is a definition copied from Fairy-Stockfish's
own variants.ini, which fairylab reads directly (--variant FILE.ini:NAME). For each, the
script counts perft with Fairy-Stockfish from the start and from positions reached by
seeded random walks, and writes <name>.epd (format of tests/data/perft); tests/fs_ini.rs
checks fairylab against them without Fairy-Stockfish. The engine driver and the walks are
those of scripts/betza-perft.py; unlike there the en passant field stays (these games have
en passant).
"""

import importlib.util
import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "tests" / "data" / "fs-ini"
INI = DATA / "variants.ini"

spec = importlib.util.spec_from_file_location("betza_perft", HERE / "betza-perft.py")
betza = importlib.util.module_from_spec(spec)
spec.loader.exec_module(betza)
betza.INI = INI
betza.MAX_DEPTH = 4


def random_positions(engine, start, rng, n=10):
    out = []
    tries = 0
    while len(out) < n and tries < 50 * n:
        tries += 1
        fen = start
        for _ in range(rng.randint(4, 40)):
            _, moves = engine.perft(fen, 1)
            if not moves:
                break
            fen = engine.fen_after(fen, [rng.choice(sorted(moves))])
        _, moves = engine.perft(fen, 1)
        if moves and fen not in out and fen != start:
            out.append(fen)
    return out


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("FAIRY_STOCKFISH")
    if not path or not Path(path).is_file():
        print("fs-ini-perft: skipped, no Fairy-Stockfish binary given; the tables are unchanged.")
        return 0
    engine = betza.Engine(path)
    for name in betza.sections():
        engine.variant(name)
        start = engine.start_fen()
        rng = random.Random(f"fs-ini-perft:{name}")
        rows = [("startpos", betza.counts(engine, start))]
        for fen in random_positions(engine, start, rng):
            rows.append((fen, betza.counts(engine, fen)))
        lines = [
            f"# Perft of {name} by Fairy-Stockfish ({INI.name} section [{name}]),",
            "# written by scripts/fs-ini-perft.py; checked by tests/fs_ini.rs.",
        ]
        for fen, cs in rows:
            lines.append(fen + " " + " ".join(f";D{d} {n}" for d, n in cs))
        (DATA / f"{name}.epd").write_text("\n".join(lines) + "\n")
        print(f"{name}: {len(rows)} positions")
    engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
