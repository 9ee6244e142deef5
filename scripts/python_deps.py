"""What the scripts/*.py tools share: when this Python lacks a module they need, one line saying
which Debian packages to install or which interpreter has them, and exit code 2 (no traceback).

    from python_deps import require
    require("h5py", "numpy", "matplotlib")   # before importing them
"""
import importlib
import os
import subprocess
import sys

# Debian package of each module the tools use.
DEBIAN_PACKAGES = {"h5py": "python3-h5py", "numpy": "python3-numpy", "matplotlib": "python3-matplotlib"}
# The interpreter scripts/setup.sh equips (Debian's own python3).
SYSTEM_PYTHON = "/usr/bin/python3"


def _imports(python, modules):
    """True if `python` imports every one of `modules`."""
    try:
        return subprocess.run([python, "-c", "import " + ", ".join(modules)], capture_output=True,
                              timeout=60).returncode == 0
    except OSError:
        return False


def require(*modules):
    """Returns when every module imports; otherwise prints one line on stderr and exits 2."""
    missing = []
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if not missing:
        return
    script = os.path.basename(sys.argv[0])
    packages = " ".join(DEBIAN_PACKAGES[m] for m in modules)
    hint = f"install the Debian packages {packages}"
    # A venv's python3 links to the system one but has its own modules: only the plain one is "it".
    is_system = os.path.realpath(sys.executable) == os.path.realpath(SYSTEM_PYTHON) and sys.prefix == sys.base_prefix
    if not is_system and _imports(SYSTEM_PYTHON, modules):
        hint = f"run it with {SYSTEM_PYTHON} (which has them): {SYSTEM_PYTHON} {sys.argv[0]} ...; or {hint}"
    print(f"{script}: the Python at {sys.executable} lacks {', '.join(missing)}; {hint}", file=sys.stderr)
    sys.exit(2)
