#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The markdown table of scripts/bench_device.sh's CSV: one row per configuration (stencil, cells,
ranks, overlap) with every round's figures side by side and the spread of GLUP/s, (max - min) / mean
over the rounds (|run 1 - run 2| / mean for two), under a line naming the machine.

    bench_device_table.py DEVICE_CSV     prints the markdown on stdout
"""
import csv
import sys


def rounds(values, fmt):
    return " / ".join(fmt.format(v) for v in values)


def main():
    rows = list(csv.DictReader(open(sys.argv[1], newline="")))
    if not rows:
        sys.exit(f"bench_device_table.py: {sys.argv[1]} has no runs")
    first = rows[0]
    spaces = sorted({r["execution_space"] for r in rows})
    print(f"Machine: CPU {first['cpu']}; GPU {first['gpu']}; Kokkos {first['kokkos']} ({', '.join(spaces)}); "
          f"CUDA {first['cuda']}; commit {first['commit']}; {first['steps']} steps per run, p2p, an exchange every "
          f"step, no temporal blocking; rounds {first['date']} to {rows[-1]['date']}.")
    print()
    copies = {}
    for r in rows:
        copies.setdefault(r["ranks"], {})[r["round"]] = float(r["copy_gbs"])
    for ranks, by_round in sorted(copies.items()):
        print(f"- kernelbench STREAM copy on {ranks} rank(s), round by round: {rounds(by_round.values(), '{:.1f}')} GB/s "
              f"(bound {rounds([c / 16 for c in by_round.values()], '{:.2f}')} GLUP/s at 16 B per point update)")
    print()
    print("| stencil | cells | ranks | overlap | kernel | GLUP/s by round | spread | of bound | exchange share | "
          "hidden (overlap) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    groups = {}
    for r in rows:
        groups.setdefault((r["stencil"], int(r["n"]), int(r["ranks"]), r["overlap"]), []).append(r)
    for (stencil, n, ranks, overlap), runs in groups.items():
        glups = [float(r["glups"]) for r in runs]
        mean = sum(glups) / len(glups)
        spread = (max(glups) - min(glups)) / mean if mean > 0 else 0.0
        fraction = rounds([100 * float(r["fraction_of_bound"]) for r in runs], "{:.0f}%")
        share = rounds([float(r["exchange_share_pct"]) for r in runs], "{:.1f}%")
        hidden = rounds([float(r["hidden_share_pct"]) for r in runs], "{:.0f}%") if overlap == "true" else "-"
        print(f"| {stencil} | {n}³ | {ranks} | {overlap} | `{runs[0]['kernel']}` | {rounds(glups, '{:.3f}')} | "
              f"{100 * spread:.0f}% | {fraction} | {share} | {hidden} |")


if __name__ == "__main__":
    main()
