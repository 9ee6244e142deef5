#!/usr/bin/env python3
"""Multi-node runs on the network-namespace testbed (scripts/netns_cluster.sh): ranks on different
simulated nodes talk over real TCP. The cluster is a ctest fixture (cases `up` and `down`); a case
that finds no cluster skips with the testbed's reason (exit 77), or fails under CI=true. One case per
ctest:

    multinode_test.py --testbed SCRIPT --heat3d PATH --wave3d PATH --cart_collectives PATH
                      --graph_collectives PATH --mpiexec PATH CASE
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, own_lines, set_args, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None
NODES = 3  # the fixture's cluster; a run uses its first 2 or 3 nodes
BASE = cartex_testing.small_input(steps=6, progress_every=None)


def testbed(*args, env=None):
    """Runs the testbed script; returns (exit code, stdout + stderr)."""
    p = subprocess.run([ARGS.testbed] + list(args), capture_output=True, text=True, env=dict(os.environ, **(env or {})))
    return p.returncode, (p.stdout + p.stderr).strip()


def require_open_mpi():
    """Skips (or fails under CI=true) under another MPI than Open MPI: the testbed starts Open MPI's
    daemons through its rsh agent and tunes Open MPI's TCP transport (scripts/netns_cluster.sh flags);
    Hydra and MPICH's UCX transport across network namespaces are not ported (docs/testing.md)."""
    family = cartex_testing.launcher(ARGS.mpiexec).family
    if family != "openmpi":
        cartex_testing.skip(f"the multi-node testbed runs Open MPI only; {ARGS.mpiexec} is {family}'s mpiexec")


def require_cluster():
    """Skips (or fails under CI=true) with the testbed's reason when the fixture's cluster is not up, or
    when it is up but the MPI is not Open MPI."""
    code, out = testbed("nodes")
    if code == 0 and out.isdigit() and int(out) >= NODES:
        require_open_mpi()
        return
    code, why = testbed("check")
    cartex_testing.skip(f"no multi-node testbed ({NODES} nodes not up): {why if code else 'the set-up fixture did not run'}")


def launch(nodes, per_node, round_robin):
    """mpirun's `launch` for `nodes` nodes x `per_node` ranks, sequential or round-robin (--map-by node)."""
    code, flags = testbed("flags", str(per_node), str(nodes), env={"MPIEXEC": ARGS.mpiexec})
    check(code == 0, f"testbed flags: {flags}")
    return [ARGS.testbed, "run"], flags.split() + (["--map-by", "node"] if round_robin else [])


def cluster_run(nodes, per_node, round_robin, program, args, cwd):
    """Runs `program args` on nodes x per_node ranks; checks it exits 0; returns its stdout."""
    code, out, err, _ = cartex_testing.mpirun(ARGS.mpiexec, nodes * per_node, program, args, cwd, timeout=180,
                                              launch=launch(nodes, per_node, round_robin))
    where = f"{nodes}x{per_node} {'round_robin' if round_robin else 'sequential'}"
    check(code == 0, f"{os.path.basename(program)} {' '.join(args)} on {where} exited {code}: {err[-2000:]}")
    return out


def local_run(program, args, cwd):
    """`program args` on one rank, no testbed: the reference."""
    code, out, err, _ = cartex_testing.mpirun(ARGS.mpiexec, 1, program, args, cwd)
    check(code == 0, f"1-rank {' '.join(args)} exited {code}: {err[-2000:]}")
    return out


def placement_line(out):
    """The --dry-run placement line without its '# placement: ' head, or None."""
    m = re.search(r"^# placement: (.*)$", out, re.M)
    return m.group(1) if m else None


def traffic_rows(out):
    """The dry run's inter-node traffic table: grid order -> (messages, inter-node, bytes, inter-node)."""
    rows = re.findall(r"^  (MPI order|node blocks \S+) +(\d+) +(\d+) +(\d+) +(\d+)$", out, re.M)
    return {r[0]: tuple(int(x) for x in r[1:]) for r in rows}


def case_up():
    """Fixture set-up: a testbed of NODES nodes (skips or fails with the reason when none can be made)."""
    code, why = testbed("check")
    if code != 0:
        cartex_testing.skip(why)
    require_open_mpi()
    code, out = testbed("up", str(NODES))
    check(code == 0, f"testbed up {NODES}: {out}")
    code, n = testbed("nodes")
    check(n == str(NODES), f"testbed nodes: {n!r}, expected {NODES}")


