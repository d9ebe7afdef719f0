#!/usr/bin/env python3
"""Mean nodes to finish fixed depths, fairylab against a reference UCI engine, on the
same positions: how much of a gap at equal nodes is the tree's size, not its quality.

usage: scripts/nodes-per-depth.py EPD FAIRYLAB REFERENCE [DEPTH...] [--positions N]
  EPD        positions (the FEN part of each line is used), e.g.
             data/starts/chess-middlegames.epd
  FAIRYLAB   a fairylab binary (run as `FAIRYLAB uci`)
  REFERENCE  a UCI engine, e.g. Fairy-Stockfish built from its public source
  DEPTH      default: 6 7 8 9

Every search starts from `ucinewgame` with a 16 MB hash, so each position is searched
as the first move of a game. Builds nothing; without the engines it says so and stops.
"""
import os
import subprocess
import sys


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send("setoption name Hash value 16")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"nodes-per-depth: {self.p.args[0]} exited before '{token}'")
            lines.append(line)
            if line.startswith(token):
                return lines

    def nodes_to_depth(self, fen, depth):
        self.send("ucinewgame")
        self.send("position fen " + fen)
        self.send(f"go depth {depth}")
        nodes = 0
        for line in self.until("bestmove"):
            words = line.split()
            if "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
        return nodes

    def close(self):
        self.send("quit")
        self.p.wait()


def fens(path, limit):
    out = []
    for line in open(path):
        fields = line.split(";")[0].split()
        if len(fields) < 4 or fields[0].startswith("#"):
            continue
        # EPD carries four FEN fields and then operations (bm, am, id, ...).
        fen = fields[:6] if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit() else fields[:4] + ["0", "1"]
        out.append(" ".join(fen))
    return out[:limit]


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    limit = 60
    if "--positions" in argv:
        limit = int(argv[argv.index("--positions") + 1])
        args.remove(str(limit))
    if len(args) < 3:
        print(__doc__)
        return 2
    epd, fairylab, reference = args[:3]
    for path in (fairylab, reference):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            print(f"nodes-per-depth: {path} is not an executable; skipping")
            return 0
    depths = [int(d) for d in args[3:]] or [6, 7, 8, 9]
    positions = fens(epd, limit)
    ours, theirs = Engine([fairylab, "uci"]), Engine([reference])
    print(f"{len(positions)} positions of {epd}")
    print("depth  fairylab nodes  reference nodes  ratio")
    for d in depths:
        a = sum(ours.nodes_to_depth(f, d) for f in positions) / len(positions)
        b = sum(theirs.nodes_to_depth(f, d) for f in positions) / len(positions)
        print(f"{d:5}  {a:14.0f}  {b:15.0f}  {a / b:5.2f}", flush=True)
    ours.close()
    theirs.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
