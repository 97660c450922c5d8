"""Attestations made with no network (issue 15, items 2 and 6): the page keeps the link's offline
template (/api/v1/template) and, offline, makes the attestation itself for the chosen reasons and
exit time, dated at the device's true time in the link's time zone. It must be the server's
document for that instant: the same page text (pdftotext, with and without -layout), the same QR
payload (zbarimg, both pages), `qpdf --check` clean. The offline notice says what is true in each
case: a template ready, only a saved attestation, nothing yet."""

import datetime
import os
import tempfile
import time
import unittest

import support
from axe_check import serious_violations
from support import PageHelpers


def pdf_texts(data):
    """pdftotext's output with -layout and without."""
    with tempfile.TemporaryDirectory(prefix="browser-text-") as directory:
        path = os.path.join(directory, "document.pdf")
        with open(path, "wb") as file:
            file.write(data)
        return [support.run(["pdftotext"] + options + [path, "-"]).stdout.decode("utf-8") for options in (["-layout"], [])]


def qpdf_check(data):
    with tempfile.TemporaryDirectory(prefix="browser-qpdf-") as directory:
        path = os.path.join(directory, "document.pdf")
        with open(path, "wb") as file:
            file.write(data)
        return support.run(["qpdf", "--check", path], check=False)


class OfflinePage(PageHelpers):
    def open_online_with_template(self):
        """The personal page online, once its service worker controls it and the template is kept."""
        browser = self.browser
        browser.open_person(self.server, self.token)
        browser.wait_for_service_worker()
        browser.wait(lambda: browser.driver.execute_script("return document.documentElement.dataset.modele === 'pret'"),
                     message="the offline template was never kept")

    def forget_template(self):
        self.browser.driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; caches.delete('modeles-v1').then(() => done(true));")

    def reopen_offline(self):
        """The page again, the server stopped (connection refused: a real outage)."""
        self.server.check_stopped_cleanly()
        self.assertTrue(support.connection_refused(self.server.port), "the server still answers")
        self.browser.open(self.server.url("/", self.token))
        self.browser.wait(lambda: self.browser.visible("#hors-ligne"), message="no offline notice")
        self.browser.wait(lambda: self.offline_case(), message="the offline notice never said which case")
        self.assertEqual(serious_violations(self.browser), [], "axe-core on the offline page")

    def offline_case(self):
        return self.browser.driver.execute_script("return document.querySelector('#hors-ligne').dataset.cas")