def case_down():
    """Fixture clean-up: the testbed is gone, and removing it again is harmless."""
    for attempt in (1, 2):
        code, out = testbed("down")
        check(code == 0, f"testbed down ({attempt}): {out}")
    check(testbed("nodes")[1] == "0", "testbed still reports nodes after down")


def case_unavailable():
    """Without a testbed (forced by CARTEX_TESTBED_UNAVAILABLE) the set-up reports skip (77) with the
    reason, and fails with it under CI=true: never a silent pass."""
    env = {"CARTEX_TESTBED_UNAVAILABLE": "forced by the test", "CARTEX_TESTBED_PREFIX": "ctxno"}
    base = [sys.executable, os.path.abspath(__file__)] + [a for name in ("testbed", "heat3d", "wave3d", "cart_collectives",
                                                                         "graph_collectives", "mpiexec")
                                                          for a in ("--" + name, getattr(ARGS, name))]
    for ci, expected in (("", 77), ("true", 1)):
        for case in ("up", "layout"):
            p = subprocess.run(base + [case], capture_output=True, text=True, env=dict(os.environ, CI=ci, **env))
            check(p.returncode == expected, f"{case} with CI={ci!r}: exit {p.returncode}, expected {expected}: {p.stdout}")
            check("forced by the test" in p.stdout, f"{case} with CI={ci!r}: the reason is not printed: {p.stdout!r}")


# Layouts of the correctness runs: (nodes, ranks per node, round-robin).
LAYOUTS = [(2, 2, False), (2, 2, True), (3, 2, True), (3, 2, False), (2, 3, True)]


def case_layout():
    """--dry-run's placement line names the launched layout: node count, ranks, sequential or round-robin."""
    require_cluster()
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        for nodes, per_node, rr in [(2, 2, False), (3, 2, True)]:
            line = placement_line(cluster_run(nodes, per_node, rr, ARGS.heat3d, ["in.yaml", "--dry-run"], d))
            want = (f"{nodes * per_node} ranks on {nodes} node(s), {'round_robin' if rr else 'sequential'}, "
                    "detected (MPI_COMM_TYPE_SHARED)")
            check(line is not None and line.startswith(want), f"{nodes}x{per_node} rr={rr}: placement {line!r}, expected {want!r}")


