#!/usr/bin/env python3
"""The input layer as a new user meets it, end to end under mpiexec: unreadable inputs, yaml-cpp's own
errors, what else is refused (files that are not regular files, numbers that are not finite, a second
YAML document, integers that are not decimal), aliases as copies, output.dir checked before the run,
layered files with --set/--unset, --help/--help-input (and the key table against docs/input.md),
dry-run cosmetics and --restart without an input. One case per ctest:

    input_test.py --heat3d PATH --wave3d PATH --advect3d PATH --mpiexec PATH CASE
"""
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None
DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "input.md")

BASE = cartex_testing.small_input(steps=6, progress_every=None)


def run(ranks, args, cwd, per_rank_codes=False, app=None):
    """Runs heat3d (or `app`) on `ranks` ranks; see cartex_testing.mpirun."""
    return cartex_testing.mpirun(ARGS.mpiexec, ranks, app or ARGS.heat3d, args, cwd, per_rank_codes)


def expect_input_error(name, ranks, args, cwd, expected):
    """Every rank exits 2 and stderr is exactly the one located line `expected`."""
    code, out, err, codes = run(ranks, args, cwd, per_rank_codes=True)
    check(codes == [2] * ranks, f"{name}: per-rank exit codes {codes}, expected {[2] * ranks}")
    lines = cartex_testing.own_lines(err)
    check(lines == [expected], f"{name}: stderr\n  {lines}\nexpected\n  [{expected!r}]")
    check(out.strip() == "", f"{name}: unexpected stdout {out!r}")


def case_unreadable_input():
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "somedir"))
        expect_input_error("directory as input", 2, ["somedir"], d, "somedir:1:1: (file): is a directory, not an input file")
        write(d, "base.yaml", BASE)
        expect_input_error("directory as second input", 3, ["base.yaml", "somedir"], d,
                           "somedir:1:1: (file): is a directory, not an input file")


def release(fifo):
    """Opens `fifo` for writing and closes it, for 5 s, as often as a reader waits on it: each time the ranks
    waiting to open it for reading go on (to an end of file), so a run that opened it ends."""
    for _ in range(50):
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # ENXIO: no reader waits
            pass
        time.sleep(0.1)


def expect_refused_fifo(name, fifo, args, cwd, expected):
    """expect_input_error for a run given the FIFO `fifo`, which must end within 30 s, not wait for a writer."""
    try:
        code, out, err, codes = cartex_testing.mpirun(ARGS.mpiexec, 2, ARGS.heat3d, args, cwd, per_rank_codes=True, timeout=30)
    except subprocess.TimeoutExpired:
        release(fifo)
        check(False, f"{name}: no end within 30 s (a rank waits to open the FIFO)")
        return
    lines = cartex_testing.own_lines(err)
    check(codes == [2, 2] and lines == [expected], f"{name}: per-rank exit codes {codes}, stderr\n  {lines}\nexpected\n  [{expected!r}]")


def case_non_regular_files():
    """Input files are regular files, known by stat before they are opened: a FIFO waited for a writer, a
    device (/dev/zero) would be read without end. The HDF5 files an input names are checked the same way."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "base.yaml", BASE)
        os.mkfifo(os.path.join(d, "fifo.yaml"))
        fifo = os.path.join(d, "fifo.yaml")
        expect_refused_fifo("FIFO as input", fifo, ["fifo.yaml"], d, "fifo.yaml:1:1: (file): is a FIFO, not a regular file")
        expect_refused_fifo("FIFO as second input", fifo, ["base.yaml", "fifo.yaml"], d,
                            "fifo.yaml:1:1: (file): is a FIFO, not a regular file")
        expect_input_error("device as input", 2, ["base.yaml", "/dev/null"], d,
                           "/dev/null:1:1: (file): is a character device, not a regular file")
        # The checkpoint and a field coefficient's file: refused (as no such file), without waiting.
        os.mkfifo(os.path.join(d, "fifo.h5"))
        for name, args, prefix in (("FIFO as checkpoint", ["--restart", "fifo.h5"], "--restart fifo.h5: "),
                                   ("FIFO as alpha file", ["base.yaml", "--set", "physics.alpha={hdf5: {file: fifo.h5, dataset: a}}"],
                                    "--set physics.alpha={hdf5: {file: fifo.h5, dataset: a}}: physics.alpha.hdf5.file: ")):
            try:
                code, out, err, codes = run(2, args, d, per_rank_codes=True)
            except subprocess.TimeoutExpired:
                release(os.path.join(d, "fifo.h5"))
                check(False, f"{name}: no end within 120 s")
                continue
            lines = cartex_testing.own_lines(err)
            check(codes == [2, 2] and len(lines) == 1 and lines[0].startswith(prefix), f"{name}: exit codes {codes}, stderr {lines}")


def case_yaml_exceptions():
    """yaml-cpp's own exceptions (a complex key) are located input errors too, never 'bad conversion'."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "bad.yaml", BASE + "? [a]: b\n")
        expect_input_error("top-level complex key", 2, ["bad.yaml"], d,
                           "bad.yaml:8:3: (top level): expected a plain key name, got a mapping as a key")
        write(d, "nested.yaml", BASE + "init:\n  ? [x, y]\n  : 1\n")
        expect_input_error("nested complex key", 2, ["nested.yaml"], d,
                           "nested.yaml:9:5: init: expected a plain key name, got a list as a key")


