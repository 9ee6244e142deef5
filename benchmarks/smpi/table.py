#!/usr/bin/env python3
"""The tables of docs/scale.md from benchmarks/smpi/*.csv and their logs.

Per neighbourhood, op and m: the simulated time of direct (the trivial t-round algorithm, ICPP'19 Listing 4),
combining and auto (one checked run each, every block checked), combining/direct, the linear model's
predictions (cartex::cart::predict: direct t(alpha + beta b), combining C alpha + V beta b, b = 4m bytes)
with the alpha, beta auto measured in the same simulation (its log's "auto's model" line) and with the
platform's inter-node figures, which of direct/combining each model and the simulation find faster, and
which one auto ran (its time equals one of theirs: the simulation is deterministic).
Usage: table.py CSV...   (alltoallv rows have no model column: its blocks differ in size)"""
import csv
import os
import re
import sys

INTER = {"hydra": (1.005e-6, 1 / 12.5e9), "titan": (1.485e-6, 1 / 5e9)}  # alpha, beta between nodes (platforms/*.xml)


def main(paths):
    for path in paths:
        rows = list(csv.DictReader(open(path)))
        log = open(os.path.splitext(path)[0] + ".log").read()
        m = re.search(r"auto's model: alpha=(\S+) s beta=(\S+) s/B", log)  # absent when auto did not run
        a, b = (float(m.group(1)), float(m.group(2))) if m else (None, None)
        cost = re.search(r"host cost: wall (\S+), peak memory (\d+) MiB", log)
        checked = re.search(r"checked: (\d+) blocks at (\d+) ranks against the oracle, (\d+) wrong", log)
        r0 = rows[0]
        platform = r0["label"].split("-")[0]
        ai, bi = INTER.get(platform, (None, None))
        print(f"\n**{r0['neighborhood']}** (t = {r0['t']}) on {r0['procs']} processes, grid {r0['grid']}: "
              f"{checked.group(1)} blocks checked, {checked.group(3)} wrong; host {cost.group(1)}, "
              f"{cost.group(2)} MiB; " + (f"auto measured alpha = {a * 1e6:.3f} us, beta = {b * 1e9:.3f} ns/B\n"
                                          if a is not None else "auto not run\n"))
        print("| op | m | direct [us] | combining [us] | comb./direct | auto [us] | auto ran | faster (sim.) "
              "| faster (model, auto's a,b) | faster (model, inter-node a,b) |")
        print("|---|---:|---:|---:|---:|---:|---|---|---|---|")
        cells = {}
        for r in rows:
            cells.setdefault((r["op"], int(r["m"])), {})[r["impl"]] = r
        for (op, mm), c in cells.items():
            d, k = (float(c[i]["median_us"]) for i in ("direct", "combining"))
            au = float(c["auto"]["median_us"]) if "auto" in c else None
            ran = "—" if au is None else "combining" if abs(au - k) < 1e-3 else "direct" if abs(au - d) < 1e-3 else "?"
            sim = "combining" if k < d else "direct"

            def model(alpha, beta):
                if op == "alltoallv" or alpha is None:
                    return "—"
                t, cc, vv = int(c["direct"]["C"]), int(c["combining"]["C"]), int(c["combining"]["V"])
                bytes_ = 4 * mm
                pd, pc = t * (alpha + beta * bytes_), cc * alpha + vv * beta * bytes_
                return f"{'combining' if pc < pd else 'direct'} ({pd * 1e6:.1f} / {pc * 1e6:.1f})"

            print(f"| {op} | {mm} | {d:.2f} | {k:.2f} | {k / d:.2f} | {'—' if au is None else f'{au:.2f}'} "
                  f"| {ran}{'' if ran in (sim, '—') else ' (slower)'} "
                  f"| {sim} | {model(a, b)} | {model(ai, bi)} |")


if __name__ == "__main__":
    main(sys.argv[1:])
