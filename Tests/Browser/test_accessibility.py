"""axe-core (axe-selenium-python) on the home page, the personal page (a normal link, a locked
one, a refused one) and /licenses, in light and dark mode: no serious or critical violation."""

import sys
import unittest

import support
from axe_check import axe_results
from support import CAMILLE, MAXIME, Browser, PageHelpers, Server, Site

site = server = None
tokens = {}


def setUpModule():
    global site, server
    site = Site(prefix="browser-axe")
    tokens["camille"] = site.mint(CAMILLE, ["travail"], ["--expires", "30d"])
    tokens["locked"] = site.mint(MAXIME, ["sante"], ["--lock-reasons"])
    server = Server(site)


def tearDownModule():
    support.shut_down(site, server)


def report(violations):
    lines = []
    for violation in violations:
        lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            lines.append(f"    {' '.join(map(str, node['target']))}: {node.get('failureSummary', '').strip()}".replace("\n", " "))
    return "\n".join(lines)


class AccessibilityTests(PageHelpers, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = server
        cls.browser = Browser()

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()

    def tearDown(self):
        self.assert_same_origin()

    def pages(self):
        """(name, how to open it) of every page scanned."""
        b, s = self.browser, self.server

        def home():
            b.open(s.url("/"))
            b.wait(lambda: b.visible("#accueil"), message="#accueil is not shown")

        def person(token):
            def open_it():
                b.open_person(s, token)
                b.wait(lambda: self.reason_states(), message="no reasons shown")
            return open_it

        def refused():
            b.open(s.url("/", support.altered(tokens["camille"])))
            b.wait(lambda: b.visible("#erreur"), message="#erreur is not shown")

        def licenses():
            b.open(s.url("/licenses"))
            b.wait(lambda: b.driver.execute_script("return document.readyState") == "complete")
            heading = b.text("h1") or ""
            self.assertTrue(heading.startswith("Licences"), f"/licenses: h1 « {heading} »")

        return [("/", home), ("personal page", person(tokens["camille"])), ("locked link", person(tokens["locked"])),
                ("refused link", refused), ("/licenses", licenses)]

    def scan(self, dark):
        self.browser.set_dark(dark)
        for name, open_page in self.pages():
            with self.subTest(page=name, mode="dark" if dark else "light"):
                open_page()
                self.assertEqual(
                    self.browser.driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches"), dark)
                results = axe_results(self.browser.driver)
                self.assertTrue(results["passes"], f"axe-core checked nothing on {name}")
                minor = [v for v in results["violations"] if v.get("impact") not in ("serious", "critical")]
                if minor:
                    print(f"\n  axe-core, {name} ({'dark' if dark else 'light'}), not failing:\n{report(minor)}",
                          file=sys.stderr)
                serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
                if serious:
                    self.fail(f"axe-core {results.get('testEngine', {}).get('version')} on {name} "
                              f"({'dark' if dark else 'light'}):\n{report(serious)}")

    def test_light_mode(self):
        self.scan(dark=False)

    def test_dark_mode(self):
        self.scan(dark=True)


if __name__ == "__main__":
    unittest.main()
