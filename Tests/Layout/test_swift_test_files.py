"""The Swift tests can be found by name: in every test target (Tests/*Tests), each file holds one
suite, a top-level struct named like the file (FailClosedTests in FailClosedTests.swift), whose
name ends in Tests; nested suites inside it are its own. The helpers a target's suites share live
in its Support.swift (or in the TestSupport module), which holds no suite.

    python3 -m unittest discover -s Tests/Layout      (make check, make test)

Standard library only. A struct is a suite when it carries @Suite or holds a @Test; a suite
nested in an extension of another (the ServerTests' suites sharing one server) counts as the
file's suite, so it is named like its file too."""

import os
import re
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HELPER_FILE = "Support.swift"
TYPE_DECLARATION = re.compile(
    r"(?:(?:public|internal|fileprivate|private|final)\s+)*"
    r"(struct|class|enum|actor|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)"
)
STRING_OPENING = re.compile(r'(#*)("""|")')


def test_files():
    """Every .swift file of the test targets, as paths from the root."""
    tests = os.path.join(REPO, "Tests")
    for target in sorted(os.listdir(tests)):
        if not target.endswith("Tests") or not os.path.isdir(os.path.join(tests, target)):
            continue
        for folder, _, names in os.walk(os.path.join(tests, target)):
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.relpath(os.path.join(folder, name), REPO)


def code_only(source):
    """The source with comments and string literals blanked out (newlines kept), so that the
    braces and words left are code. String interpolations stay code."""
    out = []
    i, n = 0, len(source)
    # Each entry: ("string", closing delimiter) or ("interpolation", depth of parentheses).
    stack = []

    def in_string():
        return stack and stack[-1][0] == "string"

    while i < n:
        c = source[i]
        if in_string():
            closing = stack[-1][1]
            raw = closing.endswith("#")
            escape = "\\" + closing[len(closing.rstrip("#")) :] if raw else "\\"
            if source.startswith(escape + "(", i):
                stack.append(("interpolation", 0))
                out.append(" " * (len(escape) + 1))
                i += len(escape) + 1
            elif source.startswith(escape, i):
                out.append(" " * (len(escape) + 1))
                i += len(escape) + 1
            elif source.startswith(closing, i):
                stack.pop()
                out.append(" " * len(closing))
                i += len(closing)
            else:
                out.append("\n" if c == "\n" else " ")
                i += 1
            continue
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
            continue
        if source.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if source.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif source.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("".join("\n" if ch == "\n" else " " for ch in source[i:j]))
            i = j
            continue
        opening = STRING_OPENING.match(source, i) if c in '#"' else None
        if opening and (opening.group(1) or c == '"'):
            hashes, quotes = opening.group(1), opening.group(2)
            stack.append(("string", quotes + hashes))
            out.append(" " * len(opening.group(0)))
            i += len(opening.group(0))
            continue
        if stack and stack[-1][0] == "interpolation":
            if c == "(":
                stack[-1] = ("interpolation", stack[-1][1] + 1)
            elif c == ")":
                if stack[-1][1] == 0:
                    stack.pop()
                    out.append(" ")
                    i += 1
                    continue
                stack[-1] = ("interpolation", stack[-1][1] - 1)
        out.append(c)
        i += 1
    return "".join(out)


def declarations(code, start, end, depth):
    """The type declarations whose keyword is at brace depth `depth` between start and end, each
    as (kind, name, attributes text before it, body start, body end)."""
    found = []
    level = 0
    i = start
    previous_end = start
    while i < end:
        c = code[i]
        if c == "{":
            level += 1
        elif c == "}":
            level -= 1
            if level == 0:
                previous_end = i + 1
        elif level == 0:
            match = TYPE_DECLARATION.match(code, i)
            if match and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] == "_")):
                body = code.find("{", match.end())
                closing = matching_brace(code, body)
                found.append((match.group(1), match.group(2), code[previous_end:i], body, closing))
                i = closing + 1
                previous_end = i
                continue
        i += 1
    return found


