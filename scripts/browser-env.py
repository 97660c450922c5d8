#!/usr/bin/python3
"""The Python environment of the browser tests (Tests/Browser) and of make screenshots:
.venv-browser (or $BROWSER_VENV), made with Debian's interpreter and its site packages, so
Debian's selenium (python3-selenium, installed by scripts/install-deps.sh --browser) is the one
used, plus axe-selenium-python from PyPI, pinned by version and hash. Does nothing when it is
all there.

axe-selenium-python 3.0.0 bundles axe-core 4.10.2; the last release that declares Python 3.11
(Debian 12's) is 2.1.6, which bundles axe-core 3.1.1 from 2018. 3.0.0 is a 100-line module (json
and os, plus the axe-core script) that runs as is on 3.11, so it is installed with
--ignore-requires-python. Its declared pytest and selenium requirements are left out (--no-deps):
it imports neither, and selenium comes from Debian.
"""
import importlib.util
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(REPO, os.environ.get("BROWSER_VENV", ".venv-browser"))
PYTHON = os.path.join(VENV, "bin", "python")
AXE_VERSION = "3.0.0"
AXE_SHA256 = "847e3925861133a523609ff27d0fef387e7588a26f23a27c208a30682b8e9240"

# Run by the environment's own interpreter: the right axe, and Debian's selenium.
READY_CHECK = f"""
from importlib.metadata import version
import selenium, axe_selenium_python
assert version("axe-selenium-python") == {AXE_VERSION!r}
assert selenium.__file__.startswith("/usr/lib/python3/dist-packages/"), selenium.__file__
"""


def ready():
    return os.access(PYTHON, os.X_OK) and subprocess.run(
        [PYTHON, "-c", READY_CHECK], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def main():
    if ready():
        return 0
    if not all(importlib.util.find_spec(module) for module in ("ensurepip", "selenium", "venv")):
        print("browser-env: Debian's python3-selenium and python3-venv are missing: run scripts/install-deps.sh --browser",
              file=sys.stderr)
        return 69
    try:
        if not os.access(PYTHON, os.X_OK):
            subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", VENV], check=True)
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as requirements:
            requirements.write(f"axe-selenium-python=={AXE_VERSION} --hash=sha256:{AXE_SHA256}\n")
            requirements.flush()
            subprocess.run([PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                            "--ignore-requires-python", "--require-hashes", "-r", requirements.name], check=True)
    except subprocess.CalledProcessError as error:
        print(f"browser-env: {' '.join(error.cmd[:4])} … failed (status {error.returncode})", file=sys.stderr)
        return 70
    if not ready():
        print(f"browser-env: {VENV} is not usable after installing", file=sys.stderr)
        return 70
    return 0


if __name__ == "__main__":
    sys.exit(main())