def case_output_dir():
    """An output.dir that cannot be created or written is an input error before anything runs."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE + "output:\n  dir: blocker/out\n  checkpoint_every: 2\n")
        write(d, "blocker", "a regular file\n")
        expect_input_error("output.dir under a regular file", 2, ["in.yaml"], d,
                           'in.yaml:9:8: output.dir: cannot create directory "blocker/out": blocker is a file, not a directory')
        expect_input_error("output.dir is a regular file", 3, ["in.yaml", "--set", "output.dir=blocker"], d,
                           '--set output.dir=blocker: output.dir: cannot create directory "blocker": blocker is a file, '
                           'not a directory')
        check(sorted(os.listdir(d)) == ["blocker", "in.yaml", "rank-exit-codes.txt"],
              f"the failed runs left files behind: {sorted(os.listdir(d))}")
        if os.geteuid() != 0:  # root may write anywhere
            os.mkdir(os.path.join(d, "locked"), 0o500)
            expect_input_error("output.dir in a read-only directory", 2, ["in.yaml", "--set", "output.dir=locked/out"], d,
                               '--set output.dir=locked/out: output.dir: cannot create directory "locked/out": locked is '
                               'not writable')
        code, out, err, _ = run(2, ["in.yaml", "--set", "output.dir=new/deeper/out"], d)
        check(code == 0 and os.path.exists(os.path.join(d, "new", "deeper", "out", "checkpoint_000006.h5")),
              f"a creatable output.dir: exit {code}: {err}")


def case_non_finite_numbers():
    """Every number read is finite: .nan and .inf ran to exit 0 with a NaN field (and a checkpoint whose input
    --restart could not read back)."""
    walls = BASE.replace("[12, 10, 8]\n", "[12, 10, 8]\n  periodic: [false, true, true]\n")
    with tempfile.TemporaryDirectory() as d:
        write(d, "walls.yaml", walls + "boundary:\n  x: [.nan, 0]\n")
        expect_input_error("boundary.x with .nan", 2, ["walls.yaml"], d,
                           "walls.yaml:10:6: boundary.x: expected a list [low, high] of two finite numbers (Dirichlet values), "
                           "periodic, or a mapping {low: ..., high: ...}, got an entry \".nan\"")
        write(d, "in.yaml", BASE)
        for sets, expected in (
                (["init.amplitude=.inf"], 'init.amplitude: expected a finite number, got ".inf"'),
                (["init.type=gaussian", "init.center=[0.5, .nan, 0.5]"],
                 "init.center: expected finite numbers (physical coordinates) in every entry"),
                (["physics.alpha={gaussian: {peak: 2, center: [-.inf, 0.5, 0.5]}}"],
                 'physics.alpha.gaussian.center: expected a list of finite numbers (physical coordinates), got an entry "-.inf"')):
            expect_input_error(f"--set {sets[-1]}", 2, ["in.yaml"] + cartex_testing.set_args(sets), d, f"--set {sets[-1]}: {expected}")


def case_aliases():
    """An alias is a copy of its anchor's value: --set, --unset and later files change only the key they name
    (x and y were one node: changing y changed x)."""
    text = BASE.replace("[12, 10, 8]\n", "[12, 10, 8]\n  periodic: [false, false, true]\n") + (
        "boundary:\n  x: &w {low: {neumann: 0}, high: {neumann: 0}}\n  y: *w\n")
    insulated = "x: {low: {neumann: 0}, high: {neumann: 0}}"
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", text)
        write(d, "later.yaml", "boundary:\n  y:\n    low: ~\n")
        for args, y in ((["--set", "boundary.y=[1, 0]"], "y: [1, 0]"),
                        (["--set", "boundary.y.low={dirichlet: 2}"], "y: {low: {dirichlet: 2}, high: {neumann: 0}}"),
                        (["--unset", "boundary.y.high"], "y: {low: {neumann: 0}, high: {dirichlet: 0}}"),
                        (["later.yaml"], "y: {low: {dirichlet: 0}, high: {neumann: 0}}")):
            code, out, err, _ = run(2, ["in.yaml", "--dry-run"] + args, d)
            text = resolved(out)
            check(code == 0 and insulated in text and y in text, f"{args}: exit {code}, expected {insulated} and {y}:\n{text}{err}")


def case_documents():
    """An input holds one YAML document: a second one (---) was ignored, unknown keys and all."""
    why = "a second YAML document (an input holds one; --- starts another)"
    with tempfile.TemporaryDirectory() as d:
        write(d, "two.yaml", BASE + "---\nrun: {stepz: 3}\n")
        expect_input_error("two documents", 2, ["two.yaml"], d, f"two.yaml:8:1: (syntax): {why}")
        write(d, "in.yaml", BASE)
        expect_input_error("two documents in --set", 2, ["in.yaml", "--set", "run.steps=3 \n--- 4"], d,
                           f"--set run.steps=3 \\n--- 4: run.steps: {why}")
        write(d, "marked.yaml", "---\n" + BASE + "...\n")
        code, out, err, _ = run(2, ["marked.yaml", "--dry-run"], d)
        check(code == 0, f"one document between markers: exit {code}: {err}")


def case_integers():
    """Integers are decimal, as YAML 1.2 reads them: 010 was 8 and 0x10 was 16 (YAML 1.1)."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE.replace("steps: 6", "steps: 010"))
        code, out, err, _ = run(2, ["in.yaml", "--dry-run"], d)
        check(code == 0 and "  steps: 10\n" in resolved(out), f"steps: 010: exit {code}, resolved:\n{resolved(out)}{err}")
        for value in ("0x10", "0o10"):
            expect_input_error(f"steps: {value}", 2, ["in.yaml", "--set", f"run.steps={value}"], d,
                               f'--set run.steps={value}: run.steps: expected a non-negative integer (time steps), got "{value}"')
        expect_input_error("grid.n with 0x10", 2, ["in.yaml", "--set", "grid.n=[0x10, 8, 8]"], d,
                           '--set grid.n=[0x10, 8, 8]: grid.n: expected a list of 2 or 3 positive integers (cells per dimension), '
                           'got an entry "0x10"')


