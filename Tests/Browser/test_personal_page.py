"""The personal page in headless Chromium against the real server: the name, reasons and exit
time chosen in two taps, and the documents the buttons give, read back with zbarimg."""

import datetime
import json
import unittest

import support
from support import CAMILLE, MAXIME, YASMINE, Browser, PageHelpers, Server, Site

site = server = None
tokens = {}


def setUpModule():
    global site, server
    site = Site()
    # Pinned to the form of 28 November 2020, whose reasons these tests name (a link that follows
    # the calendar prints the form in force today: test_form_calendar.py).
    pinned = ["--form", "deplacement-2020-11-28"]
    tokens["camille"] = site.mint(CAMILLE, ["travail"], ["--expires", "30d"] + pinned)
    tokens["locked"] = site.mint(MAXIME, ["sante"], ["--lock-reasons"] + pinned)
    # Follows the calendar: today's version (June 2021's, the last) has no « achats ».
    tokens["following-achats"] = site.mint(CAMILLE, ["achats"])
    tokens["revoked"] = site.mint(YASMINE, ["travail"])
    site.revoke(tokens["revoked"])
    server = Server(site)


def tearDownModule():
    support.shut_down(site, server)


class PersonalPageTests(PageHelpers, unittest.TestCase):
    def setUp(self):
        self.use_shared_server(server)

    def test_why_the_buttons_are_greyed_is_said_beside_them_on_a_phone(self):
        """Issue 40, item 5: at 390 × 844 the notice of the missing reasons was below the fold
        while Générer, QR code, Image and the officer view were greyed without a word."""
        browser = self.browser
        browser.open_person(self.server, tokens["following-achats"])
        browser.wait(lambda: browser.visible("#actions-raison"), message="no reason beside the greyed buttons")
        reason = browser.text("#actions-raison")
        self.assertIn("Vos motifs habituels n’existent pas dans ce formulaire", reason)
        placed = browser.driver.execute_script("""
            const raison = document.querySelector('#actions-raison').getBoundingClientRect();
            const generer = document.querySelector('a#generer').getBoundingClientRect();
            return {bas: raison.bottom, haut: raison.top, fenetre: innerHeight, generer: generer.top};""")
        self.assertTrue(0 <= placed["haut"] and placed["bas"] <= placed["fenetre"], f"out of sight: {placed}")
        self.assertLessEqual(placed["bas"], placed["generer"] + 1, f"not right above the buttons: {placed}")
        for css in ("a#generer", "a#qr", "a#image", "#agent"):
            self.assertEqual(browser.find(css).get_attribute("aria-disabled"), "true", css)
            self.assertEqual(browser.find(css).get_attribute("aria-describedby"), "actions-raison", css)
        browser.screenshot("boutons-grises-raison")
        # Chosen in this form: the reason goes, the buttons work.
        self.toggle("famille")
        browser.wait(lambda: not browser.visible("#actions-raison"), message="the reason stayed after the choice")
        self.assertIsNone(browser.find("a#generer").get_attribute("aria-describedby"))
        # No reason at all: said there too.
        browser.open_person(self.server, tokens["camille"])
        self.toggle("travail")
        browser.wait(lambda: browser.visible("#actions-raison"), message="nothing said with no reason chosen")
        self.assertIn("Choisissez au moins un motif", browser.text("#actions-raison"))

    def test_a_pinned_link_says_its_form_is_no_longer_in_force_and_since_when(self):
        """Issue 40, item 3: a link pinned to the form of 28 November 2020 printed it years later
        without a word."""
        browser = self.browser
        browser.open_person(self.server, tokens["camille"])
        browser.wait(lambda: browser.visible("#avis-fin"), message="no notice of the outdated form")
        text = browser.text("#avis-fin")
        self.assertIn("Ce lien imprime toujours le formulaire", text)
        self.assertIn("qui n’est plus en vigueur depuis le 15 décembre 2020", text)
        self.assertIn("demandez à votre administrateur un lien qui suit le calendrier", text)

    def test_home_page_without_link_shows_the_help(self):
        self.browser.open(self.server.url("/"))
        self.browser.wait(lambda: self.browser.visible("#accueil"), message="#accueil is not shown on /")
        self.assertFalse(self.browser.visible("#page-personne"))
        self.assertTrue(self.browser.driver.execute_script(
            "return document.querySelector('#page-personne').hasAttribute('hidden')"))
        self.assertTrue(self.browser.text("#accueil"), "the help text is empty")
        # Installed from here, the icon opens the site (the script adds the link, see app.js).
        app = self.browser.wait(lambda: (lambda a: a if a["url"].endswith("/manifest.webmanifest") else None)(
            self.browser.cdp("Page.getAppManifest")), message="Chromium never read the site's manifest on /")
        self.assertEqual(app.get("errors"), [], app.get("errors"))

    def test_the_name_shows(self):
        self.browser.open_person(self.server, tokens["camille"])
        self.assertEqual(self.browser.text("#prenom"), "Camille")
        self.assertFalse(self.browser.visible("#accueil"))
        self.assertFalse(self.browser.visible("#erreur"), "an error shows for a good link")
        states = self.reason_states()
        self.assertEqual(len(states), 9, f"the 9 reasons of the form of 28 November 2020: {states}")
        self.assertEqual(self.checked_reasons(), {"travail"}, "the link's default reason is checked")
        self.assertFalse(any(disabled for _, disabled in states.values()), "a link that does not lock reasons")

    def test_a_reason_and_twenty_minutes_ago_give_that_pdf(self):
        self.browser.open_person(self.server, tokens["camille"])
        self.toggle("sante")
        self.assertEqual(self.checked_reasons(), {"travail", "sante"})
        self.press("#parti-20")
        self.browser.wait(lambda: "il y a 20 min" in (self.browser.text("#sortie-texte") or ""),
                          message=f"#sortie-texte does not say « il y a 20 min »: {self.browser.text('#sortie-texte')}")
        # Announced to screen readers: #sortie-texte itself or a live region repeating it.
        self.browser.wait(lambda: self.browser.driver.execute_script("""
            return [...document.querySelectorAll('[aria-live=polite], [aria-live=assertive], [role=status]')]
              .some(e => e.textContent.replace(/\s+/g, ' ').includes('il y a 20 min'));"""),
                          message="the new exit time is not in any live region")

        href = self.href("a#generer")
        query = support.query_of(href)
        self.assertTrue(href.startswith(self.server.base + "/attestation.pdf?"), href)
        self.assertEqual(query.get("t"), tokens["camille"])
        self.assertEqual(query.get("offset"), "-20")
        self.assertEqual(support.reasons_parameter(href), {"travail", "sante"})

        before = datetime.datetime.now(support.PARIS)
        name, pdf = self.follow("a#generer")
        self.assertTrue(pdf.startswith(b"%PDF-"), f"{name} is not a PDF")
        self.assertRegex(name, r"^attestation-\d{4}-\d\d-\d\d_\d\d-\d\d\.pdf$")
        fields = support.pdf_qr(pdf)
        self.assertEqual(set(fields.reasons), {"travail", "sante"}, fields.text)
        self.assertEqual(fields["Prenom"], "Camille")
        self.assertEqual(fields.created - fields.exit, datetime.timedelta(minutes=20), fields.text)
        self.assertLess(abs((fields.created - before).total_seconds()), 150, f"created now: {fields.text}")
        self.assertIn("Camille", support.pdf_text(pdf))

    def test_plus_and_now_buttons(self):
        self.browser.open_person(self.server, tokens["camille"])
        self.press("#sortie-plus")
        self.assertEqual(support.query_of(self.href("a#generer")).get("offset"), "5")
        self.press("#sortie-maintenant")
        self.assertNotIn("offset", support.query_of(self.href("a#generer")), "back to now: no offset")
        self.assertNotIn("reasons", support.query_of(self.href("a#generer")), "the link's own reasons: no parameter")

    def test_the_qr_code_button_gives_a_png_with_those_reasons(self):
        self.browser.open_person(self.server, tokens["camille"])
        self.toggle("sport_animaux")
        self.press("#parti-20")
        href = self.href("a#qr")
        self.assertTrue(href.startswith(self.server.base + "/attestation.png?"), href)
        self.assertEqual(support.query_of(href).get("offset"), "-20")
        # Follow it as a person would: the browser shows the image.
        self.click(self.browser.find("a#qr"))
        if len(self.browser.driver.window_handles) > 1:
            self.browser.driver.switch_to.window(self.browser.driver.window_handles[-1])
        self.browser.wait(lambda: "/attestation.png?" in self.browser.driver.current_url,
                          message="a#qr did not lead to the PNG")
        status, content_type, png = self.browser.fetch_bytes(self.browser.driver.current_url)
        self.assertEqual((status, content_type), (200, "image/png"))
        self.assertTrue(png.startswith(b"\x89PNG\r\n\x1a\n"))
        fields = support.QRFields(support.qr_payloads(png, png=True)[0])
        self.assertEqual(set(fields.reasons), {"travail", "sport_animaux"}, fields.text)
        self.assertEqual(fields.created - fields.exit, datetime.timedelta(minutes=20), fields.text)
        while len(self.browser.driver.window_handles) > 1:
            self.browser.driver.close()
            self.browser.driver.switch_to.window(self.browser.driver.window_handles[0])

    def test_the_image_button_gives_page_one_as_a_png_with_those_reasons(self):
        self.browser.open_person(self.server, tokens["camille"])
        self.toggle("sport_animaux")
        self.press("#parti-20")
        href = self.href("a#image")
        self.assertTrue(href.startswith(self.server.base + "/attestation.png?"), href)
        query = support.query_of(href)
        self.assertEqual((query.get("page"), query.get("dpi"), query.get("offset")), ("1", "150", "-20"), href)
        self.assertEqual(query.get("reasons"), support.query_of(self.href("a#generer")).get("reasons"),
                         "the same reasons as the PDF")
        self.click(self.browser.find("a#image"))
        if len(self.browser.driver.window_handles) > 1:
            self.browser.driver.switch_to.window(self.browser.driver.window_handles[-1])
        self.browser.wait(lambda: "/attestation.png?" in self.browser.driver.current_url,
                          message="a#image did not lead to the PNG")
        status, content_type, png = self.browser.fetch_bytes(self.browser.driver.current_url)
        self.assertEqual((status, content_type), (200, "image/png"))
        self.assertTrue(png.startswith(b"\x89PNG\r\n\x1a\n"))
        # The whole page at 150 dpi (A4: 1241 pixels wide), with the attestation's QR code.
        self.assertEqual(int.from_bytes(png[16:20], "big"), 1241)
        fields = support.QRFields(support.qr_payloads(png, png=True)[0])
        self.assertEqual(set(fields.reasons), {"travail", "sport_animaux"}, fields.text)
        self.assertEqual(fields.created - fields.exit, datetime.timedelta(minutes=20), fields.text)
        while len(self.browser.driver.window_handles) > 1:
            self.browser.driver.close()
            self.browser.driver.switch_to.window(self.browser.driver.window_handles[0])

    def test_the_link_field_holds_an_absolute_url_that_gives_the_pdf(self):
        self.browser.open_person(self.server, tokens["camille"])
        self.toggle("famille")
        self.press("#parti-20")
        field = self.browser.find("input#lien")
        self.assertIsNotNone(field.get_attribute("readonly"), "input#lien is read-only")
        link = field.get_attribute("value")
        self.assertTrue(link.startswith(self.server.base + "/attestation.pdf?"), f"absolute URL expected: {link}")
        self.assertEqual(support.query_of(link).get("offset"), "-20")
        self.assertEqual(support.reasons_parameter(link), {"travail", "famille"})
        status, content_type, pdf = support.fetch(link)
        self.assertEqual((status, content_type), (200, "application/pdf"))
        fields = support.pdf_qr(pdf)
        self.assertEqual(set(fields.reasons), {"travail", "famille"})
        self.assertEqual(fields.created - fields.exit, datetime.timedelta(minutes=20))

        # The copy button puts that same URL on the clipboard.
        self.browser.cdp("Browser.grantPermissions", {"origin": self.server.base,
                                                      "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        self.click(self.browser.find("button#copier"))
        copied = self.browser.driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; navigator.clipboard.readText().then(done, e => done('error: ' + e));")
        self.assertEqual(copied, link)

    def test_a_locked_link_cannot_change_reasons(self):
        self.browser.open_person(self.server, tokens["locked"])
        self.assertEqual(self.browser.text("#prenom"), "Maximilien")
        states = self.reason_states()
        self.assertTrue(states and all(disabled for _, disabled in states.values()), f"every reason is disabled: {states}")
        self.assertEqual(self.checked_reasons(), {"sante"})
        self.assertTrue(self.browser.visible("#motifs-verrou"), "the explanation of the lock is shown")
        self.assertTrue(self.browser.text("#motifs-verrou"))
        for code in ("travail", "sante", "famille"):
            try:
                self.toggle(code)
            except Exception:  # a disabled box may refuse the click outright: that is fine too
                pass
        self.assertEqual(self.reason_states(), states, "clicking a locked reason changed it")
        self.assertIsNone(support.reasons_parameter(self.href("a#generer")), "no reasons parameter for a locked link")
        _, pdf = self.follow("a#generer")
        self.assertEqual(support.pdf_qr(pdf).reasons, ["sante"])

    def test_an_altered_link_shows_the_servers_error(self):
        token = support.altered(tokens["camille"])
        status, _, body = support.fetch(self.server.url("/api/v1/link", token))
        self.assertEqual(status, 403)
        message = json.loads(body)["error"]
        self.browser.open(self.server.url("/", token))
        self.browser.wait(lambda: self.browser.visible("#erreur"), message="no #erreur shown for an altered link")
        error = self.browser.find("#erreur")
        self.assertEqual(error.get_attribute("role"), "alert")
        self.assertIn(message, self.browser.text("#erreur"))
        self.assertFalse(self.browser.visible("#generer"), "no button for a link the server refuses")

    def test_a_revoked_link_shows_the_servers_error(self):
        token = tokens["revoked"]
        status, _, body = support.fetch(self.server.url("/api/v1/link", token))
        self.assertEqual(status, 410)
        message = json.loads(body)["error"]
        self.browser.open(self.server.url("/", token))
        self.browser.wait(lambda: self.browser.visible("#erreur"), message="no #erreur shown for a revoked link")
        self.assertIn(message, self.browser.text("#erreur"))


if __name__ == "__main__":
    unittest.main()
