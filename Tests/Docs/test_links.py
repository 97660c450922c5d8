"""The documentation's links hold: every relative link and image of README.md, CONTRIBUTING.md
and docs/**/*.md names a file of the checkout, every #anchor a heading of its page (GitHub's
slugs), and README.md stays a front door (12 KiB at most).

    python3 -m unittest discover -s Tests/Docs      (make check, make test)

Standard library only. Links inside code (fenced blocks, `spans`) are text, not links."""

import os
import re
import unicodedata
import unittest
from urllib.parse import unquote

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
README_LIMIT = 12 * 1024

FENCE = re.compile(r"^ {0,3}(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
MARKDOWN_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
HTML_LINK = re.compile(r"<(?:a|img|source)\b[^>]*?\b(?:href|src|srcset)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
HTML_ANCHOR = re.compile(r"<[a-z]+\b[^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def documentation_files():
    """README.md, CONTRIBUTING.md and every Markdown file under docs/, as paths from the root."""
    files = ["README.md", "CONTRIBUTING.md"]
    for directory, _, names in os.walk(os.path.join(REPO, "docs")):
        files += [os.path.relpath(os.path.join(directory, n), REPO) for n in sorted(names) if n.endswith(".md")]
    return files


def prose_lines(text, keep_code_spans=False):
    """(line number, line) outside fenced code blocks, inline code removed unless asked to
    keep it (a heading's slug keeps the text of its code spans)."""
    fenced = None
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if match:
            if fenced is None:
                fenced = match.group(1)
            elif line.strip().startswith(fenced):
                fenced = None
            continue
        if fenced is None:
            yield number, line if keep_code_spans else INLINE_CODE.sub("", line)


def slug(heading):
    """GitHub's anchor for a heading: its text without markup, lowercased, punctuation removed
    (letters, digits, marks, '_' and '-' kept: accents stay), each space a '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    kept = "".join(c for c in text.lower()
                   if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(path):
    """Every anchor of a Markdown file: its headings' slugs (a repeated one gets -1, -2…, as on
    GitHub) and the ids of its HTML elements."""
    with open(os.path.join(REPO, path), encoding="utf-8") as file:
        text = file.read()
    found, seen = set(), {}
    for _, line in prose_lines(text, keep_code_spans=True):
        heading = HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        found.update(HTML_ANCHOR.findall(line))
    return found


def links(path):
    """(line number, target) of every link and image of a Markdown file."""
    with open(os.path.join(REPO, path), encoding="utf-8") as file:
        text = file.read()
    for number, line in prose_lines(text):
        for pattern in (MARKDOWN_LINK, HTML_LINK, REFERENCE_DEFINITION):
            for target in pattern.findall(line):
                yield number, target


def problems(path):
    """What is wrong with the links of one Markdown file (a path from the root)."""
    found = []
    directory = os.path.dirname(path)
    for number, target in links(path):
        where = f"{path}:{number}: {target}"
        if not target or SCHEME.match(target) or target.startswith("//"):
            continue
        file_part, _, anchor = target.partition("#")
        file_part = unquote(file_part)
        if file_part.startswith("/"):
            destination = os.path.normpath(file_part.lstrip("/"))
        else:
            destination = os.path.normpath(os.path.join(directory, file_part)) if file_part else path
        if destination.startswith(".."):
            found.append(f"{where}: leaves the repository")
            continue
        if not os.path.exists(os.path.join(REPO, destination)):
            found.append(f"{where}: no such file ({destination})")
            continue
        if anchor:
            if not destination.endswith(".md"):
                found.append(f"{where}: an anchor into a file that is not Markdown")
            elif unquote(anchor) not in anchors(destination):
                found.append(f"{where}: {destination} has no heading #{anchor}")
    return found


class SlugTests(unittest.TestCase):
    """The slug rules, on headings of this repository's kind."""

    def test_punctuation_goes_spaces_become_hyphens_accents_stay(self):
        self.assertEqual(slug("Links, step by step"), "links-step-by-step")
        self.assertEqual(slug("5a. Behind nginx"), "5a-behind-nginx")
        self.assertEqual(slug("Third-party licences"), "third-party-licences")
        self.assertEqual(slug("Données: où elles vont"), "données-où-elles-vont")
        self.assertEqual(slug("The `server` object"), "the-server-object")
        self.assertEqual(slug("See [forms](forms.md)"), "see-forms")

    def test_each_space_is_a_hyphen_even_two(self):
        self.assertEqual(slug("Two  spaces"), "two--spaces")

    def test_a_broken_link_and_a_broken_anchor_are_found(self):
        """A repeated heading's anchor gets -1; code is not a link; each broken one is named."""
        scratch = os.path.join(REPO, "docs", "zz-link-test-scratch.md")
        try:
            with open(scratch, "w", encoding="utf-8") as file:
                file.write("# Title here\n\n## Title here\n\n[ok](#title-here-1) [ok](../README.md) [ok](#the-server-key)\n"
                           "[missing](nowhere.md) ![gone](forms/none.png) [bad](#title-there)\n"
                           "[bad anchor](../CONTRIBUTING.md#no-such-part) `[code](nowhere.md)`\n"
                           "```\n[fenced](nowhere.md)\n```\n<img src=\"screenshots/none.png\">\n\n### The `server` key\n")
            relative = os.path.relpath(scratch, REPO)
            self.assertEqual(problems(relative), [
                f"{relative}:6: nowhere.md: no such file (docs/nowhere.md)",
                f"{relative}:6: forms/none.png: no such file (docs/forms/none.png)",
                f"{relative}:6: #title-there: {relative} has no heading #title-there",
                f"{relative}:7: ../CONTRIBUTING.md#no-such-part: CONTRIBUTING.md has no heading #no-such-part",
                f"{relative}:11: screenshots/none.png: no such file (docs/screenshots/none.png)",
            ])
        finally:
            os.remove(scratch)


class DocumentationLinkTests(unittest.TestCase):
    def test_every_relative_link_and_anchor_resolves(self):
        found = [problem for path in documentation_files() for problem in problems(path)]
        self.assertEqual(found, [], "\n" + "\n".join(found))

    def test_the_readme_stays_a_front_door(self):
        size = os.path.getsize(os.path.join(REPO, "README.md"))
        self.assertLessEqual(size, README_LIMIT, f"README.md is {size} bytes; move details into docs/")


if __name__ == "__main__":
    unittest.main()
