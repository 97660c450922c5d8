"""CONTRIBUTING.md's modules against the code: its table of what each module imports is exactly
the package modules each one's Swift files import, every import comes from a row above, and in
the picture every module stands on a line above each module it imports (no import runs
upwards)."""

import os
import re
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CONTRIBUTING = os.path.join(REPO, "CONTRIBUTING.md")
SOURCES = os.path.join(REPO, "Sources")
IMPORT = re.compile(r"^(?:@testable\s+)?import\s+(?:(?:struct|class|enum|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)
# The C module maps: imported by the modules that wrap them, never named as a layer of their own.
C_MODULE = re.compile(r"^C[A-Z]")


def table(text):
    """The rows of the imports table, in order: (module, [imports])."""
    rows = []
    section = text.split("| module | imports |", 1)
    if len(section) < 2:
        return rows
    for line in section[1].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        module = cells[0].strip("`")
        imports = re.findall(r"`([^`]+)`", cells[1]) if len(cells) > 1 else []
        rows.append((module, imports))
    return rows


def picture(text):
    """The module picture (the first fenced block after the heading "The modules"): each module
    name it shows on the left of its text, with the number of its line from the top."""
    after = text.split("## The modules", 1)[1]
    lines = after.split("```", 2)[1].strip("\n").splitlines()
    drawn = {}
    for number, line in enumerate(lines):
        for name in re.findall(r"[A-Za-z][A-Za-z0-9-]*", line[:44]):
            drawn.setdefault(name, number)
    return drawn


def package_imports(module):
    """The modules of this package (and C maps) that `Sources/MODULE`'s Swift files import."""
    found = set()
    for folder, _, files in os.walk(os.path.join(SOURCES, module)):
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    found.update(IMPORT.findall(handle.read()))
    local = set(os.listdir(SOURCES))
    return {name for name in found if name in local and name != module}


def check(text):
    """Every disagreement between CONTRIBUTING.md's text and the sources, as sentences."""
    problems = []
    rows = table(text)
    if not rows:
        return ["CONTRIBUTING.md has no table « | module | imports | »"]
    drawn = picture(text)
    seen = set()
    for module, imports in rows:
        if not os.path.isdir(os.path.join(SOURCES, module)):
            problems.append(f"{module}: no folder Sources/{module}")
            continue
        actual = package_imports(module)
        if set(imports) != actual:
            problems.append(f"{module}: the table says {sorted(imports)}, the sources import {sorted(actual)}")
        for name in imports:
            if not C_MODULE.match(name) and name not in seen:
                problems.append(f"{module} imports {name}, which is not in a row above it (an upward import)")
        if module not in drawn:
            problems.append(f"{module}: missing from the picture")
        else:
            for name in actual:
                if drawn.get(name, -1) <= drawn[module]:
                    problems.append(f"{module} imports {name}, drawn on the same line or above it in the picture")
        seen.add(module)
    return problems


class ModuleMapTests(unittest.TestCase):
    def test_the_table_and_the_picture_match_the_imports_of_the_sources(self):
        with open(CONTRIBUTING, encoding="utf-8") as handle:
            self.assertEqual(check(handle.read()), [])

    def test_a_wrong_row_an_upward_import_and_a_module_missing_from_the_picture_are_found(self):
        with open(CONTRIBUTING, encoding="utf-8") as handle:
            text = handle.read()
        wrong = text.replace("| `FormSchema` | `AttestationKit` |", "| `FormSchema` | `AttestationKit`, `Rendering` |")
        self.assertTrue(any(p.startswith("FormSchema: the table says") for p in check(wrong)), check(wrong))
        self.assertTrue(any("upward import" in p for p in check(wrong)), check(wrong))
        unpictured = text.replace(" Rendering  LinkTokens ", " Rendering  Tokens     ", 1)
        self.assertIn("LinkTokens: missing from the picture", check(unpictured))
        lines = text.splitlines(keepends=True)
        rendering = next(n for n, line in enumerate(lines) if line.startswith(" Rendering  LinkTokens"))
        lines[rendering], lines[rendering + 1] = lines[rendering + 1], lines[rendering]
        upwards = "".join(lines)
        self.assertIn("Rendering imports FormSchema, drawn on the same line or above it in the picture", check(upwards))


if __name__ == "__main__":
    unittest.main()
