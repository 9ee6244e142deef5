#!/usr/bin/env python3
"""Runs CI configurations by name, as CMakePresets.json describes them (scripts/ci.sh is the entry).

A configuration is a configure preset with the same name; its "cartex/ci" vendor entry says what
happens around cmake (docs/testing.md, "Configurations"):

    setup        options of scripts/setup.sh (packages beyond the everyday ones)
    kokkos       a scripts/kokkos.sh variant; its prefix becomes CARTEX_KOKKOS_ROOT for the preset
    environment  [script, args...]: a bash file sourced for the tests and checks
    clean        directories emptied before the tests (e.g. where sanitizers write reports)
    test         the test preset to run after the build
    check        commands run after the tests, from the repository root

Each configuration runs four stages, timed: set-up (packages, Kokkos), build (configure and build
presets), tests (the test preset), checks. A stage that fails stops everything after it.

Usage: scripts/ci.sh NAME... | --all       run configurations (--all: the root entry's list, in order)
       scripts/ci.sh --list                the configurations CI runs, one a line
       scripts/ci.sh --report TIMES        the minutes table of a TIMES file
Times are appended to $CARTEX_CI_TIMES (tab-separated: configuration, stage, seconds) when it is set.
"""
import json
import os
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENDOR = "cartex/ci"
STAGES = ("set-up", "build", "tests", "checks")


def presets():
    with open(os.path.join(ROOT, "CMakePresets.json")) as f:
        return json.load(f)


def configurations(data):
    return data["vendor"][VENDOR]["configurations"]


def configure_preset(data, name):
    for preset in data["configurePresets"]:
        if preset["name"] == name and not preset.get("hidden"):
            return preset
    known = ", ".join(p["name"] for p in data["configurePresets"] if not p.get("hidden"))
    sys.exit(f"ci.sh: no configure preset '{name}' (known: {known})")


def entry(data, name):
    return configure_preset(data, name).get("vendor", {}).get(VENDOR, {})


def has_build_preset(data, name):
    return any(p["name"] == name for p in data.get("buildPresets", []))


class Failed(Exception):
    pass


def run(argv, env, log=None):
    print("+ " + " ".join(shlex.quote(a) for a in argv), flush=True)
    if log is None:
        rc = subprocess.call(argv, cwd=ROOT, env=env)
    else:
        # Output to the console and to LOG (a check may read the compiler's warnings back).
        with open(log, "w") as out:
            proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            for line in proc.stdout:
                sys.stdout.buffer.write(line)
                out.write(line.decode(errors="replace"))
            sys.stdout.flush()
            rc = proc.wait()
    if rc != 0:
        raise Failed(f"{argv[0]} exited {rc}")


def capture(argv, env):
    out = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    if out.returncode != 0:
        raise Failed(f"{argv[0]} exited {out.returncode}")
    return out.stdout.strip()


