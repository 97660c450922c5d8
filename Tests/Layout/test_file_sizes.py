"""No Swift file of Sources, Tests or Benchmarks is over 800 lines: a file that long holds more
than one job (FormBuilder.swift reached 988 lines before it was split by what it builds: texts,
reasons, pictures and QR codes). Split it by what its parts build or check.

    python3 -m unittest discover -s Tests/Layout      (make check, make test)

Standard library only."""

import os
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MAXIMUM_LINES = 800


def swift_files():
    for top in ("Sources", "Tests", "Benchmarks"):
        for folder, _, names in os.walk(os.path.join(REPO, top)):
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


class SwiftFileSizeTests(unittest.TestCase):
    def test_no_swift_file_is_over_800_lines(self):
        long = []
        for path in swift_files():
            with open(path, encoding="utf-8") as file:
                count = sum(1 for _ in file)
            if count > MAXIMUM_LINES:
                long.append(f"{os.path.relpath(path, REPO)}: {count} lines")
        self.assertEqual(long, [], f"over {MAXIMUM_LINES} lines; split by what the parts build")


if __name__ == "__main__":
    unittest.main()