def correctness(app, sets, runs):
    """Runs `app` once on one rank and once per (backend, layout, reorder, allreduce) in `runs` across
    nodes; every checksum must be the 1-rank one and every summary's placement the launched layout."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE if app == ARGS.heat3d else BASE.replace("alpha", "speed"))
        reference = checksum(local_run(app, ["in.yaml"] + set_args(sets), d))
        check(reference is not None, "no 1-rank checksum")
        for backend, (nodes, per_node, rr), reorder, allreduce in runs:
            run_sets = sets + [f"comm.backend={backend}", f"processes.reorder={reorder}", f"comm.allreduce={allreduce}"]
            out = cluster_run(nodes, per_node, rr, app, ["in.yaml"] + set_args(run_sets), d)
            what = f"{os.path.basename(app)} {backend} {nodes}x{per_node} rr={rr} reorder={reorder} {allreduce}"
            check(checksum(out) == reference, f"{what}: checksum {checksum(out)} != 1-rank {reference}")
            mapping = "round_robin" if rr else "sequential"
            check(re.search(rf"placement +{nodes * per_node} ranks on {nodes} node\(s\), {mapping}, detected", out) is not None,
                  f"{what}: summary placement is not the launched layout:\n{out}")


def every_backend(app):
    """Every backend the program lists (`--list-backends`: the halo registry, auto included)."""
    names = [name for name, _, _ in cartex_testing.list_backends(ARGS.mpiexec, app)]
    check(len(names) >= 6 and "auto" in names, f"{os.path.basename(app)} --list-backends lists only {names}")
    return names


def case_heat_backends():
    """heat3d, 27pt: every backend across nodes gives the 1-rank checksum, once with processes.reorder
    off and once on; the runs cycle through the layouts and every comm.allreduce."""
    require_cluster()
    allreduce = ["mpi", "ring", "ring_renamed"]
    runs = [(b, LAYOUTS[(i + j) % len(LAYOUTS)], reorder, allreduce[(i + j) % 3])
            for i, b in enumerate(every_backend(ARGS.heat3d)) for j, reorder in enumerate(("false", "true"))]
    correctness(ARGS.heat3d, ["grid.n=[12,12,12]", "stencil=27pt", "run.progress_every=3"], runs)


def case_wave_backends():
    """wave3d (8th-order star, halo 4): every backend across nodes gives the 1-rank checksum; one short
    run per backend, processes.reorder alternating, cycling through the layouts and every comm.allreduce."""
    require_cluster()
    allreduce = ["mpi", "ring", "ring_renamed"]
    runs = [(b, LAYOUTS[i % len(LAYOUTS)], ("false", "true")[i % 2], allreduce[i % 3])
            for i, b in enumerate(every_backend(ARGS.wave3d))]
    correctness(ARGS.wave3d, ["grid.n=[16,12,12]", "run.steps=4", "run.progress_every=2"], runs)


def case_checkpoint_restart():
    """A checkpoint written on 2 nodes x 2 ranks, restarted on 3 nodes x 2 ranks, ends bitwise where an
    uninterrupted 1-rank run ends."""
    require_cluster()
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE + "output:\n  checkpoint_every: 3\n  keep_checkpoints: 0\n")
        full = checksum(local_run(ARGS.heat3d, ["in.yaml", "--set", "run.steps=8", "--set", "output.dir=one"], d))
        cluster_run(2, 2, False, ARGS.heat3d, ["in.yaml", "--set", "run.steps=3"], d)
        check(os.path.exists(os.path.join(d, "output", "checkpoint_000003.h5")), "no checkpoint_000003.h5 from the 2x2 run")
        out = cluster_run(3, 2, True, ARGS.heat3d, ["--restart", "output/checkpoint_000003.h5", "--set", "run.steps=8",
                                                    "--set", "output.dir=again", "--set", "processes.reorder=true"], d)
        check(full is not None and checksum(out) == full, f"restart on 3x2: checksum {checksum(out)} != {full}")


def gtest_across(program, layouts):
    """A GoogleTest MPI program on each layout: exit 0 (every rank passed) and rank 0's '[  PASSED  ] N tests'."""
    with tempfile.TemporaryDirectory() as d:
        for nodes, per_node, rr in layouts:
            out = cluster_run(nodes, per_node, rr, program, ["--gtest_color=no"], d)
            passed = [line for line in own_lines(out) if re.match(r"\[  PASSED  \] [1-9]\d* tests?\.", line)]
            check(len(passed) == 1 and "FAILED" not in out,
                  f"{os.path.basename(program)} {nodes}x{per_node} rr={rr}: no passing report:\n{out[-3000:]}")


def case_cart_collectives():
    """comm/cart's collectives test at 4 and 6 ranks across nodes."""
    require_cluster()
    gtest_across(ARGS.cart_collectives, [(2, 2, True), (3, 2, False)])


def case_graph_collectives():
    """comm/graph's collectives test at 4 and 6 ranks across nodes."""
    require_cluster()
    gtest_across(ARGS.graph_collectives, [(2, 2, False), (2, 3, True)])


def inter_node_bytes(nodes, per_node, rr, args, d):
    """Bytes all nodes' interfaces sent during one heat3d run (tx summed over the nodes: every packet
    between nodes, headers and acknowledgements included, once) and the run's stdout."""
    def total():
        code, out = testbed("bytes")
        check(code == 0, f"testbed bytes: {out}")
        return sum(int(line.split()[2]) for line in out.splitlines())
    before = total()
    out = cluster_run(nodes, per_node, rr, ARGS.heat3d, args, d)
    return total() - before, out


# Measured inter-node bytes may exceed the payload by this much: TCP/IP and Ethernet headers, the TCP
# btl's own header, acknowledgements (measured: ~150 B per halo message at 4-8 KiB payloads).
OVERHEAD_SHARE, OVERHEAD_PER_MESSAGE = 0.10, 200


