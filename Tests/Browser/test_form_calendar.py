"""A link that follows the official calendar of forms (issue 28, items 4 and 5), as the person sees
it on their page at phone size: the context of a version that has several (curfew / weekend),
chosen in one tap and remembered; the link's reasons that the form in force no longer has, asked
for rather than replaced; « Nouveau formulaire depuis le … » after a change since the last
visit; and, offline past a change, the page saying so instead of making an attestation on the
old form.

A link minted without --form follows the calendar. The server runs with Debian's libfaketime
at dates of March 2021: the 2021-03-01 form until 17 March 2021 at midnight, Paris time, then
2021-03-17's, with its two contexts (couvre-feu / week-end). The page's clock follows the
server's (it measures the gap); offline, the phone's clock is moved on
(support.Browser.shift_clock).
Across the change of 28 November 2020 (deplacement-2020-11-02, then deplacement-2020-11-28), the
page offline makes with its kept template the server's document for the same instant, on each side.
Set $BROWSER_SCREENSHOTS to keep the screens these tests look at."""

import datetime
import json
import unittest

import support
from axe_check import serious_violations
from support import CAMILLE, ELOISE, PageHelpers
from test_offline_generation import pdf_texts

# 17 March 2021 at midnight in Paris: the 2021-03-17 form (couvre-feu / week-end) replaces 2021-03-01.
CHANGE = "2021-03-16T23:00:00Z"
UTC = datetime.timezone.utc
BEFORE_CHANGE = datetime.datetime(2021, 3, 10, 12, 0, tzinfo=UTC)
JUST_BEFORE_CHANGE = datetime.datetime(2021, 3, 16, 22, 30, tzinfo=UTC)
AFTER_CHANGE = datetime.datetime(2021, 3, 18, 12, 0, tzinfo=UTC)

site = server = None
tokens = {}


def setUpModule():
    global site, server
    site = support.Site(prefix="browser-form-calendar")
    tokens["camille"] = site.mint(CAMILLE, ["travail"])
    # `enfants` (school runs, 2020) has no counterpart in the forms of March 2021.
    tokens["eloise"] = site.mint(ELOISE, ["travail", "enfants"])
    server = support.Server(site, at=AFTER_CHANGE)


def tearDownModule():
    support.shut_down(site, server)


