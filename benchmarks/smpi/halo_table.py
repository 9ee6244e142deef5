#!/usr/bin/env python3
"""The halo table of docs/scale.md from benchmarks/smpi/halo-*.log (haloplans runs under scripts/simulate.sh)."""
import glob
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
rows = []
for f in sorted(glob.glob(os.path.join(HERE, "halo-*.log"))):
    t = open(f).read()
    h = re.search(r"halo of (\S+) k=(\d+) on (\S+) cells \((\w+)\), (\d+) processes \((\S+)\): t=(\d+) blocks", t)
    pr = re.search(r"prediction \(direct_stats rule\): (\d+) messages, (\d+) bytes in all; at most (\d+) messages, (\d+) bytes per rank; combining schedule C=(\d+) V=(\d+)", t)
    cost = re.search(r"host cost: wall (\S+), peak memory (\d+) MiB, exit (\d+)", t)
    algs = re.findall(r"^(direct|combining) +(\S+) us simulated; received (\d+) blocks, (\d+) bytes in all \(predicted (\d+), (\d+)\); wrong cells (\d+); ranks off their prediction (\d+): (\w+)", t, re.M)
    if not (h and pr and cost and algs):
        continue
    sim = {a[0]: a for a in algs}
    rows.append(f"| {h.group(1)}, k={h.group(2)} | {h.group(3)} | {h.group(5)} ({h.group(6)}) | {h.group(7)} | {pr.group(1)} / {pr.group(2)} | "
                f"{pr.group(3)} / {pr.group(4)} | {sim['direct'][2]} / {sim['direct'][3]} | {sim['combining'][2]} / {sim['combining'][3]} | "
                f"{sim['direct'][6]}, {sim['combining'][6]} | {sim['direct'][7]}, {sim['combining'][7]} ({sim['direct'][8]}, {sim['combining'][8]}) | {sim['direct'][1]} | {sim['combining'][1]} (C={pr.group(5)}, V={pr.group(6)}) | {cost.group(1)}, {cost.group(2)} MiB |")
print("| stencil | grid | processes | t | predicted messages / bytes (all ranks) | most per rank | received, direct | received, combining | wrong cells | ranks off the prediction | direct [us] | combining [us] | host |")
print("|---|---|---|---:|---|---|---|---|---|---|---:|---:|---|")
print("\n".join(rows))
