"""scripts/run-stages.py reports a stage that failed once and passed when run again as flaky
(issue 39): its outcome says so, the end of the run counts them, and docs/testing.md keeps the
flaky stages of the last runs recorded.

    python3 -m unittest discover -s Tests/Layout      (make check, make test)

Standard library only; the stages here are small shell commands in a temporary folder."""

import contextlib
import importlib.util
import io
import os
import tempfile
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def run_stages_module():
    spec = importlib.util.spec_from_file_location("run_stages", os.path.join(REPO, "scripts", "run-stages.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FlakyStageTests(unittest.TestCase):
    def setUp(self):
        self.module = run_stages_module()
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def run_stages(self, stages):
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            status = self.module.run(stages, self.folder.name)
        return status, output.getvalue()

    def test_a_stage_that_passes_on_its_second_run_is_reported_flaky_not_ok(self):
        marker = os.path.join(self.folder.name, "ran-once")
        Stage = self.module.Stage
        flaky = Stage("smoke", f"if [ -e {marker} ]; then exit 0; else touch {marker}; exit 1; fi", retry=True)
        steady = Stage("lint", "true")
        status, output = self.run_stages([steady, flaky])
        self.assertEqual(status, 0, output)
        self.assertEqual(flaky.outcome, "FLAKY, ok on 2nd run")
        self.assertEqual(steady.outcome, "ok")
        self.assertIn("Flaky: 1 stage(s) failed once, then passed on their second run: smoke.", output)
        self.assertRegex(output, r"smoke\s+\S+\s+\S+\s+\S+\s+FLAKY, ok on 2nd run")

    def test_a_stage_that_fails_twice_fails_and_none_is_flaky(self):
        status, output = self.run_stages([self.module.Stage("smoke", "exit 1", retry=True)])
        self.assertEqual(status, 1, output)
        self.assertIn("Flaky: 0 stage(s) failed once, then passed on their second run.", output)

    def test_the_doc_keeps_the_flaky_stages_of_the_last_runs(self):
        times = {"stages": {}, "total": 60, "cpu": 90, "note": "2026-11-28, commit abc1234, 2 cores",
                 "flaky_history": [["2026-11-28, commit abc1234, 2 cores", ["stress-hostile"]],
                                   ["2026-11-27, commit 0000000, 2 cores", []]]}
        section = self.module.doc_section(self.module.stages(), times)
        self.assertIn("- 2026-11-28, commit abc1234, 2 cores: `stress-hostile`", section)
        self.assertIn("- 2026-11-27, commit 0000000, 2 cores: none", section)
        read = self.module.doc_times(section)
        self.assertEqual(read["flaky_history"], times["flaky_history"])


if __name__ == "__main__":
    unittest.main()
