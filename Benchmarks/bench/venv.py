"""The virtualenv the comparison scripts run in: tantivy pinned to the version the figures name, and matplotlib."""
import os
import subprocess
import sys

TANTIVY_VERSION = "0.27.0"
TANTIVY_PIN = f"tantivy=={TANTIVY_VERSION}"


def ensure_venv(tool):
    """Re-executes the running script (sys.argv[0]) inside the venv at env LOUPE_BENCH_VENV (default
    /tmp/loupe-bench-venv), creating it and installing the pins on first use; returns when already inside it.
    `tool` names the script in what it prints."""
    venv = os.environ.get("LOUPE_BENCH_VENV", "/tmp/loupe-bench-venv")
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        return
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.check_call([sys.executable, "-m", "venv", venv])
    probe = f"import importlib.metadata as m, matplotlib; assert m.version('tantivy') == '{TANTIVY_VERSION}'"
    if subprocess.call([python, "-c", probe], stderr=subprocess.DEVNULL) != 0:
        print(f"{tool}: installing {TANTIVY_PIN} and matplotlib into {venv}", file=sys.stderr)
        subprocess.check_call([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                               TANTIVY_PIN, "matplotlib"])
    os.execv(python, [python, os.path.abspath(sys.argv[0]), *sys.argv[1:]])
