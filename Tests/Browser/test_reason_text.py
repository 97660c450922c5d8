"""Issue 29, item 9: a chosen reason's official text was cut after three lines with « … », with
no way to read the rest. Every reason of the form, chosen, shows its whole text at phone size."""

import json
import unittest

import support
from support import CAMILLE, PageHelpers, Server, Site

site = server = None
tokens = {}


def setUpModule():
    global site, server
    site = Site(prefix="browser-reason-text")
    tokens["camille"] = site.mint(CAMILLE, ["travail"], ["--form", "deplacement-2020-11-28"])
    server = Server(site)


def tearDownModule():
    support.shut_down(site, server)


class ReasonTextTests(PageHelpers, unittest.TestCase):
    def setUp(self):
        self.use_shared_server(server)

    def test_every_chosen_reason_shows_its_whole_official_text(self):
        browser = self.browser
        browser.open_person(self.server, tokens["camille"])
        _, _, body = support.fetch(self.server.url("/api/v1/link", tokens["camille"]))
        reasons = json.loads(body)["form"]["reasons"]
        for reason in reasons:
            if reason["code"] not in self.checked_reasons():
                self.toggle(reason["code"])
        cut = []
        for reason in reasons:
            shown = browser.driver.execute_script("""
                const e = document.getElementById(`motif-${arguments[0]}-texte`);
                const box = e.getBoundingClientRect();
                return {text: e.innerText.replace(/\\s+/g, ' ').trim(), hidden: e.scrollHeight - e.clientHeight,
                        visible: box.height > 0};""", reason["code"])
            official = " ".join(reason["label"].split())
            if not shown["visible"] or shown["hidden"] > 1 or official not in shown["text"]:
                cut.append((reason["code"], shown))
        self.assertEqual(cut, [], "reasons whose official text cannot be read whole")
        self.assertGreater(max(len(r["label"]) for r in reasons), 200, "a reason long enough to have been cut")


if __name__ == "__main__":
    unittest.main()
