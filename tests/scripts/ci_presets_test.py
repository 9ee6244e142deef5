#!/usr/bin/env python3
"""CI as data (CMakePresets.json, scripts/ci.py): every configuration CI runs is a configure preset whose
"cartex/ci" entry names existing test presets and scripts; no script chooses tests by name or regex
(ctest -R/-E/-L/-LE): the test presets choose by label; ci.py's minutes table adds up; an unknown
configuration is refused before anything runs.
Usage: ci_presets_test.py REPO_ROOT
"""
import json
import os
import re
import subprocess
import sys

root = sys.argv[1]
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


data = json.load(open(os.path.join(root, "CMakePresets.json")))
configure = {p["name"]: p for p in data["configurePresets"]}
build = {p["name"] for p in data["buildPresets"]}
tests = {p["name"]: p for p in data["testPresets"]}
ci = data["vendor"]["cartex/ci"]["configurations"]
check(ci[0] == "release" and len(set(ci)) == len(ci), f"the CI list starts with release, no repeats: {ci}")
for name in ci:
    preset = configure.get(name)
    check(preset is not None and not preset.get("hidden"), f"{name}: a configure preset")
    if preset is None:
        continue
    spec = preset.get("vendor", {}).get("cartex/ci", {})
    check(name in build, f"{name}: a build preset")
    if "test" in spec:
        test = tests.get(spec["test"])
        check(test is not None and test["configurePreset"] == name,
              f"{name}: test preset {spec['test']} exists and runs this configuration's build")
    for command in spec.get("check", []) + ([spec["environment"]] if "environment" in spec else []):
        if "/" in command[0]:
            check(os.path.isfile(os.path.join(root, command[0])), f"{name}: {command[0]} exists")
    check("test" in spec or "check" in spec, f"{name}: runs tests or checks")
    binary = preset.get("binaryDir", "")
    check(binary == "${sourceDir}/" + ("build" if name == "release" else f"build-{name}"),
          f"{name}: binaryDir is where scripts/ci.py looks ({binary})")

# Configurations choose tests by label in their test presets, not by name in a script.
pattern = re.compile(r"\bctest\b[^\n]*\s(-R|-E|-L|-LE|--tests-regex|--exclude-regex|--label-regex|--label-exclude)\s")
for folder in ("scripts", ".ci"):
    for dirpath, _, files in os.walk(os.path.join(root, folder)):
        for f in files:
            path = os.path.join(dirpath, f)
            try:
                text = open(path).read()
            except UnicodeDecodeError:
                continue
            for number, line in enumerate(text.splitlines(), 1):
                if not line.lstrip().startswith("#") and pattern.search(line):
                    check(False, f"{os.path.relpath(path, root)}:{number} chooses tests in a script: {line.strip()}")
check(True, "no script under scripts/ or .ci/ passes -R, -E, -L or -LE to ctest")

# The minutes table of a times file: per configuration and stage, and the sum.
times = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"ci_presets_test_{os.getpid()}.tsv")
with open(times, "w") as f:
    f.write("release\tset-up\t60\nrelease\tbuild\t120\nrelease\ttests\t300\nrelease\tchecks\t0\n"
            "cuda\tset-up\t30\ncuda\tbuild\t90\nrun.sh\ttests\t6\n")
out = subprocess.run([sys.executable, os.path.join(root, "scripts/ci.py"), "--report", times],
                     stdout=subprocess.PIPE, text=True)
os.remove(times)
rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]] for line in out.stdout.splitlines()
        if line.startswith("| ") and not line.startswith("| configuration")}
check(out.returncode == 0 and rows.get("release") == ["1.0", "2.0", "5.0", "0.0", "8.0"]
      and rows.get("cuda") == ["0.5", "1.5", "0.0", "0.0", "2.0"] and rows.get("all") == ["1.5", "3.5", "5.1", "0.0", "10.1"],
      f"the minutes table: {rows}")

out = subprocess.run([sys.executable, os.path.join(root, "scripts/ci.py"), "release", "nosuch"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
check(out.returncode != 0 and "no configure preset 'nosuch'" in out.stderr and "== release" not in out.stdout,
      "an unknown configuration is refused before any configuration runs")
sys.exit(1 if failures else 0)
