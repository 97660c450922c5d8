"""make test and make run pass in a clone that stands alone: no test, and no script that they run,
names a path outside the repository, as the reference documents kept beside the checkout
(`../shared`, `shared/reference`) once were. What the tests compare with is copied into the
repository (Tests/FormSchemaTests/Reference/); a comment may still name where a copy came from
("copied from ../shared/reference/…"), which reads nothing.

Scanned: every file of Tests/, scripts/ and .ci/, and the Makefile. Left out: scripts/upkeep/ and
the Makefile's upkeep rules (a paragraph whose recipe runs scripts/upkeep/), the tools that make
the copies again and take a reference folder as their argument, with that folder as a default.

    python3 -m unittest discover -s Tests/Layout      (make check, make test)

Standard library only."""

import os
import re
import subprocess
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
THIS_FILE = os.path.relpath(os.path.abspath(__file__), REPO)
SCANNED_FOLDERS = ("Tests/", "scripts/", ".ci/")
SCANNED_FILES = ("Makefile",)
UPKEEP = "scripts/upkeep/"
# A path to the folder beside the checkout: ../shared (at any depth), or shared/reference.
OUTSIDE = re.compile(r"(?:\.\./)*(?:\.\./shared|shared/reference)(?![A-Za-z0-9_-])")
# The source of a copy, named in a comment: reads nothing.
PROVENANCE = re.compile(r"copied from `?(?:\.\./)*shared/reference[A-Za-z0-9_./-]*")


def repository_files():
    """The repository's files: git's list when there is one (new files not ignored included), else
    a walk without the hidden and build folders."""
    try:
        listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                                capture_output=True, text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        listed = []
        for folder, folders, names in os.walk(REPO):
            folders[:] = [name for name in folders
                          if name == ".ci" or not (name.startswith(".") or name == "out")]
            listed += [os.path.relpath(os.path.join(folder, name), REPO) for name in names]
    return [path for path in listed if os.path.isfile(os.path.join(REPO, path))]


def scanned(path):
    if path == THIS_FILE or path.startswith(UPKEEP):
        return False
    return path in SCANNED_FILES or path.startswith(SCANNED_FOLDERS)


def outside_paths(line):
    """The paths outside the repository that LINE names, its copies' sources left out."""
    return OUTSIDE.findall(PROVENANCE.sub("", line))


def makefile_upkeep_lines(text):
    """The numbers of the Makefile's lines in an upkeep paragraph: a run of lines without a blank
    one (its comments, variables and rule) whose recipe runs a script of scripts/upkeep/."""
    lines = text.splitlines()
    upkeep, paragraph = set(), []
    for number, line in enumerate(lines + [""], 1):
        if line.strip():
            paragraph.append((number, line))
            continue
        if any(line.startswith("\t") and UPKEEP in line for _, line in paragraph):
            upkeep.update(number for number, _ in paragraph)
        paragraph = []
    return upkeep


def findings(path, text):
    """`path:line: path named` for each path outside the repository in the file's text."""
    exempt = makefile_upkeep_lines(text) if path == "Makefile" else set()
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if number in exempt:
            continue
        for named in outside_paths(line):
            found.append(f"{path}:{number}: {named}  ({line.strip()[:120]})")
    return found


class StandaloneCloneTests(unittest.TestCase):
    def test_no_test_or_script_names_a_path_outside_the_repository(self):
        found = []
        for path in sorted(filter(scanned, repository_files())):
            with open(os.path.join(REPO, path), "rb") as handle:
                text = handle.read().decode("utf-8", errors="replace")
            found += findings(path, text)
        if found:
            self.fail("paths outside the repository, which a clone that stands alone does not have: copy what "
                      "is read into the repository (Tests/FormSchemaTests/Reference/) and read it there\n"
                      + "\n".join(found))

    def test_the_scan_finds_a_path_and_leaves_a_copys_source(self):
        self.assertEqual(outside_paths('if [ -d "$ROOT/../shared" ]; then'), ["../shared"])
        self.assertEqual(outside_paths('folder.appendingPathComponent("shared/reference").path'),
                         ["shared/reference"])
        self.assertEqual(outside_paths("see ../../../../../shared/reference/official-LICENCE.txt"),
                         ["../../../../../shared/reference"])
        self.assertEqual(outside_paths("/// (Reference/, copied from ../shared/reference/forms/: facts.json)"), [])
        self.assertEqual(outside_paths("copied from ../shared/reference/x.txt, read from ../shared/y"),
                         ["../shared"])
        self.assertEqual(outside_paths("the shared server; ../shared-cache; shared/references.md"), [])

    def test_only_the_makefiles_upkeep_rules_may_name_the_reference_folder(self):
        makefile = ("# pictures\nBLANKS ?= ../shared/reference/forms\npictures:\n"
                    "\tscripts/upkeep/form-pictures.sh $(BLANKS)\n\n"
                    "# tests\nREF ?= ../shared/reference\ntest:\n\tscripts/run-stages.py $(REF)\n")
        self.assertEqual([finding.split("  (")[0] for finding in findings("Makefile", makefile)],
                         ["Makefile:7: ../shared/reference"])


if __name__ == "__main__":
    unittest.main()