def sourced_environment(script, env):
    """The environment after `. script args...` in bash."""
    code = ". " + " ".join(shlex.quote(a) for a in script) + " && env -0"
    out = subprocess.run(["bash", "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE)
    if out.returncode != 0:
        raise Failed(f"sourcing {script[0]} failed")
    return dict(item.split("=", 1) for item in out.stdout.decode().split("\0") if "=" in item)


def record(name, stage, seconds):
    path = os.environ.get("CARTEX_CI_TIMES")
    if path:
        with open(path, "a") as f:
            f.write(f"{name}\t{stage}\t{seconds:.0f}\n")


class Prefetch:
    """The packages of the configurations after the first, downloaded in the background (setup.sh
    --download-only) while the first one builds: on a fresh machine the CUDA toolkit's 1.6 GB come in
    while the Release build compiles. The download starts with the first build (start()), after the
    first set-up, whose own packages (Release's: the Slurm testbed's) would otherwise wait for it. A
    set-up that installs packages waits for it first (apt's locks); a failed download is only
    reported: that set-up then downloads as usual."""

    def __init__(self, data, names):
        chunks = []
        for name in names[1:]:
            setup = entry(data, name).get("setup", [])
            if setup and setup not in chunks:
                chunks.append(setup)
        self.options = [option for chunk in chunks for option in chunk]
        self.names = names[1:]
        self.proc = None
        self.started = False

    def start(self):
        if self.started or not self.options:
            return
        self.started = True
        print("== ci.sh: downloading the packages of " + ", ".join(self.names) + " in the background", flush=True)
        self.proc = subprocess.Popen([os.path.join(ROOT, "scripts/setup.sh"), "--download-only"] + self.options,
                                     cwd=ROOT, stdin=subprocess.DEVNULL)

    def wait(self):
        if self.proc is not None:
            rc = self.proc.wait()
            if rc != 0:
                print(f"ci.sh: the background download exited {rc}; set-up downloads what it needs", flush=True)
            self.proc = None


def run_configuration(data, name, prefetch):
    spec = entry(data, name)
    env = dict(os.environ)
    binary_dir = configure_preset(data, name)["binaryDir"].replace("${sourceDir}", ROOT)
    stage_times = {}

    def stage(stage_name, body):
        t0 = time.monotonic()
        print(f"== {name}: {stage_name}", flush=True)
        try:
            body()
        finally:
            stage_times[stage_name] = time.monotonic() - t0
            record(name, stage_name, stage_times[stage_name])

    def setup():
        if spec.get("setup"):
            prefetch.wait()
        run([os.path.join(ROOT, "scripts/setup.sh")] + spec.get("setup", []), env)
        if "kokkos" in spec:
            env["CARTEX_KOKKOS_ROOT"] = capture([os.path.join(ROOT, "scripts/kokkos.sh"), spec["kokkos"]], env)

    def build():
        prefetch.start()
        run(["cmake", "--preset", name], env)
        if has_build_preset(data, name):
            os.makedirs(binary_dir, exist_ok=True)
            run(["cmake", "--build", "--preset", name, "--parallel", str(os.cpu_count() or 2)], env,
                log=os.path.join(binary_dir, "ci-build.log"))

    test_env = {}  # the environment of the tests and checks, made once

    def test_environment():
        if not test_env:
            test_env.update(sourced_environment(spec["environment"], env) if "environment" in spec else env)
        return test_env

    def tests():
        for d in spec.get("clean", []):
            path = os.path.join(ROOT, d)
            if os.path.isdir(path):
                for f in os.listdir(path):
                    os.remove(os.path.join(path, f))
        if "test" in spec:
            run(["ctest", "--preset", spec["test"]], test_environment())

    def checks():
        for command in spec.get("check", []):
            program = os.path.join(ROOT, command[0]) if "/" in command[0] else command[0]
            run([program] + command[1:], test_environment())

    stage("set-up", setup)
    stage("build", build)
    failure = None
    try:
        stage("tests", tests)
    except Failed as e:
        failure = e
    stage("checks", checks)  # after failed tests too: a sanitizer report says why a test failed
    if failure:
        raise failure
    return stage_times


def table(rows):
    """rows: (configuration, stage, seconds) -> the minutes table, one row per configuration."""
    order, minutes = [], {}
    for name, stage_name, seconds in rows:
        if name not in minutes:
            order.append(name)
            minutes[name] = {}
        minutes[name][stage_name] = minutes[name].get(stage_name, 0) + seconds / 60
    lines = ["| configuration | " + " | ".join(STAGES) + " | total |", "|---|" + "---:|" * (len(STAGES) + 1)]
    totals = dict.fromkeys(STAGES, 0.0)
    for name in order:
        cells = [minutes[name].get(s, 0.0) for s in STAGES]
        for s, c in zip(STAGES, cells):
            totals[s] += c
        lines.append(f"| {name} | " + " | ".join(f"{c:.1f}" for c in cells) + f" | {sum(cells):.1f} |")
    lines.append("| all | " + " | ".join(f"{totals[s]:.1f}" for s in STAGES) + f" | {sum(totals.values()):.1f} |")
    return "\n".join(lines)


def read_times(path):
    rows = []
    with open(path) as f:
        for line in f:
            name, stage_name, seconds = line.rstrip("\n").split("\t")
            rows.append((name, stage_name, float(seconds)))
    return rows


def main(argv):
    data = presets()
    if argv == ["--list"]:
        print("\n".join(configurations(data)))
        return 0
    if len(argv) == 2 and argv[0] == "--report":
        print(table(read_times(argv[1])))
        return 0
    if not argv or any(a.startswith("-") and a != "--all" for a in argv):
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        return 2
    names = configurations(data) if argv == ["--all"] else argv
    for name in names:
        entry(data, name)  # every name known before anything runs
    rows = []
    prefetch = Prefetch(data, names)
    for name in names:
        try:
            times = run_configuration(data, name, prefetch)
        except Failed as e:
            prefetch.wait()
            print(f"ci.sh: configuration {name} failed: {e}", file=sys.stderr)
            return 1
        rows += [(name, s, t) for s, t in times.items()]
    prefetch.wait()
    print(f"== ci.sh: {', '.join(names)} passed; minutes per stage")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