class ContextChoiceTests(PageHelpers, unittest.TestCase):
    def setUp(self):
        self.use_shared_server(server)

    def context_states(self):
        """{id: checked} of the context buttons."""
        return dict(self.browser.driver.execute_script("""
            return [...document.querySelectorAll('fieldset#contextes input[type=radio][name=contexte]')]
              .map(e => [e.value, e.checked]);"""))

    def test_the_context_is_picked_in_one_tap_printed_and_remembered(self):
        browser = self.browser
        browser.open_person(self.server, tokens["camille"])
        browser.wait(lambda: browser.visible("fieldset#contextes"), message="no context choice on the page")
        self.assertEqual(self.context_states(), {"couvre-feu": True, "week-end": False})
        self.assertNotIn("courses", self.reason_states(), "the curfew form has no shopping")
        self.assertIn("context=couvre-feu", self.href("a#generer"))
        # A link to keep follows the link's default until the person chooses.
        self.assertNotIn("context=", browser.find("#lien").get_attribute("value"))

        self.click(browser.find("#contexte-week-end"))
        browser.wait(lambda: "courses" in self.reason_states(), message="the weekend form's reasons never showed")
        self.assertEqual(self.context_states(), {"couvre-feu": False, "week-end": True})
        self.assertEqual(self.checked_reasons(), {"travail"})
        self.toggle("courses")
        self.assertIn("context=week-end", self.href("a#generer"))
        self.assertIn("context=week-end", self.href("a#qr"))
        self.assertIn("context=week-end", browser.find("#lien").get_attribute("value"))
        self.assertIn("context=week-end", self.href("#lien-raccourcis"))
        browser.screenshot("contexte-week-end")
        self.assertEqual(serious_violations(browser), [], "axe-core with the context choice")

        _, pdf = self.follow("a#generer")
        text = support.pdf_text(pdf)
        self.assertIn("UNIQUEMENT DE 6H A 18H", text, "the PDF is not the weekend form")
        self.assertRegex(text, r"\[x\]\s+Déplacements pour effectuer des achats de fournitures", "shopping not ticked")
        self.assertEqual(support.pdf_qr(pdf).reasons, ["travail", "courses"])

        # Remembered for this person on this device.
        browser.open_person(self.server, tokens["camille"])
        browser.wait(lambda: self.context_states().get("week-end"), message="the weekend context was not remembered")
        self.assertEqual(self.checked_reasons(), {"travail", "courses"})
        self.assertIn("context=week-end", self.href("a#generer"))

    def test_the_last_attestation_is_dated_by_the_servers_clock_not_the_phones(self):
        """Issue 40, item 4: online, « Ma dernière attestation » said « Sortie le 28/11/2026 » (the
        phone's day) of a PDF the server dated in 2021, and called it old."""
        browser = self.browser
        browser.open_person(self.server, tokens["camille"])
        browser.wait_for_service_worker()
        self.follow("a#generer")
        browser.wait(lambda: browser.visible("#derniere-bloc"), message="the last attestation is not shown")
        details, created = browser.text("#derniere-details"), browser.text("#derniere-date")
        self.assertIn("Sortie aujourd’hui à", details)
        self.assertIn("Créée aujourd’hui à", created)
        self.assertNotIn(str(datetime.date.today().year), details + created)
        self.assertFalse(browser.visible("#derniere-perimee"), "made now, it looks old")

    def test_reasons_the_form_in_force_lacks_are_asked_for_before_generating(self):
        browser = self.browser
        browser.open_person(self.server, tokens["eloise"])
        browser.wait(lambda: browser.visible("#motifs-manquants"), message="the page does not say a reason is missing")
        text = browser.text("#motifs-manquants")
        # The code as the link names it, in guillemets with narrow no-break spaces.
        self.assertIn("«\u202fenfants\u202f»", browser.driver.execute_script(
            "return document.querySelector('#motifs-manquants-texte').textContent"))
        self.assertIn("Choisissez vos motifs", text)
        self.assertEqual(self.checked_reasons(), {"travail"}, "the reason that carries over is kept, nothing replaces enfants")
        for css in ("a#generer", "a#qr", "a#image", "#agent"):
            self.assertEqual(browser.find(css).get_attribute("aria-disabled"), "true", f"{css} usable before the choice")
        self.click(browser.find("a#generer"))
        self.assertEqual(browser.driver.execute_script("return document.activeElement.id"), "motifs-manquants",
                         "a tap on Générer does not lead to what is missing")
        # Under the finger (:hover stays after a tap) it still looks as unusable as the others.
        browser.wait(lambda: browser.driver.execute_script("""
            const fond = (css) => getComputedStyle(document.querySelector(css)).backgroundColor;
            return fond('a#generer') === fond('a#qr');"""), message="the disabled Générer looks usable under the finger")
        browser.screenshot("motifs-manquants")
        self.assertEqual(serious_violations(browser), [], "axe-core with the missing reasons")

        self.toggle("famille")
        browser.wait(lambda: not browser.visible("#motifs-manquants"), message="the notice stayed after the choice")
        self.assertIsNone(browser.find("a#generer").get_attribute("aria-disabled"))
        _, pdf = self.follow("a#generer")
        self.assertTrue(pdf.startswith(b"%PDF-"), pdf[:200])
        self.assertEqual(support.pdf_qr(pdf).reasons, ["travail", "famille"])

        # Chosen in this form: not asked again.
        browser.open_person(self.server, tokens["eloise"])
        self.assertFalse(browser.visible("#motifs-manquants"))
        self.assertEqual(self.checked_reasons(), {"travail", "famille"})


