#!/usr/bin/env python3
"""Splits a regression's material by where it came from.

Fits game result on material per position, as `fairylab values regress` does, with each
position's material difference split in two: what the game started with (its first
recorded position) and what changed in play since. Prints the values of both parts,
and the fit on the start's material alone, one row per game (what `values regress
--start` fits). Used for the Hangars write-up in data/studies/README.md.

    pip install numpy
    python3 scripts/analysis/material_origin.py RUN_FOLDER PIECES MIN_PIECES FULL

RUN_FOLDER: an experiment's option folder (its games.csv/positions.csv are found below
it); PIECES: piece letters, pawn first (Hangars: PNBRQF); MIN_PIECES: the phase filter
(0.5); FULL: pieces other than pawns and kings in the start position, both sides (18).
The quiet filter is approximate: positions after or before a capture are skipped, checks
are not (the Rust regression skips those too).
"""
import csv
import glob
import os
import sys

import numpy as np

root, types = sys.argv[1], sys.argv[2]
min_pieces = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
full = int(sys.argv[4]) if len(sys.argv) > 4 else 18
csv.field_size_limit(10**9)
k = len(types)


def material(fen):
    d, pieces = np.zeros(k), 0
    for ch in fen.split()[0]:
        u = ch.upper()
        if u in types:
            d[types.index(u)] += 1 if ch.isupper() else -1
            pieces += u != "P"
    return d, pieces


seen, rows, starts = set(), [], {}
for d in sorted(os.path.dirname(p) for p in glob.glob(root + "/**/positions.csv", recursive=True)):
    results = {}
    with open(d + "/games.csv") as f:
        for g in csv.DictReader(f):
            r = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(g["result"])
            if r is not None and (g["opening"], g["moves"]) not in seen:
                seen.add((g["opening"], g["moves"]))
                results[g["game_id"]] = r
    current, previous_capture = None, False
    with open(d + "/positions.csv") as f:
        for p in csv.DictReader(f):
            gid = p["game_id"]
            if gid not in results:
                continue
            if gid != current:
                current, previous_capture = gid, False
                start, _ = material(p["fen"])
                white = 1.0 if p["fen"].split()[1] == "w" else -1.0
                starts[(d, gid)] = (start, white, results[gid])
            capture = p["capture"] == "true"
            keep = int(p["ply"]) >= 10 and not capture and not previous_capture
            previous_capture = capture
            m, pieces = material(p["fen"])
            if keep and pieces >= min_pieces * full:
                stm = 1.0 if p["fen"].split()[1] == "w" else -1.0
                rows.append((start, m - start, stm, results[gid]))
print(f"{len(seen)} distinct games, {len(rows)} positions", file=sys.stderr)


def fit(x, y):
    """Logistic regression with fractional targets (Newton's method)."""
    x = np.hstack([np.ones((len(y), 1)), x])
    b = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ b)))
        h = x.T @ (x * (p * (1 - p))[:, None])
        step = np.linalg.solve(h, x.T @ (y - p))
        b += step
        if np.abs(step).max() < 1e-10:
            break
    return b[1:]


def show(name, b):
    print(f"{name}: pawn {b[0]:.4f} per unit of log-odds; " + " ".join(f"{types[i]} {b[i] / b[0]:.2f}" for i in range(1, k)))


a = np.array([r[0] for r in rows])
c = np.array([r[1] for r in rows])
s = np.array([[r[2]] for r in rows])
y = np.array([r[3] for r in rows])
show("positions, material on the board", fit(np.hstack([s, a + c]), y)[1:])
b = fit(np.hstack([s, a, c]), y)[1:]
show("positions, the start's part", b[:k])
show("positions, the part changed in play", b[k:])
print("in play over start, per unit of log-odds: " + " ".join(f"{types[i]} {b[k + i] / b[i]:.2f}" for i in range(k)))
g = list(starts.values())
show(f"one row per game, the start's material ({len(g)} games)",
     fit(np.hstack([np.array([[v[1]] for v in g]), np.array([v[0] for v in g])]), np.array([v[2] for v in g]))[1:])