def resolved(out):
    """The resolved configuration printed by --dry-run."""
    m = re.search(r"^# resolved configuration \(.*\)\n(.*?)^# decomposition", out, re.M | re.S)
    return m.group(1) if m else ""


def case_layers():
    """Files layered left to right, --unset and --set KEY=null remove keys, errors name the file that gave the value;
    --set of a per-dimension key takes one value for every dimension."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "base.yaml", BASE + "init:\n  type: sine\n  modes: [2, 1, 1]\n")
        write(d, "tweaks.yaml", "physics:\n  alpha: 0.5\nrun: {steps: 3}\n")
        code, out, err, _ = run(2, ["base.yaml", "tweaks.yaml", "--dry-run"], d)
        text = resolved(out)
        check(code == 0 and "  alpha: 0.5\n" in text and "  steps: 3\n" in text and "modes: [2, 1, 1]" in text,
              f"layered files: exit {code}, resolved:\n{text}{err}")
        # dt instead of cfl: --unset the other; gaussian instead of sine: remove the modes with null.
        args = ["base.yaml", "tweaks.yaml", "--unset", "physics.cfl", "--set", "physics.dt=1e-4", "--set", "init.type=gaussian",
                "--set", "init.modes=null", "--dry-run"]
        code, out, err, _ = run(2, args, d)
        text = resolved(out)
        check(code == 0 and "  dt: 0.0001\n" in text and "type: gaussian" in text and "modes" not in text,
              f"--unset / --set null: exit {code}, resolved:\n{text}{err}")
        expect_input_error("the changed key without --unset", 2, ["base.yaml", "--set", "physics.dt=1e-4"], d,
                           "base.yaml:5:8: physics.cfl: give either physics.dt or physics.cfl, not both")
        expect_input_error("modes left behind", 2, ["base.yaml", "--set", "init.type=gaussian"], d,
                           "base.yaml:10:3: init.modes: not used here: it applies only when init.type is sine")
        expect_input_error("--unset of an unknown key", 2, ["base.yaml", "--unset", "physics.cfx"], d,
                           "--unset physics.cfx: physics.cfx: unknown key; did you mean cfl? (expected one of: alpha, cfl, dt)")
        expect_input_error("--unset of a required key", 2, ["base.yaml", "--unset", "physics.alpha"], d,
                           "--unset physics.alpha: physics.alpha: required key is missing (a positive number, the diffusivity)")
        write(d, "bad-tweak.yaml", "# a comment\nphysics:\n  cfl: 1.5\n")
        expect_input_error("error in the later file", 2, ["base.yaml", "tweaks.yaml", "bad-tweak.yaml"], d,
                           "bad-tweak.yaml:3:8: physics.cfl: expected a number in (0, 1], got 1.5")
        write(d, "bad-key.yaml", "# a comment\nrun:\n  stepz: 3\n")
        expect_input_error("unknown key in the later file", 2, ["base.yaml", "bad-key.yaml", "tweaks.yaml"], d,
                           "bad-key.yaml:3:3: run.stepz: unknown key; did you mean steps? (expected one of: " + ", ".join(run_keys()) + ")")
        for dims, ranks in (("0", 2), ("1", 1)):
            code, out, err, _ = run(ranks, ["base.yaml", "--set", f"processes.dims={dims}", "--dry-run"], d)
            text = resolved(out)
            check(code == 0 and f"  dims: [{dims}, {dims}, {dims}]\n" in text,
                  f"--set processes.dims={dims}: exit {code}, resolved:\n{text}{err}")


def run_keys():
    """The keys of the run section, as --help-input lists them, sorted."""
    return sorted(k.split(".")[1] for k in help_keys(ARGS.heat3d) if k.startswith("run."))


def help_keys(app):
    """The key paths --help-input lists (lines that do not start with a space or '#')."""
    with tempfile.TemporaryDirectory() as d:
        code, out, err, _ = run(1, ["--help-input"], d, app=app)
        check(code == 0, f"--help-input exit {code}: {err}")
    return [l.strip() for l in out.splitlines() if l.strip() and not l.startswith((" ", "#"))]


def yaml_keys(text):
    """Dotted key paths of the leaves of a resolved configuration (block mappings, flow values)."""
    keys, stack = [], []
    for line in text.splitlines():
        m = re.match(r"^( *)([A-Za-z_]\w*):(.*)$", line)
        if not m:
            continue
        depth = len(m.group(1)) // 2
        stack[depth:] = [m.group(2)]
        if m.group(3).strip() not in ("", "{}"):
            keys.append(".".join(stack))
            if m.group(3).strip().startswith("{") and m.group(3).strip() != "{}":
                keys.extend(".".join(stack) + "." + k for k in re.findall(r"(\w+):", m.group(3)))
    return keys


def docs_keys():
    """Key paths in the first column of docs/input.md's tables (`a.b`, `a.b`, ...)."""
    keys = []
    for line in open(DOCS):
        m = re.match(r"^\| (`[^|]*`) \|", line)
        if m:
            keys.extend(re.findall(r"`([A-Za-z0-9_.]+)`", m.group(1)))
    return keys