class FormChangeTests(PageHelpers, unittest.TestCase):
    """Servers started at dates of March 2021 under faketime, one after another on one port."""

    def setUp(self):
        self.site = support.Site(prefix="browser-form-change")
        self.addCleanup(self.site.remove)
        self.token = self.site.mint(CAMILLE, ["travail"])
        self.port = support.free_port()
        self.browser = support.Browser()
        self.addCleanup(self.browser.quit)
        self.server = None

    def start_server(self, at):
        self.server = support.Server(self.site, at=at, port=self.port)
        self.addCleanup(self.server.remove)
        return self.server

    def test_a_new_form_since_the_last_visit_is_announced_once(self):
        browser = self.browser
        self.start_server(BEFORE_CHANGE)
        browser.open_person(self.server, self.token)
        self.assertIn("courses", self.reason_states(), "on 10 March 2021 the form is 2021-03-01's")
        self.assertFalse(browser.visible("#avis-formulaire"), "a first visit announced a new form")
        self.server.check_stopped_cleanly()

        self.start_server(AFTER_CHANGE)
        browser.open_person(self.server, self.token)
        browser.wait(lambda: browser.visible("#avis-formulaire"), message="no notice of the new form")
        self.assertEqual(browser.find("#avis-formulaire").get_attribute("role"), "status")
        self.assertIn("Nouveau formulaire depuis le 17 mars 2021 : vérifiez vos motifs", browser.text("#avis-formulaire"))
        self.assertTrue(browser.visible("fieldset#contextes"), "the new form's contexts")
        browser.screenshot("nouveau-formulaire")
        self.assertEqual(serious_violations(browser), [], "axe-core with the notice")

        self.click(browser.find("#avis-formulaire-fermer"))
        self.assertFalse(browser.visible("#avis-formulaire"), "the notice does not close")
        self.assertEqual(browser.driver.execute_script("return document.activeElement.name"), "contexte",
                         "closing the notice left the focus nowhere")
        browser.open_person(self.server, self.token)
        self.assertFalse(browser.visible("#avis-formulaire"), "the notice came back on the next visit")
        self.server.check_stopped_cleanly()

    def test_past_the_end_of_the_rules_only_the_true_notice_shows(self):
        """Issue 40, item 4: on 1 July 2021 « Nouveau formulaire depuis le 9 juin 2021 : vérifiez
        vos motifs » showed beside « Plus aucune attestation n’est demandée… »."""
        browser = self.browser
        self.start_server(datetime.datetime(2021, 5, 20, 12, 0, tzinfo=UTC))
        browser.open_person(self.server, self.token)
        self.server.check_stopped_cleanly()

        self.start_server(datetime.datetime(2021, 7, 1, 12, 0, tzinfo=UTC))
        browser.open_person(self.server, self.token)
        browser.wait(lambda: browser.visible("#avis-fin"), message="no notice of the end of the rules")
        self.assertIn("Plus aucune attestation n’est demandée depuis le 20 juin 2021", browser.text("#avis-fin"))
        self.assertFalse(browser.visible("#avis-formulaire"), "a new form announced past the end of the rules")
        self.server.check_stopped_cleanly()

    def test_offline_after_a_change_the_page_says_so_and_makes_nothing(self):
        browser = self.browser
        self.start_server(JUST_BEFORE_CHANGE)
        browser.open_person(self.server, self.token)
        browser.wait_for_service_worker()
        browser.wait(lambda: browser.driver.execute_script("return document.documentElement.dataset.modele === 'pret'"),
                     message="the offline template was never kept")
        template = json.loads(browser.driver.execute_async_script("""
            const [token, done] = [arguments[0], arguments[arguments.length - 1]];
            caches.open('modeles-v1').then(c => c.match('/modele-hors-ligne?t=' + token)).then(r => r.text()).then(done);""",
                                                                  self.token))
        self.assertEqual(template["version"]["nextChange"], CHANGE)
        self.assertLessEqual(template["offlineUntil"], CHANGE)
        self.server.check_stopped_cleanly()
        self.assertTrue(support.connection_refused(self.port))

        # Offline, still before the change: the page makes attestations itself.
        browser.open(self.server.url("/", self.token))
        browser.wait(lambda: browser.visible("#hors-ligne"), message="no offline notice")
        self.assertEqual(browser.driver.execute_script("return document.querySelector('#hors-ligne').dataset.cas"), "modele")

        # An hour later on the phone: past midnight, the 2021-03-17 form is in force.
        browser.shift_clock(3600 * 1000)
        browser.open(self.server.url("/", self.token))
        browser.wait(lambda: browser.text("#prenom") == "Camille", message="offline, the page does not show the name")
        browser.wait(lambda: "Le formulaire a changé" in (browser.text("#hors-ligne") or ""),
                     message="offline after the change, the page does not say the form changed")
        self.assertIn("Le formulaire a changé le 17 mars 2021 : reconnectez-vous pour obtenir le nouveau",
                      browser.text("#hors-ligne"))
        for css in ("a#generer", "a#qr", "#agent"):
            self.assertEqual(browser.find(css).get_attribute("aria-disabled"), "true", f"{css} usable on the old form")
        # « Montrer à l’agent » shows no attestation on the old form.
        self.click(browser.find("#agent"))
        self.assertFalse(browser.driver.execute_script("return document.querySelector('#vue-agent').open"),
                         "the officer view opened on the old form")
        browser.screenshot("hors-ligne-formulaire-change")
        self.assertEqual(serious_violations(browser), [], "axe-core offline after the change")

        # A bookmark of the PDF, opened offline: the service worker says the same, and makes no
        # attestation on the old form. Its clock is the machine's plus the gap the page measured
        # (kept in the cache for it): moved on by the same hour.
        browser.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            caches.open('modeles-v1').then(async cache => {
              const ecart = Number((await (await cache.match('/horloge')).json()).ecart);
              await cache.put('/horloge', new Response(JSON.stringify({ecart: ecart + 3600 * 1000}),
                {headers: {'Content-Type': 'application/json'}}));
            }).then(() => done(true));""")
        status, _, body = browser.fetch_bytes(self.server.url("/attestation.pdf", self.token))
        self.assertEqual(status, 503)
        self.assertIn("Le formulaire a changé le 17\u00a0mars 2021\u00a0: reconnectez-vous", body.decode("utf-8"))


# 28 November 2020 at midnight in Paris: deplacement-2020-11-28 replaces deplacement-2020-11-02.
NOVEMBER_CHANGE = "2020-11-27T23:00:00Z"
EVENING_BEFORE = datetime.datetime(2020, 11, 27, 20, 0, tzinfo=support.PARIS)
MORNING_AFTER = datetime.datetime(2020, 11, 28, 10, 0, tzinfo=support.PARIS)


class OfflineAcrossAChangeTests(PageHelpers, unittest.TestCase):
    """Offline, the page makes the server's document with the template it kept: on the evening
    before a change the old form, the morning after (once online again) the new one. The server
    runs under libfaketime at each date in turn, on one port; offline is a real outage (the
    server stopped)."""

    def setUp(self):
        self.site = support.Site(prefix="browser-offline-change")
        self.addCleanup(self.site.remove)
        self.token = self.site.mint(CAMILLE, ["travail"])
        self.port = support.free_port()
        self.browser = support.Browser()
        self.addCleanup(self.browser.quit)

    def kept_template(self):
        return json.loads(self.browser.driver.execute_async_script("""
            const [token, done] = [arguments[0], arguments[arguments.length - 1]];
            caches.open('modeles-v1').then(c => c.match('/modele-hors-ligne?t=' + token)).then(r => r.text()).then(done);""",
                                                                   self.token))

    def choose_travail_and_sante(self):
        if "sante" not in self.checked_reasons():
            self.toggle("sante")
        self.assertEqual(self.checked_reasons(), {"travail", "sante"})

    def offline_and_server_documents(self, at):
        """Online at `at` (the server's clock), the page keeps its template; then the server's
        document for an exit 20 minutes before `at` + 30 s, and, the server stopped, the page's
        own for the same choices with its clock at `at` + 30 s. (template, page's PDF, server's PDF)."""
        browser = self.browser
        server = support.Server(self.site, at=at, port=self.port)
        self.addCleanup(server.remove)
        browser.open_person(server, self.token)
        browser.wait_for_service_worker()
        browser.wait(lambda: browser.driver.execute_script("return document.documentElement.dataset.modele === 'pret'"),
                     message="the offline template was never kept")
        template = self.kept_template()
        self.choose_travail_and_sante()
        created = at + datetime.timedelta(seconds=30)
        exit_time = created - datetime.timedelta(minutes=20)
        status, _, from_server = support.fetch(server.url("/attestation.pdf", self.token, at=exit_time.strftime("%H:%M"),
                                                          reasons="travail,sante"))
        self.assertEqual(status, 200, from_server[:300])
        server.check_stopped_cleanly()
        self.assertTrue(support.connection_refused(self.port))

        browser.open(server.url("/", self.token))
        browser.wait(lambda: browser.visible("#hors-ligne"), message="no offline notice")
        self.assertEqual(browser.driver.execute_script("return document.querySelector('#hors-ligne').dataset.cas"), "modele",
                         "offline, the page does not make attestations from its template")
        # The phone's clock, frozen so that with the gap to the server's it measured online it
        # reads `at` + 30 s.
        gap = float(browser.driver.execute_script("return localStorage.getItem('attestation.horloge.v1')"))
        browser.driver.execute_script(f"Date.now = () => {round(created.timestamp() * 1000 - gap)};")
        self.choose_travail_and_sante()
        self.press("#parti-20")
        _, offline = self.follow("a#generer")
        self.assertTrue(offline.startswith(b"%PDF-"), offline[:200])
        self.assertEqual(support.pdf_qr(offline)["Cree le"], created.strftime("%d/%m/%Y a %Hh%M"))
        return template, offline, from_server

    def assert_same_document(self, offline, from_server):
        self.assertEqual(pdf_texts(offline), pdf_texts(from_server), "the page text differs from the server's")

        def without_creation(payload):
            return [line for line in payload.split(";\n") if not line.startswith("Cree le: ")]
        offline_codes, server_codes = support.qr_payloads(offline), support.qr_payloads(from_server)
        self.assertEqual(len(offline_codes), 2)
        self.assertEqual([without_creation(c) for c in offline_codes], [without_creation(c) for c in server_codes])

    def test_offline_the_page_makes_the_servers_document_on_each_side_of_a_change(self):
        template, offline, from_server = self.offline_and_server_documents(EVENING_BEFORE)
        self.assertEqual(template["version"]["nextChange"], NOVEMBER_CHANGE)
        self.assertLessEqual(template["offlineUntil"], NOVEMBER_CHANGE)
        self.assert_same_document(offline, from_server)
        # The form of 2 November 2020: « décret n°2020-1310 », shopping without culture.
        text = pdf_texts(offline)[1]
        self.assertIn("décret n°2020-1310", text)
        self.assertNotIn("établissement culturel", text)

        template, offline, from_server = self.offline_and_server_documents(MORNING_AFTER)
        self.assertEqual(template["version"]["start"], NOVEMBER_CHANGE, "the page kept the template of the old form")
        self.assertGreater(template["offlineUntil"], NOVEMBER_CHANGE)
        self.assert_same_document(offline, from_server)
        # The form of 28 November 2020: « décret no 2020-1310 », culture with shopping.
        text = pdf_texts(offline)[1]
        self.assertIn("décret no 2020-1310", text)
        self.assertIn("établissement culturel autorisé", text)
        self.assertEqual(support.pdf_qr(offline).reasons, ["travail", "sante"])


if __name__ == "__main__":
    unittest.main()
