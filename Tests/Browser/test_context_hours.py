"""The right form at any hour (issue 40, item 1), as the person sees it at phone size: where the
version in force has several contexts, the one whose hours cover the exit instant is shown and
printed, the page says why (the hour or the person's choice), and where the form applies only
somewhere (the « mesures renforcées » of 20 March 2021) it asks; the officer view says which
situation the attestation is for; offline, a template of the daytime does not print an exit at
20h. On 8 April 2021 at noon a link printed « Je me déplace entre 19h et 6h » before.

Servers run under Debian's libfaketime at dates of 2021, one after another on one port.
Set $BROWSER_SCREENSHOTS to keep the screens these tests look at."""

import datetime
import json
import unittest

import support
from axe_check import serious_violations
from support import CAMILLE
from test_offline_generation import OfflinePage

NOON_8_APRIL = datetime.datetime(2021, 4, 8, 12, 0, tzinfo=support.PARIS)
EVENING_8_APRIL = datetime.datetime(2021, 4, 8, 20, 0, tzinfo=support.PARIS)
MORNING_20_MARCH = datetime.datetime(2021, 3, 20, 11, 0, tzinfo=support.PARIS)


class ContextByHourTests(OfflinePage, unittest.TestCase):
    def setUp(self):
        self.site = support.Site(prefix="browser-context-hours")
        self.addCleanup(self.site.remove)
        self.token = self.site.mint(CAMILLE, ["travail"])
        self.port = support.free_port()
        self.browser = support.Browser()
        self.addCleanup(self.browser.quit)

    def start_server(self, at):
        self.server = support.Server(self.site, at=at, port=self.port)
        self.addCleanup(self.server.remove)
        return self.server

    def checked_context(self):
        return self.browser.driver.execute_script(
            "const e = document.querySelector('input[name=contexte]:checked'); return e && e.value;")

    def test_the_page_shows_and_prints_the_form_of_the_hour_and_says_so(self):
        browser = self.browser
        self.start_server(NOON_8_APRIL)
        browser.open_person(self.server, self.token)
        browser.wait(lambda: browser.visible("fieldset#contextes"), message="no context choice on the page")
        self.assertEqual(self.checked_context(), "journee", "at noon, the daytime form")
        self.assertIn("Selon l’heure de sortie : journée, 6h-19h.", browser.text("#contextes-situation"))
        browser.screenshot("contexte-midi")
        self.assertEqual(serious_violations(browser), [], "axe-core with the situation line")
        _, pdf = self.follow("a#generer")
        self.assertIn("entre 6h et 19h", support.pdf_text(pdf), "at noon the PDF is not the daytime form")

        # « Montrer à l’agent » says which situation the attestation is for.
        self.click(browser.find("#agent"))
        browser.wait(lambda: browser.visible("#agent-situation"), message="the officer view names no situation")
        self.assertEqual(browser.text("#agent-situation"), "Situation : journée, 6h-19h")
        browser.screenshot("agent-situation")
        self.server.check_stopped_cleanly()

        self.start_server(EVENING_8_APRIL)
        browser.open_person(self.server, self.token)
        browser.wait(lambda: self.checked_context() == "couvre-feu", message="at 20h, not the curfew form")
        self.assertIn("Selon l’heure de sortie : couvre-feu, 19h-6h.", browser.text("#contextes-situation"))
        _, pdf = self.follow("a#generer")
        self.assertIn("entre 19h et 6h", support.pdf_text(pdf))

        # The daytime form chosen at 20h holds for this visit, not the next at night: the hour
        # decides where the form applies everywhere. The choice is kept for the next morning.
        self.click(browser.find("#contexte-journee"))
        browser.wait(lambda: "Situation choisie : journée, 6h-19h." in browser.text("#contextes-situation"),
                     message="the person's choice is not said")
        browser.open_person(self.server, self.token)
        browser.wait(lambda: self.checked_context() == "couvre-feu", message="a daytime choice held at 20h")
        self.server.check_stopped_cleanly()
        self.start_server(NOON_8_APRIL + datetime.timedelta(days=1))
        browser.open_person(self.server, self.token)
        browser.wait(lambda: "Situation choisie : journée, 6h-19h." in browser.text("#contextes-situation"),
                     message="the choice was not kept for the next morning")
        self.server.check_stopped_cleanly()

    def test_where_the_form_applies_only_somewhere_the_page_asks(self):
        browser = self.browser
        self.start_server(MORNING_20_MARCH)
        browser.open_person(self.server, self.token)
        browser.wait(lambda: browser.visible("fieldset#contextes"), message="no context choice on the page")
        self.assertEqual(self.checked_context(), "mesures-renforcees", "at 11h, the only form of the hour")
        situation = browser.text("#contextes-situation")
        self.assertIn("ne concerne que les 16 départements soumis à des mesures renforcées", situation)
        self.assertIn("y êtes-vous ?", situation)
        browser.screenshot("contexte-question")

        # The person answers by choosing: the page says it is their choice, and remembers it.
        self.click(browser.find("#contexte-couvre-feu"))
        browser.wait(lambda: "Situation choisie : couvre-feu, 19h-6h." in browser.text("#contextes-situation"),
                     message="the person's choice is not said")
        browser.open_person(self.server, self.token)
        browser.wait(lambda: self.checked_context() == "couvre-feu", message="the choice was not remembered")
        self.server.check_stopped_cleanly()

    def test_offline_a_daytime_template_does_not_print_an_exit_at_night(self):
        browser = self.browser
        self.start_server(datetime.datetime(2021, 4, 8, 18, 30, tzinfo=support.PARIS))
        self.open_online_with_template()
        template = json.loads(browser.driver.execute_async_script("""
            const [token, done] = [arguments[0], arguments[arguments.length - 1]];
            caches.open('modeles-v1').then(c => c.match('/modele-hors-ligne?t=' + token)).then(r => r.text()).then(done);""",
                                                                  self.token))
        self.assertEqual(template["version"]["context"], "journee")
        self.server.check_stopped_cleanly()
        self.assertTrue(support.connection_refused(self.port))

        # An hour later on the phone, offline: 19h30, the curfew's hours.
        browser.shift_clock(3600 * 1000)
        browser.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            caches.open('modeles-v1').then(async cache => {
              const ecart = Number((await (await cache.match('/horloge')).json()).ecart);
              await cache.put('/horloge', new Response(JSON.stringify({ecart: ecart + 3600 * 1000}),
                {headers: {'Content-Type': 'application/json'}}));
            }).then(() => done(true));""")
        status, _, body = browser.fetch_bytes(self.server.url("/attestation.pdf", self.token))
        self.assertEqual(status, 503, "a bookmark printed the daytime form at 19h30")
        self.assertIn("c’est «\u202fcouvre-feu, 19h-6h\u202f»", body.decode("utf-8"))


if __name__ == "__main__":
    unittest.main()