class OfflineGenerationTests(OfflinePage, unittest.TestCase):
    def setUp(self):
        self.use_own_server("browser-offline-generation")

    def test_offline_the_page_makes_the_servers_document_for_that_instant(self):
        browser = self.browser
        self.open_online_with_template()
        # Offline as a phone in a tunnel: Chromium's network emulation (navigator.onLine false).
        browser.cdp("Network.enable")
        browser.cdp("Network.emulateNetworkConditions",
                    {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        browser.wait(lambda: browser.visible("#hors-ligne"), message="the page does not say it is offline")
        self.assertEqual(self.offline_case(), "modele")
        self.assertIn("créée sur ce téléphone", browser.text("#hors-ligne"))

        # A fixed clock: the device's, frozen in the middle of a minute 7 minutes ago (so a
        # document the server made now would show), corrected by the gap to the server's clock the
        # page measured online.
        frozen = (int(time.time()) // 60 - 7) * 60 * 1000 + 30_000
        browser.driver.execute_script(f"Date.now = () => {frozen};")
        gap = float(browser.driver.execute_script("return localStorage.getItem('attestation.horloge.v1') || '0'"))
        created = datetime.datetime.fromtimestamp((frozen + gap) / 1000, support.PARIS)
        today = datetime.datetime.now(support.PARIS).date()
        if created.date() != today:
            self.skipTest("run in the first minutes of the day: the server's `at` is today only")
        late = 20 if (created - datetime.timedelta(minutes=20)).date() == today else 0
        self.toggle("sante")
        if late:
            self.press("#parti-20")
        _, offline = self.follow("a#generer")
        self.assertTrue(offline.startswith(b"%PDF-"))

        checked = qpdf_check(offline)
        self.assertEqual(checked.returncode, 0, checked.stdout.decode() + checked.stderr.decode())
        exit_time = created - datetime.timedelta(minutes=late)
        # The server's document for the same exit time and reasons, made now: everything but
        # "Cree le" (the real moment of generation, which only the server's clock gives it).
        browser.cdp("Network.emulateNetworkConditions",
                    {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        status, _, server = support.fetch(self.server.url("/attestation.pdf", self.token, at=exit_time.strftime("%H:%M"),
                                                          reasons="travail,sante"))
        self.assertEqual(status, 200)
        self.assertEqual(pdf_texts(offline), pdf_texts(server), "the page text differs from the server's")
        offline_codes = support.qr_payloads(offline)
        server_codes = support.qr_payloads(server)
        self.assertEqual(len(offline_codes), 2)
        self.assertEqual(offline_codes[0], offline_codes[1], "both pages hold the same code")

        def without_creation(payload):
            return [line for line in payload.split(";\n") if not line.startswith("Cree le: ")]
        self.assertEqual(without_creation(offline_codes[1]), without_creation(server_codes[1]))
        fields = support.QRFields(offline_codes[1])
        self.assertEqual(fields["Cree le"], created.strftime("%d/%m/%Y a %Hh%M"), "created at the device's corrected time")
        self.assertEqual(fields.reasons, ["travail", "sante"])

        # Kept as the last attestation, saying when the person leaves and why.
        browser.wait(lambda: browser.visible("#derniere-bloc"), message="the offline attestation is not the last one")
        details = browser.text("#derniere-details")
        self.assertIn(f"{exit_time.hour}\u00a0h\u00a0{exit_time.minute:02d}".replace("\u00a0", " "), details)
        _, again = self.follow("a#derniere")
        self.assertEqual(again, offline)
        self.server.check_stopped_cleanly()

    def test_a_bookmark_opened_offline_gets_a_fresh_attestation(self):
        """The service worker makes it from the template: created now, the offset applied."""
        self.open_online_with_template()
        self.server.check_stopped_cleanly()
        self.browser.clear_downloads()
        before = datetime.datetime.now(support.PARIS).replace(second=0, microsecond=0)
        status, content_type, pdf = self.browser.fetch_bytes(
            self.server.url("/attestation.pdf", self.token, offset="-20", reasons="travail,famille"))
        self.assertEqual((status, content_type), (200, "application/pdf"))
        self.assertEqual(qpdf_check(pdf).returncode, 0)
        fields = support.pdf_qr(pdf)
        self.assertEqual(fields.reasons, ["travail", "famille"])
        self.assertEqual(fields.created - fields.exit, datetime.timedelta(minutes=20), fields.text)
        self.assertLessEqual(abs((fields.created - before).total_seconds()), 120, fields.text)


class OfflineNoticeTests(OfflinePage, unittest.TestCase):
    """What the offline notice says: never a saved attestation that does not exist."""

    def setUp(self):
        self.use_own_server("browser-offline-notice")

    def test_with_a_template_the_page_says_it_makes_them_here(self):
        self.open_online_with_template()
        self.reopen_offline()
        self.assertEqual(self.offline_case(), "modele")
        self.assertNotIn("dernière attestation", self.browser.text("#hors-ligne"))
        self.assertIsNone(self.browser.find("a#generer").get_attribute("aria-disabled"), "offline, Générer still works")
        self.assertIsNone(self.browser.find("a#qr").get_attribute("aria-disabled"), "offline, the QR code is made here")
        self.assertEqual(self.browser.find("a#image").get_attribute("aria-disabled"), "true", "the page image needs the server")

    def test_the_notice_appears_saying_its_case_never_before(self):
        """The notice was shown, then told its case once the last attestation was looked up: for
        that moment it had no case and the text of none (make test's calendar run read it then)."""
        self.open_online_with_template()
        # Each time the notice is shown, the case it says at that instant.
        self.browser.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.casAffiches = [];
            new MutationObserver(changes => changes.forEach(change => {
              if (change.target.id === 'hors-ligne' && change.oldValue !== null && !change.target.hidden) {
                window.casAffiches.push(change.target.dataset.cas || null);
              }
            })).observe(document, {subtree: true, attributes: true, attributeFilter: ['hidden'], attributeOldValue: true});"""})
        self.reopen_offline()
        shown = self.browser.driver.execute_script("return window.casAffiches")
        self.assertTrue(shown, "the notice was never seen appearing")
        self.assertEqual(shown, ["modele"] * len(shown), "the notice appeared before it said its case")

    def test_never_generated_and_no_template_says_so(self):
        self.open_online_with_template()
        self.forget_template()
        self.reopen_offline()
        self.assertEqual(self.offline_case(), "rien")
        text = self.browser.text("#hors-ligne")
        self.assertNotIn("reste disponible", text)
        self.assertIn("ni attestation enregistrée", text)
        self.assertFalse(self.browser.visible("a#derniere"))
        self.assertEqual(self.browser.find("a#generer").get_attribute("aria-disabled"), "true")

    def test_a_template_not_refreshed_for_a_week_no_longer_serves(self):
        """Offline the page cannot learn of a revocation: a template serves a week at most."""
        self.open_online_with_template()
        self.browser.driver.execute_async_script("""
            const [token, done] = [arguments[0], arguments[arguments.length - 1]];
            const key = '/modele-hors-ligne?t=' + token;
            caches.open('modeles-v1').then(cache => cache.match(key).then(r => r.json()).then(modele => {
              modele.offlineUntil = new Date(Date.now() - 60000).toISOString();
              return cache.put(key, new Response(JSON.stringify(modele), {headers: {'Content-Type': 'application/json'}}));
            })).then(() => done(true));""", self.token)
        self.reopen_offline()
        self.assertEqual(self.offline_case(), "rien")
        self.assertEqual(self.browser.find("a#generer").get_attribute("aria-disabled"), "true")

    def test_one_saved_and_no_template_offers_the_saved_one(self):
        self.open_online_with_template()
        self.follow("a#generer")
        self.browser.wait(lambda: self.browser.visible("a#derniere"), message="the PDF was not kept")
        self.forget_template()
        self.reopen_offline()
        self.assertEqual(self.offline_case(), "derniere")
        self.assertIn("reste disponible", self.browser.text("#hors-ligne"))
        self.browser.wait(lambda: self.browser.visible("a#derniere"), message="no a#derniere offline")


if __name__ == "__main__":
    unittest.main()