def matching_brace(code, opening):
    level = 0
    for i in range(opening, len(code)):
        if code[i] == "{":
            level += 1
        elif code[i] == "}":
            level -= 1
            if level == 0:
                return i
    raise ValueError("unbalanced braces")


def is_suite(code, attributes, body_start, body_end):
    return "@Suite" in attributes or "@Test" in code[body_start:body_end]


def suites_of(source):
    """The names of the file's suites: its top-level structs that are suites, and the suites
    declared directly inside its top-level extensions."""
    code = code_only(source)
    suites = []
    for kind, name, attributes, start, end in declarations(code, 0, len(code), 0):
        if kind == "extension":
            for _, inner, inner_attributes, inner_start, inner_end in declarations(code, start + 1, end, 0):
                if is_suite(code, inner_attributes, inner_start, inner_end):
                    suites.append(inner)
            # Tests added to another file's suite: that suite would be spread over two files.
            if "@Test" in code[start:end] and not any(
                "@Test" in code[s:e] for _, _, _, s, e in declarations(code, start + 1, end, 0)
            ):
                suites.append(name)
        elif is_suite(code, attributes, start, end):
            suites.append(name)
    return suites


def layout_problems(path, source):
    """What is wrong with one test file's layout, as sentences; none if it is right."""
    name = os.path.basename(path)
    suites = suites_of(source)
    if name == HELPER_FILE:
        return [f"{path}: a helper file holds suite {s}" for s in suites]
    if not suites:
        return [f"{path}: no suite (shared helpers go in {HELPER_FILE} or TestSupport)"]
    if len(suites) > 1:
        return [f"{path}: {len(suites)} suites ({', '.join(suites)}): one per file"]
    problems = []
    if name != suites[0] + ".swift":
        problems.append(f"{path}: holds suite {suites[0]}, so should be named {suites[0]}.swift")
    if not suites[0].endswith("Tests"):
        problems.append(f"{path}: suite {suites[0]}'s name does not end in Tests")
    return problems


class ParserTests(unittest.TestCase):
    """The parser on small sources, so a wrong verdict on the tree is the tree's."""

    def test_braces_and_keywords_inside_strings_and_comments_are_not_code(self):
        source = (
            '// struct CommentTests { @Test\n'
            '/* struct Block { /* nested */ } */\n'
            '@Suite struct RealTests {\n'
            '    let s = "struct Fake { \\(f("}")) @Test"\n'
            '    let raw = #"struct Raw { "quoted" "#\n'
            '    let many = """\n    struct Multi {\n    """\n'
            '    @Test func t() {}\n'
            '}\n'
        )
        self.assertEqual(suites_of(source), ["RealTests"])

    def test_a_struct_with_tests_but_no_attribute_is_a_suite_and_a_helper_struct_is_not(self):
        source = "struct Helper { let x = 1 }\nstruct PlainTests {\n  @Test func t() {}\n}\n"
        self.assertEqual(suites_of(source), ["PlainTests"])

    def test_a_suite_nested_in_an_extension_is_the_files_suite(self):
        source = "extension SharedTests {\n  @Suite struct RouteTests {\n    @Test func t() {}\n  }\n}\n"
        self.assertEqual(suites_of(source), ["RouteTests"])

    def test_two_suites_in_one_file_and_a_misnamed_file_are_reported(self):
        two = "@Suite struct ATests {}\n@Suite struct BTests {}\n"
        self.assertEqual(len(layout_problems("Tests/XTests/ATests.swift", two)), 1)
        one = "@Suite struct ATests {}\n"
        self.assertEqual(layout_problems("Tests/XTests/ATests.swift", one), [])
        self.assertEqual(len(layout_problems("Tests/XTests/Other.swift", one)), 1)
        self.assertEqual(len(layout_problems("Tests/XTests/Support.swift", one)), 1)


class LayoutTests(unittest.TestCase):
    def test_each_test_file_holds_one_suite_named_like_the_file(self):
        problems = []
        for path in test_files():
            with open(os.path.join(REPO, path), encoding="utf-8") as file:
                problems += layout_problems(path, file.read())
        self.assertEqual(problems, [], "\n" + "\n".join(problems))


if __name__ == "__main__":
    unittest.main()
