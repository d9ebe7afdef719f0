"""Perft of the Flying Bomber's rules test positions with a fairylab binary that still has
the named <bomber> movement (run it outside the repository, so the binary reads its built-in
variant files): writes tests/data/bomber/rules-positions.epd.

usage: cd /tmp && python3 /path/to/scripts/bomber-rules-perft.py OLD_FAIRYLAB REPO"""
import re, subprocess, sys
srcs = ["tests/rules_fbgc.rs", "tests/rules_hangars.rs", "tests/diagram.rs",
        "docs/rules/flying-bombers-grand-chess.md", "docs/rules/flying-bombers-with-hangars.md"]
fens = []
for s in srcs:
    t = open(sys.argv[2] + "/" + s).read()
    for m in re.findall(r'["`]([^"`\n]*/[^"`\n]* [wb] [^"`\n]*)["`]', t):
        m = m.strip()
        if m not in fens:
            fens.append(m)
old = sys.argv[1]  # a fairylab built before the bomber became a string
out = ["# The Flying Bomber's rules test positions (tests/rules_fbgc.rs, tests/rules_hangars.rs,",
       "# tests/diagram.rs, docs/rules/flying-bombers-*.md), counted by the <bomber> code:",
       "# <variant>[+option] | FEN ;D<depth> <leaves>..."]
n = 0
for fen in fens:
    for v in ["bomber-diagram", "flying-bombers-grand", "flying-bombers-hangars"]:
        for opt in ["", "immediate-landing"]:
            counts = []
            for d in (1, 2, 3):
                args = [old, "perft", "--variant", v, "--fen", fen, "--depth", str(d)]
                if opt: args += ["--option", opt]
                r = subprocess.run(args, capture_output=True, text=True)
                if r.returncode != 0: break
                counts.append(int(re.findall(r'\d+', r.stdout)[-1]))
            if len(counts) == 3:
                out.append(f"{v}{'+'+opt if opt else ''} | {fen} " + "".join(f";D{d} {c}" for d, c in zip((1,2,3), counts)))
                n += 1
open(sys.argv[2] + "/tests/data/bomber/rules-positions.epd", "w").write("\n".join(out) + "\n")
print(len(fens), "fens", n, "lines")
