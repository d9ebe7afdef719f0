#!/usr/bin/env python3
"""A tactical suite from the games an engine lost: the positions where it moved just before
its opponent's score first reached +200 for the opponent, while its own last score was still
-50 or better and the opponent's last score +100 or less (it did not see it coming). A deeper
search of the opponent engine confirms each: the move played must lose at least 150
centipawns against that engine's best move. Prints EPD (`am` the move played, `bm` the
deeper search's move, in SAN) for `fairylab bench tactics --epd`.

usage: scripts/blunders.py [--engine NAME] [--nodes N] [--variant V] ENGINE-PATH MATCH-DIR...
  MATCH-DIR    folders written by `fairylab match --out` (games.csv, positions.csv)
  ENGINE-PATH  a UCI engine for the confirming search (Fairy-Stockfish), or "-" to print
               the unconfirmed candidates without `bm`
  --engine     the player whose blunders are wanted (default fairylab)
  --nodes      nodes of the confirming search (default 400000)
Needs python-chess for SAN (pip install chess); 8x8 chess only.
"""
import argparse
import csv
import os
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor


def candidates(folder, me):
    games = {r["game_id"]: r for r in csv.DictReader(open(os.path.join(folder, "games.csv")))}
    plies = defaultdict(list)
    for r in csv.DictReader(open(os.path.join(folder, "positions.csv"))):
        plies[r["game_id"]].append(r)
    tag = os.path.basename(os.path.normpath(folder))
    for gid, g in games.items():
        if me not in (g["white"], g["black"]):
            continue
        me_white = g["white"] == me
        moves = g["moves"].split()
        mine_last = theirs_last = mine_row = None
        for r in sorted(plies[gid], key=lambda r: int(r["ply"])):
            if r["score_white"] == "":
                continue
            mover_white = r["fen"].split()[1] == "w"
            score = int(r["score_white"]) * (1 if me_white else -1)
            if mover_white == me_white:
                mine_last, mine_row = score, r
                continue
            if -score >= 200:
                unseen = mine_last is not None and mine_last >= -50
                if unseen and (theirs_last is None or theirs_last <= 100):
                    ply = int(mine_row["ply"])
                    if ply < len(moves):
                        yield f"{tag}-{gid}", mine_row["fen"], moves[ply]
                break
            theirs_last = -score


class Uci:
    def __init__(self, path, variant):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        while self.p.stdout.readline().strip() != "readyok":
            pass

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def go(self, fen, nodes, only=None):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}" + (f" searchmoves {only}" if only else ""))
        score = None
        while True:
            words = self.p.stdout.readline().split()
            if not words:
                continue
            if words[0] == "info" and "score" in words:
                i = words.index("score")
                value = int(words[i + 2])
                score = value if words[i + 1] == "cp" else (30000 if value > 0 else -30000)
            elif words[0] == "bestmove":
                return words[1], score

    def close(self):
        self.send("quit")
        self.p.wait()


def confirm(args, cases):
    uci = Uci(args.engine_path, args.variant)
    out = []
    for case_id, fen, played in cases:
        best, best_score = uci.go(fen, args.nodes)
        _, played_score = uci.go(fen, args.nodes, played)
        if best != played and best_score is not None and played_score is not None:
            if best_score - played_score >= 150:
                out.append((case_id, fen, played, best))
    uci.close()
    return out


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("engine_path")
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--engine", default="fairylab")
    ap.add_argument("--nodes", type=int, default=400000)
    ap.add_argument("--variant", default="chess")
    args = ap.parse_args()
    try:
        import chess
    except ImportError:
        sys.exit("blunders.py: needs python-chess (pip install chess)")
    for folder in args.folders:
        for name in ("games.csv", "positions.csv"):
            if not os.path.isfile(os.path.join(folder, name)):
                sys.exit(f"blunders.py: {folder} has no {name} (not a `fairylab match --out` folder)")
    cases = [c for f in args.folders for c in candidates(f, args.engine)]
    if args.engine_path == "-":
        found = [(i, fen, mv, None) for i, fen, mv in cases]
    else:
        if not (os.path.isfile(args.engine_path) and os.access(args.engine_path, os.X_OK)):
            sys.exit(f"blunders.py: '{args.engine_path}' is not an executable file")
        halves = [cases[0::2], cases[1::2]]
        with ThreadPoolExecutor(2) as ex:
            found = sorted(sum(ex.map(lambda h: confirm(args, h), halves), []))
    for case_id, fen, played, best in found:
        board = chess.Board(fen)
        epd = " ".join(fen.split()[:4])
        bm = f" bm {board.san(chess.Move.from_uci(best))};" if best else ""
        print(f'{epd}{bm} am {board.san(chess.Move.from_uci(played))}; id "{case_id}";')
    print(f"blunders.py: {len(found)} of {len(cases)} candidates", file=sys.stderr)


if __name__ == "__main__":
    main()
