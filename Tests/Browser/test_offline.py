"""Offline after one visit: the service worker keeps the page and the person's last PDF, so
with the server down (a real outage: connection refused) the page still opens, says it is
offline, and the last attestation still opens, byte for byte."""

import unittest

import support
from support import PageHelpers


class OfflineTests(PageHelpers, unittest.TestCase):
    def setUp(self):
        self.use_own_server("browser-offline")

    def wait_until_kept(self):
        """Until a cache of the site holds a PDF for this link (the service worker stores it
        once the response is complete)."""
        self.browser.wait(lambda: self.browser.driver.execute_async_script("""
            const [token, done] = [arguments[0], arguments[arguments.length - 1]];
            caches.keys().then(names => Promise.all(names.map(n => caches.open(n).then(c => c.keys()))))
              .then(lists => done(lists.flat().some(r => r.url.includes(token) && r.url.includes('.pdf'))), () => done(false));""",
                                                                  self.token), message="no cache holds the PDF")

    def test_the_last_pdf_is_offered_once_generated(self):
        """Online, right after the first PDF, the page offers it as the last one (no reload)."""
        self.browser.open_person(self.server, self.token)
        self.browser.wait_for_service_worker(message="the service worker does not control the page of the first visit")
        self.assertFalse(self.browser.visible("a#derniere"), "a#derniere shown before any PDF was made")
        _, first = self.follow("a#generer")
        self.wait_until_kept()
        self.browser.wait(lambda: self.browser.visible("a#derniere"), timeout=10,
                          message="a#derniere is not shown once the PDF is kept (only after a reload)")
        _, again = self.follow("a#derniere")
        self.assertEqual(again, first)
        self.server.check_stopped_cleanly()

    def test_the_page_and_the_last_pdf_work_offline_after_one_visit(self):
        browser = self.browser
        browser.open_person(self.server, self.token)
        scope = browser.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            if (!('serviceWorker' in navigator)) { done('no service worker support'); return; }
            navigator.serviceWorker.ready.then(r => done(r.scope), e => done('error: ' + e));""")
        self.assertEqual(scope, self.server.base + "/", "the service worker is registered for the whole site")
        # A worker that claims its clients controls this very page, so the first PDF goes through it.
        browser.wait(lambda: browser.driver.execute_script("return !!navigator.serviceWorker.controller"), timeout=10,
                     message="the service worker does not control the page of the first visit")

        self.toggle("sante")
        _, first = self.follow("a#generer")
        self.assertEqual(set(support.pdf_qr(first).reasons), {"travail", "sante"})
        self.wait_until_kept()

        self.server.check_stopped_cleanly()
        self.assertTrue(support.connection_refused(self.server.port), "the server still answers")

        browser.open(self.server.url("/", self.token))
        browser.wait(lambda: browser.text("#prenom") == "Camille", message="offline, the page does not show the name")
        browser.wait(lambda: browser.visible("#hors-ligne"), message="no offline notice")
        self.assertTrue(browser.text("#hors-ligne"))
        browser.wait(lambda: browser.visible("a#derniere"), message="offline, a#derniere is not shown")
        _, again = self.follow("a#derniere")
        self.assertEqual(again, first, "the last attestation opened offline is not the one generated")
        self.assert_same_origin()


if __name__ == "__main__":
    unittest.main()