FULL_INPUTS = [  # resolved YAML of these covers every form the resolved configuration takes
    ("heat, sine, walls", BASE.replace("[12, 10, 8]\n", "[12, 10, 8]\n  periodic: [false, true, true]\n") + "boundary:\n  x: [1, 0]\n",
     []),
    ("heat, gaussian, star", BASE, ["--set", "init.type=gaussian", "--set", "stencil={type: star, order: 4}"]),
    ("heat, custom", BASE, ["--set", "grid.n=[12,12,12]", "--set",
                            "stencil={offsets: [[0,0,0],[1,0,0],[-1,0,0]], weights: [-2, 1, 1], name: line}"]),
]


def case_help():
    """--help is cartex's usage alone; Kokkos' option list only with --kokkos-help."""
    with tempfile.TemporaryDirectory() as d:
        code, out, err, _ = run(2, ["--help"], d)
        check(code == 0 and out.startswith("cartex heat3d: ") and out.count("Usage:") == 1, f"--help exit {code}:\n{out}")
        for flag in ("--unset", "--help-input", "--kokkos-help", "--restart"):
            check(flag in out, f"--help does not mention {flag}")
        check("Kokkos command line arguments" not in out + err, "--help prints Kokkos' options")
        code, out, err, _ = run(2, ["--kokkos-help"], d)
        check(code == 0 and (out + err).count("Kokkos command line arguments") == 1 and "Usage:" not in out,
              f"--kokkos-help exit {code}: Kokkos' list once, no cartex usage:\n{out}{err}")


