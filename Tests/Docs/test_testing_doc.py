"""docs/testing.md says what is true: the number of tests it gives for each kind is the number in
the code, and its table of make test's stages is the one scripts/run-stages.py runs (names, what
each does, what each waits for; the times are a recorded run's, written by
`scripts/run-stages.py --doc`).

    python3 -m unittest discover -s Tests/Docs      (make check, make test)

The Swift tests are counted in the sources (each @Test outside comments and strings); with
SWIFT_TEST_LIST naming the output of `swift test list`, as make test's swift-test-list stage gives
it, that count must also be the list's, so the count in the sources is proved against the test
runner's own. Standard library only."""

import importlib.util
import os
import re
import sys
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOC = os.path.join(REPO, "docs", "testing.md")
sys.path.insert(0, os.path.join(REPO, "Tests", "Layout"))

from test_swift_test_files import code_only, test_files  # noqa: E402


def run_stages():
    spec = importlib.util.spec_from_file_location("run_stages", os.path.join(REPO, "scripts", "run-stages.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def swift_tests():
    """The @Test functions of the test targets, counted in their code."""
    count = 0
    for path in test_files():
        with open(os.path.join(REPO, path), encoding="utf-8") as handle:
            count += len(re.findall(r"(?<![A-Za-z0-9_])@Test\b", code_only(handle.read())))
    return count


def swift_targets():
    tests = os.path.join(REPO, "Tests")
    return sum(1 for name in os.listdir(tests) if name.endswith("Tests") and os.path.isdir(os.path.join(tests, name)))


def python_tests(folder):
    """The test methods of a folder's test_*.py files (unittest's discovery)."""
    count = 0
    for name in os.listdir(os.path.join(REPO, folder)):
        if name.startswith("test_") and name.endswith(".py"):
            with open(os.path.join(REPO, folder, name), encoding="utf-8") as handle:
                count += len(re.findall(r"^[ \t]+def test_", handle.read(), re.M))
    return count


def stated(text, label):
    """The number docs/testing.md gives in its counts list for LABEL (`- **LABEL**: N …`)."""
    found = re.search(r"^- \*\*" + re.escape(label) + r"\*\*: ([0-9,]+)", text, re.M)
    if not found:
        raise AssertionError(f"docs/testing.md gives no count for {label!r}")
    return int(found.group(1).replace(",", ""))


class TestCountsTests(unittest.TestCase):
    def setUp(self):
        with open(DOC, encoding="utf-8") as handle:
            self.text = handle.read()

    def test_the_swift_tests_and_targets(self):
        self.assertEqual(stated(self.text, "Swift tests"), swift_tests())
        self.assertEqual(stated(self.text, "Swift test targets"), swift_targets())

    def test_the_python_tests(self):
        for label, folder in [("browser tests", "Tests/Browser"), ("harness tests", "scripts/harness"),
                              ("documentation and layout tests", None)]:
            expected = (python_tests(folder) if folder
                        else python_tests("Tests/Docs") + python_tests("Tests/Layout"))
            self.assertEqual(stated(self.text, label), expected, label)

    def test_the_count_in_the_sources_is_swift_test_lists(self):
        listing = os.environ.get("SWIFT_TEST_LIST")
        if not listing:
            self.skipTest("SWIFT_TEST_LIST not set (make test's swift-test-list stage sets it)")
        with open(listing, encoding="utf-8") as handle:
            listed = [line for line in handle.read().splitlines() if re.match(r"^[A-Za-z]+Tests\.", line)]
        self.assertEqual(len(listed), swift_tests(), "swift test list and the @Test attributes disagree")

    def test_a_count_is_found_where_it_is_written(self):
        self.assertEqual(stated("- **Swift tests**: 1,234 in …", "Swift tests"), 1234)
        with self.assertRaises(AssertionError):
            stated("Swift tests: 12", "Swift tests")


class StageTableTests(unittest.TestCase):
    def test_the_table_is_the_stages_of_run_stages(self):
        module = run_stages()
        with open(DOC, encoding="utf-8") as handle:
            text = handle.read()
        self.assertIn(module.DOC_START, text)
        written = text.split(module.DOC_START, 1)[1].split(module.DOC_END, 1)[0]
        times = module.doc_times(text)
        self.assertEqual(module.DOC_START + written + module.DOC_END, module.doc_section(module.stages(), times),
                         "docs/testing.md's stages differ from scripts/run-stages.py's: scripts/run-stages.py --doc")

    def test_a_stage_added_or_renamed_is_seen(self):
        module = run_stages()
        with open(DOC, encoding="utf-8") as handle:
            text = handle.read()
        times = module.doc_times(text)
        every = module.stages()
        every[0].name += "-renamed"
        self.assertNotEqual(module.doc_section(every, times), module.doc_section(module.stages(), times))


if __name__ == "__main__":
    unittest.main()
