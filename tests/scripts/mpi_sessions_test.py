#!/usr/bin/env python3
"""Every test of the build tree (but the multinode ones, whose testbed gives each node its own TMPDIR)
runs its MPI jobs under an Open MPI session-directory base of its own (cmake/CartexTesting.cmake's
cartex_finish_test_folder): otherwise two jobs started side by side by ctest -j can race on the
per-user session directory and one fails (open-mpi/ompi#8510). Every such test also names the ob1 PML and
no SIGTERM-to-SIGKILL grace (what a launch costs, docs/testing.md), and every test carries its folder's
label, by which the CI configurations choose what they run (docs/testing.md)."""
import json
import subprocess
import sys

KEY = "OMPI_MCA_orte_tmpdir_base="
FIXED = ["OMPI_MCA_pml=ob1", "OMPI_MCA_odls_base_sigkill_timeout=0"]


def main(ctest, build_dir):
    p = subprocess.run([ctest, "--test-dir", build_dir, "--show-only=json-v1"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: ctest --show-only=json-v1 exited {p.returncode}: {p.stderr.strip()}")
    problems, bases = [], {}
    tests = json.loads(p.stdout)["tests"]
    for test in tests:
        props = {prop["name"]: prop["value"] for prop in test.get("properties", [])}
        if "multinode" in props.get("LABELS", []):
            continue
        values = [e[len(KEY):] for e in props.get("ENVIRONMENT", []) if e.startswith(KEY)]
        missing = [e for e in FIXED if e not in props.get("ENVIRONMENT", [])]
        if missing:
            problems.append(f"{test['name']}: no {', '.join(missing)} (call cartex_finish_test_folder() at the end "
                            f"of its folder's CMakeLists.txt)")
        if not props.get("LABELS"):
            problems.append(f"{test['name']}: no label (call cartex_finish_test_folder() at the end of its "
                            f"folder's CMakeLists.txt)")
        if len(values) != 1:
            problems.append(f"{test['name']}: {len(values)} session-directory bases (expected 1; call "
                            f"cartex_finish_test_folder() at the end of its folder's CMakeLists.txt)")
        elif values[0] in bases:
            problems.append(f"{test['name']}: shares its session-directory base with {bases[values[0]]}")
        else:
            bases[values[0]] = test["name"]
    if len(bases) < 2:
        problems.append(f"only {len(bases)} of {len(tests)} tests checked: the listing is not what this test expects")
    for line in problems:
        print("FAIL:", line)
    if problems:
        sys.exit(1)
    print(f"ok: {len(bases)} tests, each with a session-directory base of its own")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