def case_help_input():
    """--help-input lists exactly the keys the loader accepts, and docs/input.md the keys of every equation's program."""
    heat_keys, wave_keys = help_keys(ARGS.heat3d), help_keys(ARGS.wave3d)
    check(len(heat_keys) == len(set(heat_keys)) and "physics.alpha" in heat_keys and "physics.speed" not in heat_keys,
          f"heat3d --help-input keys: {heat_keys}")
    check("physics.speed" in wave_keys and "physics.alpha" not in wave_keys, f"wave3d --help-input keys: {wave_keys}")
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        # Every key of every resolved configuration is listed.
        for name, text, extra in FULL_INPUTS:
            write(d, "full.yaml", text)
            code, out, err, _ = run(1, ["full.yaml", "--dry-run"] + extra, d)
            keys = yaml_keys(resolved(out))
            check(code == 0 and len(keys) > 20, f"{name}: dry run exit {code}, keys {keys}: {err}")
            missing = [k for k in keys if k not in heat_keys]
            check(not missing, f"{name}: resolved keys missing from --help-input: {missing}")
        # The loader's list of the keys of each section is --help-input's.
        sections = sorted({k.split(".")[0] for k in heat_keys if "." in k})
        for section in [""] + sections:
            key = f"{section}.no_such_key" if section else "no_such_key"
            setting = f"{key}=1" if section != "stencil" else "stencil={type: star, order: 2, no_such_key: 1}"
            code, out, err, _ = run(1, ["in.yaml", "--set", setting], d)
            m = re.search(r"unknown key \(expected one of: (.*)\)$", err.strip())
            listed = m.group(1).split(", ") if m else None
            want = sorted({k[len(section) + 1:].split(".")[0] if section else k.split(".")[0]
                           for k in heat_keys if not section or k.startswith(section + ".")})
            check(code == 2 and listed == want, f"unknown key in '{section}': the loader lists {listed}, --help-input {want}")
    advect_keys = help_keys(ARGS.advect3d)
    check("physics.velocity" in advect_keys and "physics.speed" not in advect_keys, f"advect3d --help-input keys: {advect_keys}")
    gray_keys = help_keys(ARGS.grayscott3d)
    check("physics.feed" in gray_keys and "physics.alpha" not in gray_keys, f"grayscott3d --help-input keys: {gray_keys}")
    documented = docs_keys()
    both = sorted(set(heat_keys) | set(wave_keys) | set(advect_keys) | set(gray_keys))
    check(sorted(set(documented)) == both,
          f"docs/input.md keys differ from --help-input: only in docs {sorted(set(documented) - set(both))}, "
          f"only in --help-input {sorted(set(both) - set(documented))}")


def case_dry_run_cosmetics():
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE.replace("alpha: 1.0\n  cfl: 0.5", "alpha: 0.001\n  dt: 0.08").replace("steps: 6", "steps: 2"))
        code, out, err, _ = run(1, ["in.yaml", "--dry-run"], d)
        text = resolved(out)
        # Periodic in every dimension: no wall to write back (grid.periodic says it), so no boundary section.
        check(code == 0 and "boundary" not in text, f"a boundary section in a periodic run's resolved YAML:\n{text}")
        check("  dt: 0.08\n" in text, f"dt not in shortest round-trip form:\n{text}")
        check(re.search(r"^# placement: 1 rank on 1 node", out, re.M) is not None, f"'1 rank' in the placement line:\n{out}")
        # The resolved YAML reloads to the same run (same bits): the same checksum.
        write(d, "resolved.yaml", text)
        code, out1, err, _ = run(1, ["in.yaml", "--set", "output.checkpoint_every=2"], d)
        code2, out2, err2, _ = run(1, ["resolved.yaml"], d)
        check(code == 0 and code2 == 0 and checksum(out1) is not None and checksum(out1) == checksum(out2),
              f"resolved YAML reload: {checksum(out1)} vs {checksum(out2)}: {err}{err2}")
        check(re.search(r"^  output +0 field files, 1 checkpoint, ", out1, re.M) is not None, f"'1 checkpoint':\n{out1}")


