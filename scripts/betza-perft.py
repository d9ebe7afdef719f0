#!/usr/bin/env python3
"""Regenerates the Fairy-Stockfish perft tables of tests/data/betza.

Usage: scripts/betza-perft.py [PATH-TO-FAIRY-STOCKFISH]   (or FAIRY_STOCKFISH=PATH)

Every section of tests/data/betza/variants.ini is a Fairy-Stockfish twin of the TOML file
of the same name in that folder. For each, the script counts perft with Fairy-Stockfish
from the start position and from positions reached by seeded random walks (the walk's
moves are Fairy-Stockfish's own), deepening each position while the count stays small
enough for a debug-build test, and writes <name>.epd in the format of tests/data/perft.
tests/betza_perft.rs then checks fairylab against the tables without Fairy-Stockfish.

Without a binary the script says so and exits 0, leaving the tables as they are. Build one
outside the repository, e.g.
    cd /work/ref/fs/src && make -j2 build ARCH=x86-64-bmi2 nnue=no largeboards=yes
"""

import os
import random
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "betza"
INI = DATA / "variants.ini"
RANDOM_POSITIONS = 10
MAX_DEPTH = 4
# Deepen a position only while its count stays below this (debug-build test time).
NODE_BUDGET = 400_000


class Engine:
    """One Fairy-Stockfish process, driven line by line over UCI."""

    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.until(lambda line: line == "uciok")
        self.send(f"setoption name VariantPath value {INI}")
        self.sync()

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()

    def until(self, done):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish exited")
            line = line.strip()
            lines.append(line)
            if done(line):
                return lines

    def sync(self):
        self.send("isready")
        return self.until(lambda line: line == "readyok")

    def variant(self, name):
        self.send(f"setoption name UCI_Variant value {name}")
        self.sync()

    def perft(self, fen, depth):
        """(total, {move: count}) of `fen` at `depth`."""
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        lines = self.until(lambda line: line.startswith("Nodes searched"))
        self.sync()
        moves = {}
        for line in lines:
            if ":" in line and not line.startswith("Nodes"):
                mv, n = line.split(":", 1)
                moves[mv.strip()] = int(n)
        return int(lines[-1].split(":")[1]), moves

    def fen_after(self, fen, moves):
        self.send(f"position fen {fen} moves {' '.join(moves)}")
        self.send("d")
        lines = self.sync()
        return next(line[len("Fen: "):] for line in lines if line.startswith("Fen: "))

    def start_fen(self):
        self.send("position startpos")
        self.send("d")
        lines = self.sync()
        return next(line[len("Fen: "):] for line in lines if line.startswith("Fen: "))

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def sections():
    names = []
    for line in INI.read_text().splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            names.append(line[1:-1].split(":")[0])
    return names


def random_positions(engine, start, rng):
    out = []
    tries = 0
    while len(out) < RANDOM_POSITIONS and tries < 50 * RANDOM_POSITIONS:
        tries += 1
        fen = start
        plies = rng.randint(4, 40)
        for _ in range(plies):
            _, moves = engine.perft(fen, 1)
            if not moves:
                break
            fen = engine.fen_after(fen, [rng.choice(sorted(moves))])
        # Fairy-Stockfish marks the square a double-stepping piece passed even when no
        # piece can take en passant; the test variants have none, so the field goes, and
        # the counts below are Fairy-Stockfish's for the FEN as stored.
        fields = fen.split()
        fields[3] = "-"
        fen = " ".join(fields)
        _, moves = engine.perft(fen, 1)
        if moves and fen not in out and fen != start:
            out.append(fen)
    return out


def counts(engine, fen):
    result = []
    for depth in range(1, MAX_DEPTH + 1):
        total, _ = engine.perft(fen, depth)
        result.append((depth, total))
        if total > NODE_BUDGET:
            break
    return result


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("FAIRY_STOCKFISH")
    if not path or not Path(path).is_file():
        print("betza-perft: skipped, no Fairy-Stockfish binary given "
              "(scripts/betza-perft.py PATH or FAIRY_STOCKFISH=PATH); the tables are unchanged.")
        return 0
    engine = Engine(path)
    for name in sections():
        if not (DATA / f"{name}.toml").is_file():
            sys.exit(f"betza-perft: section [{name}] of {INI.name} has no {name}.toml")
        engine.variant(name)
        start = engine.start_fen()
        rng = random.Random(f"betza-perft:{name}")
        rows = [("startpos", counts(engine, start))]
        for fen in random_positions(engine, start, rng):
            rows.append((fen, counts(engine, fen)))
        lines = [
            f"# Perft of {name} by Fairy-Stockfish ({INI.name} section [{name}]),",
            "# written by scripts/betza-perft.py; checked by tests/betza_perft.rs.",
        ]
        for fen, cs in rows:
            lines.append(fen + " " + " ".join(f";D{d} {n}" for d, n in cs))
        (DATA / f"{name}.epd").write_text("\n".join(lines) + "\n")
        print(f"{name}: {len(rows)} positions")
    engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