def case_traffic_halo():
    """Interface byte counters around 20 exchanges (a 21-step run minus a 1-step run) match --dry-run's
    inter-node bytes per exchange within 10% + 200 B per message; under --map-by node, processes.reorder
    cuts the measured bytes by the factor --dry-run predicts (MPI order / node blocks), within 5%.
    p2p_persistent: its messages carry exactly the blocks the dry run counts (p2p's whole planes on
    this slab add the planes' x/y ghost ring, 13% at 32^3: docs/backends.md)."""
    require_cluster()
    sets = ["grid.n=[32,32,32]", "stencil=7pt", "processes.dims=[1,1,4]", "run.progress_every=0", "comm.backend=p2p_persistent"]
    exchanges = 20
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        rows = traffic_rows(cluster_run(2, 2, True, ARGS.heat3d, ["in.yaml", "--dry-run"] + set_args(sets), d))
        measured = {}
        for order, reorder in (("MPI order", "false"), ("node blocks 1x1x2", "true")):
            if not check(order in rows, f"dry run has no '{order}' row: {rows}"):
                return
            short, _ = inter_node_bytes(2, 2, True, ["in.yaml"] + set_args(sets + ["run.steps=1", f"processes.reorder={reorder}"]), d)
            long, out = inter_node_bytes(2, 2, True, ["in.yaml"] + set_args(sets + [f"run.steps={1 + exchanges}",
                                                                                  f"processes.reorder={reorder}"]), d)
            per_exchange = (long - short) / exchanges
            _, inter_messages, _, inter_bytes = rows[order]
            limit = inter_bytes * (1 + OVERHEAD_SHARE) + OVERHEAD_PER_MESSAGE * inter_messages
            print(f"{order}: predicted {inter_bytes} B in {inter_messages} inter-node messages per exchange, measured "
                  f"{per_exchange:.0f} B ({(per_exchange - inter_bytes) / inter_messages:.0f} B per message over the payload)")
            check(inter_bytes <= per_exchange <= limit, f"{order}: measured {per_exchange:.0f} B per exchange, predicted "
                  f"{inter_bytes} (at most {limit:.0f} with the overhead)")
            check(("grid in node blocks" in out) == (reorder == "true"), f"{order}: the run's placement:\n{out}")
            measured[order] = per_exchange
        predicted = rows["MPI order"][3] / rows["node blocks 1x1x2"][3]
        factor = measured["MPI order"] / measured["node blocks 1x1x2"]
        print(f"processes.reorder: predicted factor {predicted:.3f}, measured {factor:.3f}")
        check(abs(factor / predicted - 1) <= 0.05, f"reorder cuts inter-node bytes by {factor:.3f}, predicted {predicted:.3f}")


def case_traffic_allreduce():
    """Under --map-by node (2 nodes x 2 ranks, Q = 2) Ring* (ring_renamed) sends 1/Q of Ring's inter-node
    messages per allreduce (--dry-run's counts, NESUS'14); the measured inter-node bytes of 40
    diagnostics (a run printing progress every step minus one that does not) fall by that factor, within 20%
    (the short messages are mostly headers, so bytes follow messages)."""
    require_cluster()
    sets = ["grid.n=[8,8,8]", "processes.dims=[1,1,4]", "run.steps=40"]
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        out = cluster_run(2, 2, True, ARGS.heat3d, ["in.yaml", "--dry-run"] + set_args(sets), d)
        m = re.search(r"inter-node messages ring (\d+), ring_renamed (\d+)$", out, re.M)
        if not check(m is not None, f"dry run has no allreduce line:\n{out}"):
            return
        predicted = int(m.group(1)) / int(m.group(2))
        check(predicted == 2, f"dry run: Ring/Ring* inter-node messages {m.group(0)}, expected a factor Q = 2")
        diagnostics = {}
        for algorithm in ("ring", "ring_renamed"):
            quiet, _ = inter_node_bytes(2, 2, True, ["in.yaml"] + set_args(sets + [f"comm.allreduce={algorithm}", "run.progress_every=0"]), d)
            loud, _ = inter_node_bytes(2, 2, True, ["in.yaml"] + set_args(sets + [f"comm.allreduce={algorithm}", "run.progress_every=1"]), d)
            diagnostics[algorithm] = loud - quiet
        factor = diagnostics["ring"] / max(diagnostics["ring_renamed"], 1)
        print(f"diagnostics' inter-node bytes: ring {diagnostics['ring']}, ring_renamed {diagnostics['ring_renamed']}, "
              f"factor {factor:.3f}, predicted {predicted:.3f}")
        check(abs(factor / predicted - 1) <= 0.20, f"Ring* cuts the diagnostics' inter-node bytes by {factor:.3f}, predicted {predicted:.3f}")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ["heat3d", "wave3d", "cart_collectives", "graph_collectives"], extra=["testbed"])