def case_restart():
    """--restart FILE / latest without an input file uses the input stored in the checkpoint."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE + "output:\n  checkpoint_every: 2\n  keep_checkpoints: 0\n")
        code, out, err, _ = run(2, ["in.yaml"], d)
        check(code == 0, f"first run exit {code}: {err}")
        code, full, err, _ = run(2, ["in.yaml", "--set", "run.steps=10", "--set", "output.dir=fresh"], d)
        check(code == 0 and checksum(full) is not None, f"fresh 10-step run exit {code}: {err}")
        # latest looks in output.dir (here the default, output), so that run writes no checkpoints there.
        for restart, where in (("latest", "output.checkpoint_every=0"), ("output/checkpoint_000006.h5", "output.dir=again"),
                               ("output/checkpoint_000004.h5", "output.dir=again")):
            code, out, err, _ = run(3, ["--restart", restart, "--set", "run.steps=10", "--set", where], d)
            check(code == 0 and checksum(out) == checksum(full), f"--restart {restart}: exit {code}, checksum "
                  f"{checksum(out)} vs {checksum(full)}: {err}")
        # With an input file, latest looks in its output.dir.
        code, out, err, _ = run(2, ["in.yaml", "--restart", "latest", "--set", "run.steps=10", "--set", "output.checkpoint_every=0"], d)
        check(code == 0 and checksum(out) == checksum(full), f"input + --restart latest: exit {code}: {err}")
        # A damaged newest file is skipped by latest.
        write(d, "output/checkpoint_000099.h5", "not HDF5\n")
        code, out, err, _ = run(2, ["--restart", "latest", "--set", "run.steps=10", "--set", "output.checkpoint_every=0"], d)
        check(code == 0 and checksum(out) == checksum(full), f"latest past a damaged file: exit {code}: {err}")
        expect_input_error("damaged checkpoint", 2, ["--restart", "output/checkpoint_000099.h5"], d,
                           "--restart output/checkpoint_000099.h5: not an HDF5 file")
        expect_input_error("missing checkpoint", 2, ["--restart", "nothere.h5"], d, "--restart nothere.h5: no such file")
        os.mkdir(os.path.join(d, "empty"))
        expect_input_error("latest without checkpoints", 2, ["in.yaml", "--restart", "latest", "--set", "output.dir=empty"], d,
                           "--restart latest: empty: no valid checkpoint_NNNNNN.h5 in this directory (output.dir)")
        expect_input_error("neither input nor restart", 2, [], d,
                           "heat3d: an input file is required (or --restart FILE) (see heat3d --help)")
        # The checkpoint's copy of an input with numbers in every place (walls, a gaussian start and alpha) reads back.
        numbers = (BASE.replace("[12, 10, 8]\n", "[12, 10, 8]\n  periodic: [false, true, true]\n")
                   .replace("alpha: 1.0", "alpha: {gaussian: {peak: 1.5, center: [0.4, 0.55, 0.5], width: 0.2}}")
                   + "boundary:\n  x: [0.25, -1.5]\ninit: {type: gaussian, amplitude: 2.5, center: [0.3, 0.6, 0.45]}\n"
                   "output: {dir: numbers, checkpoint_every: 2, keep_checkpoints: 0}\n")
        write(d, "numbers.yaml", numbers)
        code, out, err, _ = run(2, ["numbers.yaml"], d)
        code2, full, err2, _ = run(2, ["numbers.yaml", "--set", "run.steps=10", "--set", "output.dir=numbers-full"], d)
        check(code == 0 and code2 == 0 and checksum(full) is not None, f"numbers.yaml: exit {code}, {code2}: {err}{err2}")
        code, out, err, _ = run(2, ["--restart", "numbers/checkpoint_000004.h5", "--set", "run.steps=10", "--set",
                                    "output.dir=numbers-again"], d)
        check(code == 0 and checksum(out) == checksum(full), f"--restart from numbers.yaml's checkpoint: exit {code}, checksum "
              f"{checksum(out)} vs {checksum(full)}: {err}")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ['heat3d', 'wave3d', 'advect3d', 'grayscott3d'])
