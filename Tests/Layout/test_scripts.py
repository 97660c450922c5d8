"""scripts/ as scripts/README.md shows it: every script (a file of scripts/, scripts/stress/ or
scripts/upkeep/, and the folder harness/) is in one of its tables, each table row names a script
that exists, in the folder its section says, with make targets that the Makefile has; and every
path `scripts/…` written in the repository's text (code, comments, documentation, the Makefile)
names a file or folder that exists, so that moving a script cannot leave a reference behind.

    python3 -m unittest discover -s Tests/Layout      (make check, make test)

Standard library only."""

import os
import re
import subprocess
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPTS = os.path.join(REPO, "scripts")
README = os.path.join(SCRIPTS, "README.md")
# Files of scripts/ that are not scripts, each said in the README's text.
NOT_SCRIPTS = {"README.md", "lsan-suppressions.txt"}
SECTIONS = {"": "## What make test and make run use", "stress/": "## stress/", "upkeep/": "## upkeep/"}
# A path under scripts/, as written in prose or code: ends before a space, a quote, a bracket,
# a backtick or a closing parenthesis; a final full stop or comma is the sentence's.
REFERENCE = re.compile(r"(?<![A-Za-z0-9_.-])scripts/[A-Za-z0-9_./-]*[A-Za-z0-9_/-]")
TEXT_SUFFIXES = (".md", ".swift", ".py", ".sh", ".lua", ".conf", ".yaml", ".yml", ".service", ".txt", ".json",
                 ".js", ".html", ".dict")
TEXT_NAMES = ("Makefile", "Dockerfile", "Caddyfile", "run", "Package.swift")


def scripts_on_disk():
    """Every script, as a path under scripts/ (harness/ as one)."""
    found = set()
    for folder in ("", "stress/", "upkeep/"):
        for name in sorted(os.listdir(os.path.join(SCRIPTS, folder))):
            path = os.path.join(SCRIPTS, folder, name)
            if folder == "" and name in ("stress", "upkeep"):
                continue
            if name in NOT_SCRIPTS or name == "__pycache__":
                continue
            found.add(folder + name + ("/" if os.path.isdir(path) else ""))
    return found


def readme_rows():
    """Each table row of the README: (section's folder, script as written, make targets)."""
    with open(README, encoding="utf-8") as handle:
        text = handle.read()
    rows = []
    headings = sorted((text.index(heading), folder) for folder, heading in SECTIONS.items() if heading in text)
    for index, (start, folder) in enumerate(headings):
        end = headings[index + 1][0] if index + 1 < len(headings) else len(text)
        for line in text[start:end].splitlines():
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not line.startswith("| `") or len(cells) < 3:
                continue
            script = cells[0].strip("`")
            targets = re.findall(r"`([a-z][a-z0-9-]*)`", cells[2])
            rows.append((folder, script, targets))
    return rows, [folder for _, folder in headings]


def make_targets():
    with open(os.path.join(REPO, "Makefile"), encoding="utf-8") as handle:
        return set(re.findall(r"^([a-z0-9-]+):", handle.read(), re.M))


def text_files():
    """The repository's text files: git's list when there is one, else a walk without the build
    folders."""
    try:
        listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                                capture_output=True, text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        listed = []
        for folder, folders, names in os.walk(REPO):
            folders[:] = [name for name in folders if not name.startswith(".") and name != "out"]
            listed += [os.path.relpath(os.path.join(folder, name), REPO) for name in names]
    for path in listed:
        name = os.path.basename(path)
        if (name.endswith(TEXT_SUFFIXES) or name in TEXT_NAMES) and not path.startswith("Tests/Fuzz/Corpus/"):
            if os.path.isfile(os.path.join(REPO, path)):
                yield path


class ScriptsReadmeTests(unittest.TestCase):
    def test_every_script_is_in_the_readme_and_every_row_exists(self):
        rows, _ = readme_rows()
        listed = {script for _, script, _ in rows}
        self.assertEqual(sorted(scripts_on_disk() - listed), [], "scripts missing from scripts/README.md")
        self.assertEqual(sorted(listed - scripts_on_disk()), [], "rows of scripts/README.md naming no script")
        self.assertEqual(len(listed), len(rows), "a script listed twice")

    def test_each_row_is_in_its_folders_section(self):
        rows, sections = readme_rows()
        self.assertEqual(sections, ["", "stress/", "upkeep/"], "the README's three sections, in that order")
        for folder, script, _ in rows:
            rest = script[len(folder):] if script.startswith(folder) else None
            self.assertTrue(rest and "/" not in rest.rstrip("/"), f"{script} in the section of scripts/{folder}")

    def test_the_make_targets_named_exist(self):
        targets = make_targets()
        rows, _ = readme_rows()
        for _, script, named in rows:
            self.assertTrue(named, f"{script}: no make target named")
            for target in named:
                self.assertIn(target, targets, f"{script}: make {target} is not a target of the Makefile")


class ScriptReferenceTests(unittest.TestCase):
    def test_every_scripts_path_written_exists(self):
        missing = []
        for path in text_files():
            with open(os.path.join(REPO, path), encoding="utf-8", errors="replace") as handle:
                text = handle.read()
            for number, line in enumerate(text.splitlines(), 1):
                for reference in REFERENCE.findall(line):
                    target = reference.rstrip("/")
                    # A path inside another checkout or a folder given as an example: only this
                    # repository's scripts/ is meant when the reference starts a path.
                    if not os.path.exists(os.path.join(REPO, target)):
                        missing.append(f"{path}:{number}: {reference}")
        self.assertEqual(missing, [], "paths under scripts/ that do not exist")

    def test_the_pattern_finds_a_reference_and_its_end(self):
        self.assertEqual(REFERENCE.findall("run `scripts/stress/fuzz.sh --seconds 10`."), ["scripts/stress/fuzz.sh"])
        self.assertEqual(REFERENCE.findall("(scripts/harness/), then"), ["scripts/harness/"])
        self.assertEqual(REFERENCE.findall("myscripts/x.sh"), [])


if __name__ == "__main__":
    unittest.main()
