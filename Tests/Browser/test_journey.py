"""The relative's journey on a 390 x 844 phone (issue 15, items 3, 4, 5, 7, 8): the home-screen
app opens the person, the late buttons, « Ma dernière attestation » with its exit time and
reasons, the Shortcuts page with the person's own links, and the readable error page a bookmark
meets; axe-core finds nothing serious in any of them."""

import datetime
import json
import unittest

import support
from axe_check import serious_violations
from support import CAMILLE, YASMINE, PageHelpers, Server, Site

site = server = None
tokens = {}


def setUpModule():
    global site, server
    site = Site(prefix="browser-journey")
    tokens["camille"] = site.mint(CAMILLE, ["travail"], ["--expires", "30d"])
    tokens["revoked"] = site.mint(YASMINE, ["travail"])
    site.revoke(tokens["revoked"])
    server = Server(site)


def tearDownModule():
    support.shut_down(site, server)


class JourneyTests(PageHelpers, unittest.TestCase):
    def setUp(self):
        self.use_shared_server(server)

    def assertAxeClean(self, where):
        problems = serious_violations(self.browser)
        self.assertEqual(problems, [], f"axe-core on {where}")

    def test_late_buttons_set_the_exit_in_one_tap_and_the_time_shows_in_figures_and_words(self):
        browser = self.browser
        browser.open_person(self.server, tokens["camille"])
        self.press("#parti-30")
        self.assertEqual(support.query_of(self.href("a#generer")).get("offset"), "-30")
        self.assertEqual(browser.find("#parti-30").get_attribute("aria-pressed"), "true")
        self.assertEqual(browser.find("#parti-20").get_attribute("aria-pressed"), "false")
        self.assertIn("il y a 30 min", browser.text("#sortie-texte"))
        figures = browser.text("#sortie-chiffres")
        expected = datetime.datetime.now(support.PARIS) - datetime.timedelta(minutes=30)
        self.assertRegex(figures, r"^\d\d:\d\d$")
        self.assertLessEqual(abs((int(figures[:2]) * 60 + int(figures[3:])) - (expected.hour * 60 + expected.minute)) % 1440, 1)
        # The finer steps: 5 minutes each, from where the late button left it.
        self.press("#sortie-plus")
        self.assertEqual(support.query_of(self.href("a#generer")).get("offset"), "-25")
        self.assertEqual(browser.find("#parti-30").get_attribute("aria-pressed"), "false")
        self.assertAxeClean("the personal page after a late button")

    def test_the_last_attestation_says_when_and_why_below_the_action_and_looks_old_when_not_today(self):
        browser = self.browser
        browser.open_person(self.server, tokens["camille"])
        browser.wait_for_service_worker()
        self.toggle("sante")
        self.press("#parti-20")
        self.follow("a#generer")
        browser.wait(lambda: browser.visible("#derniere-bloc"), message="the last attestation is not shown")
        exit_time = datetime.datetime.now(support.PARIS) - datetime.timedelta(minutes=20)
        details = browser.text("#derniere-details")
        self.assertTrue(any(f"{t.hour} h {t.minute:02d}" in details
                            for t in (exit_time, exit_time - datetime.timedelta(minutes=1))), details)
        # Twenty minutes ago is yesterday just after midnight (Paris time), as a CI run found.
        today = datetime.datetime.now(support.PARIS).date()
        self.assertTrue(any(("aujourd’hui" if t.date() == today else "hier") in details
                            for t in (exit_time, exit_time - datetime.timedelta(minutes=1))), details)
        for label in self.short_labels(["travail", "sante"]):
            self.assertIn(label, details)
        self.assertFalse(browser.visible("#derniere-perimee"))
        below = browser.driver.execute_script("""
            const action = document.querySelector('#generer'), last = document.querySelector('#derniere-bloc');
            return !!(action.compareDocumentPosition(last) & Node.DOCUMENT_POSITION_FOLLOWING)
              && last.getBoundingClientRect().top >= action.getBoundingClientRect().top;""")
        self.assertTrue(below, "« Ma dernière attestation » sits below the generate action")

        # Yesterday's, at noon in Paris (26 hours ago is the day before yesterday just after midnight): marked as such.
        yesterday_noon = datetime.datetime.combine(today - datetime.timedelta(days=1), datetime.time(12), support.PARIS)
        browser.driver.execute_async_script("""
            const [token, yesterday, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
            caches.open('attestations-v1').then(cache => cache.put('/derniere-attestation.pdf?t=' + token,
              new Response('%PDF-1.3', {headers: {'Content-Type': 'application/pdf', 'X-Enregistree-Le': yesterday,
                                                  'X-Decalage': '-20', 'X-Motifs': 'travail'}}))).then(() => done(true));""",
                                            tokens["camille"], yesterday_noon.isoformat())
        browser.open_person(self.server, tokens["camille"])
        browser.wait(lambda: browser.visible("#derniere-perimee"), message="yesterday's attestation does not look old")
        self.assertIn("hier", browser.text("#derniere-details"))
        self.assertIn("ancienne", browser.find("#derniere-bloc").get_attribute("class"))
        self.assertAxeClean("the personal page with an old attestation")

    def short_labels(self, codes):
        status, _, body = support.fetch(self.server.url("/api/v1/link", tokens["camille"]))
        reasons = {r["code"]: r["shortLabel"] for r in json.loads(body)["form"]["reasons"]}
        return [reasons[c] for c in codes]

    def test_the_home_screen_app_opens_the_person(self):
        browser = self.browser
        browser.open_person(self.server, tokens["camille"])
        href = browser.driver.execute_script("return document.querySelector('link[rel=manifest]').href")
        self.assertTrue(href.startswith(self.server.base + "/api/v1/manifest?t="), href)
        status, content_type, body = browser.fetch_bytes(href)
        self.assertEqual((status, content_type), (200, "application/manifest+json"))
        manifest = json.loads(body)
        self.assertEqual(manifest["start_url"], "/?t=" + tokens["camille"])
        self.assertEqual(manifest["id"], "/?t=" + tokens["camille"])
        self.assertEqual(manifest["scope"], "/")
        self.assertEqual(manifest["name"], "Attestation – Camille")
        self.assertEqual(manifest["display"], "standalone")
        # Chromium itself reads it as the page's manifest (what "Install" uses), once it has seen
        # the link change.
        app = browser.wait(lambda: (lambda a: a if a["url"].startswith(self.server.base + "/api/v1/manifest?t=") else None)(
            browser.cdp("Page.getAppManifest")), message="Chromium never read the person's manifest")
        self.assertEqual(app.get("errors"), [], app.get("errors"))
        self.assertEqual(browser.driver.execute_script(
            "return document.querySelector('meta[name=apple-mobile-web-app-title]').content"), "Attestation Camille")
        self.assertTrue(browser.visible("#installer"))
        self.assertIn("Sur l’écran d’accueil", browser.text("#installer"))
        self.assertIn("Android", browser.text("#installer"))

    def test_the_shortcuts_page_has_the_persons_links_and_every_step(self):
        browser = self.browser
        browser.open_person(self.server, tokens["camille"])
        self.click(browser.find("a#lien-raccourcis"))
        browser.wait(lambda: browser.visible("#liens"), message="the Shortcuts page shows no links")
        self.assertTrue(browser.driver.current_url.startswith(self.server.base + "/raccourcis.html?t="))
        normal = browser.find("#lien-normal").get_attribute("value")
        late = browser.find("#lien-retard").get_attribute("value")
        self.assertEqual(normal, self.server.url("/attestation.pdf", tokens["camille"]))
        self.assertEqual(late, normal + "&offset=-20")
        text = browser.text("main")
        for needed in ("Attestation en retard", "Toujours autoriser", "Sans réseau", "Coup d’œil",
                       "Obtenir le contenu de l’URL"):
            self.assertIn(needed, text)
        pictures = browser.driver.execute_script(
            "return [...document.querySelectorAll('.etape svg[role=img]')].map(s => s.getBoundingClientRect().width)")
        self.assertGreaterEqual(len(pictures), 6, "a picture for each step")
        self.assertTrue(all(0 < w <= 390 for w in pictures), pictures)
        status, content_type, pdf = support.fetch(late)
        self.assertEqual((status, content_type), (200, "application/pdf"))
        fields = support.pdf_qr(pdf)
        self.assertEqual(fields.created - fields.exit, datetime.timedelta(minutes=20))
        self.assertAxeClean("the Shortcuts page")
        self.assertEqual(browser.find("#retour").get_attribute("href"), self.server.url("/", tokens["camille"]))

    def test_each_shortcut_step_shows_its_number_once(self):
        """What Chromium renders and reads out for each step (its accessibility tree: the list
        marker, when one is drawn, then the text), not the page's source: the marker of an <ol>
        and a number written in the heading made "1. 1. Copiez votre lien"."""
        browser = self.browser
        browser.open(self.server.url("/raccourcis.html", tokens["camille"]))
        browser.wait(lambda: browser.visible("#liens"), message="the Shortcuts page shows no links")
        browser.cdp("Accessibility.enable")
        nodes = browser.cdp("Accessibility.getFullAXTree")["nodes"]
        by_id = {node["nodeId"]: node for node in nodes}

        def rendered_text(node):
            role = node.get("role", {}).get("value")
            if role in ("ListMarker", "StaticText"):
                return node.get("name", {}).get("value", "")
            return "".join(rendered_text(by_id[child]) for child in node.get("childIds", []) if child in by_id)

        root = browser.cdp("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        step_ids = browser.cdp("DOM.querySelectorAll", {"nodeId": root, "selector": "li.etape"})["nodeIds"]
        backend_ids = [browser.cdp("DOM.describeNode", {"nodeId": i})["node"]["backendNodeId"] for i in step_ids]
        by_backend = {node.get("backendDOMNodeId"): node for node in nodes}
        steps = [" ".join(rendered_text(by_backend[i]).split()) for i in backend_ids]
        self.assertEqual(len(steps), 6, steps)
        for number, text in enumerate(steps, start=1):
            self.assertTrue(text.startswith(f"{number}. "), text[:60])
            self.assertFalse(text.startswith(f"{number}. {number}."), f"the number twice: {text[:60]}")

    def test_a_bookmark_of_a_refused_link_gets_a_readable_page(self):
        browser = self.browser
        for token, status, title in ((tokens["revoked"], 410, "Lien expiré ou révoqué"),
                                     (support.altered(tokens["camille"]), 403, "Lien non valable")):
            browser.open(self.server.url("/attestation.pdf", token))
            browser.wait(lambda: browser.text("h1") == title, message=f"no « {title} » page")
            self.assertTrue(browser.visible(".alerte"))
            self.assertIn("Que faire ?", browser.text("main"))
            # The same status as for scripts, which still get text.
            got, content_type, _ = support.fetch(self.server.url("/attestation.pdf", token))
            self.assertEqual((got, content_type), (status, "text/plain; charset=utf-8"))
            width = browser.driver.execute_script("return document.documentElement.scrollWidth")
            self.assertLessEqual(width, 390, "nothing wider than the phone")
            self.assertAxeClean(f"the {status} page")
        browser.open(self.server.url("/attestation.pdf", tokens["camille"], offset="-9999"))
        browser.wait(lambda: browser.text("h1") == "Demande incorrecte", message="no 400 page")
        self.click(browser.find("main a.bouton"))
        browser.wait(lambda: browser.text("#prenom") == "Camille", message="the 400 page does not lead to the person's page")


if __name__ == "__main__":
    unittest.main()
