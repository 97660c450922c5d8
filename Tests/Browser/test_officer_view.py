"""« Montrer à l’agent » (issue 23, items 2 and 4a): one tap shows the attestation full screen, its
QR code large enough to scan from a phone held out of a car window, and the name, exit date and
time and reasons in large type, offline too. The code is read back from a screenshot of the
screen (zbarimg) and must hold exactly the payload of the PDF made in the same action (the one
the page keeps as the last attestation), read from that PDF with pdftoppm and zbarimg. Offline
the « QR code » button gives a scannable code of the same payload, made on the phone."""

import unittest

from selenium.webdriver.common.keys import Keys

import support
from axe_check import serious_violations
from test_offline_generation import OfflinePage

# The short labels the page shows for the reasons of the built-in form.
LABELS = {"travail": "Travail, études, examen", "sante": "Santé"}
# The short labels above are the 28 November 2020 form's: the link is pinned to it (a link that
# follows the calendar prints the form in force today, with other labels).
PINNED = ("--form", "deplacement-2020-11-28")


class OfficerView(OfflinePage):
    def open_officer_view(self):
        """Taps « Montrer à l’agent » and waits for the view with its QR code drawn."""
        browser = self.browser
        self.click(browser.find("#agent"))
        browser.wait(lambda: browser.driver.execute_script("""
            const vue = document.querySelector('#vue-agent');
            const image = document.querySelector('#agent-qr');
            return vue && vue.open && !document.querySelector('#agent-contenu').hidden
              && image.complete && image.naturalWidth > 0;"""), message="the officer view never showed a QR code")

    def screen_payload(self):
        """The QR code zbarimg reads on a screenshot of the whole screen."""
        return support.qr_payloads(self.browser.driver.get_screenshot_as_png(), png=True)[0]

    def last_pdf(self):
        """The attestation the page keeps as the last one, as « Ouvrir ma dernière attestation » gives it."""
        self.browser.wait(lambda: self.browser.visible("a#derniere"), message="no last attestation kept")
        return self.follow("a#derniere")[1]

    def view_open(self):
        return self.browser.driver.execute_script("return document.querySelector('#vue-agent').open")

    def assert_view_shows(self, fields):
        """The name, the exit date and time and the reasons of the payload, in the view's text."""
        text = self.browser.text("#vue-agent")
        # As the attestation prints it, accents and all (the QR code folds them to ASCII).
        self.assertIn(f"{support.CAMILLE.first} {support.CAMILLE.last}", text)
        day, _, clock = fields["Sortie"].partition(" a ")
        self.assertIn(day, text)
        self.assertIn(clock, text)
        for code in fields.reasons:
            self.assertIn(LABELS[code], text)


class OfficerViewOfflineTests(OfficerView, unittest.TestCase):
    def setUp(self):
        self.use_own_server("browser-officer-offline", extra=PINNED)

    def test_offline_the_officer_view_shows_the_code_of_the_attestation_it_makes(self):
        browser = self.browser
        self.open_online_with_template()
        self.reopen_offline()
        self.toggle("sante")
        self.press("#parti-10")
        self.open_officer_view()
        on_screen = self.screen_payload()
        self.assertEqual(browser.driver.execute_script("return document.activeElement.closest('#vue-agent') !== null"),
                         True, "the focus is not in the view")
        self.assertEqual(serious_violations(browser), [], "axe-core on the officer view")
        label = browser.driver.execute_script(
            "const v = document.querySelector('#vue-agent'); return document.getElementById(v.getAttribute('aria-labelledby')).textContent")
        self.assertTrue(label.strip(), "the view has no label")
        self.assertTrue(browser.find("#agent-qr").get_attribute("alt").strip(), "the QR code has no text alternative")

        self.click(browser.find("#agent-fermer"))
        browser.wait(lambda: not self.view_open(), message="« Fermer » did not close the view")
        self.assertEqual(browser.driver.execute_script("return document.activeElement.id"), "agent",
                         "the focus did not come back to « Montrer à l’agent »")

        kept = self.last_pdf()
        fields = support.QRFields(on_screen)
        self.assertEqual(on_screen, support.qr_payloads(kept, pages=(2, 2))[0], "the screen and the PDF differ")
        self.assertEqual(fields.reasons, ["travail", "sante"])
        self.assertEqual((fields.created - fields.exit).total_seconds(), 600, on_screen)

        # Again: the same attestation, the one just made, not a new one; Escape closes it.
        self.open_officer_view()
        self.assertEqual(self.screen_payload(), on_screen)
        self.assert_view_shows(fields)
        browser.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        browser.wait(lambda: not self.view_open(), message="Escape did not close the view")
        self.assertEqual(browser.driver.execute_script("return document.activeElement.id"), "agent")

        # The browser's back button closes it too, and stays on the page.
        self.open_officer_view()
        page = browser.driver.current_url
        browser.driver.back()
        browser.wait(lambda: not self.view_open(), message="the back button did not close the view")
        self.assertEqual(browser.driver.current_url, page)
        self.assertTrue(browser.visible("#choix"), "the back button left the page")

    def test_offline_right_after_generating_the_view_shows_that_attestation(self):
        self.open_online_with_template()
        self.reopen_offline()
        _, generated = self.follow("a#generer")
        self.open_officer_view()
        on_screen = self.screen_payload()
        self.assertEqual(on_screen, support.qr_payloads(generated, pages=(2, 2))[0])
        self.assert_view_shows(support.QRFields(on_screen))

    def test_offline_the_qr_code_button_gives_a_scannable_code_of_the_attestation(self):
        browser = self.browser
        self.open_online_with_template()
        self.reopen_offline()
        self.assertIsNone(browser.find("a#qr").get_attribute("aria-disabled"), "offline, « QR code » is greyed out")
        self.assertEqual(browser.find("a#image").get_attribute("aria-disabled"), "true", "the page image needs the server")
        self.assertIn("image de la page demande le réseau", browser.text("#hors-ligne"))
        self.toggle("sante")
        name, png = self.follow("a#qr")
        self.assertTrue(png.startswith(b"\x89PNG\r\n\x1a\n"), name)
        self.assertRegex(name, r"^attestation-\d{4}-\d\d-\d\d_\d\d-\d\d\.png$")
        code = support.qr_payloads(png, png=True)[0]
        self.assertEqual(code, support.qr_payloads(self.last_pdf(), pages=(2, 2))[0])
        self.assertEqual(support.QRFields(code).reasons, ["travail", "sante"])


    def test_offline_after_the_reasons_or_the_time_change_the_qr_code_and_the_view_follow_them(self):
        """Issue 29, item 10: a mutation that gave the first attestation again after the
        choices changed went through every test. Each change is followed, without generating in
        between, by the view, then by « QR code »."""
        self.open_online_with_template()
        self.reopen_offline()
        first = support.QRFields(support.qr_payloads(self.follow("a#qr")[1], png=True)[0])
        self.assertEqual(first.reasons, ["travail"])
        self.toggle("sante")
        self.open_officer_view()
        self.assertEqual(support.QRFields(self.screen_payload()).reasons, ["travail", "sante"], "the view")
        self.click(self.browser.find("#agent-fermer"))
        self.browser.wait(lambda: not self.view_open(), message="« Fermer » did not close the view")
        self.press("#parti-20")
        self.open_officer_view()
        on_screen = support.QRFields(self.screen_payload())
        self.assertEqual((on_screen.created - on_screen.exit).total_seconds(), 20 * 60, "the view")
        self.assertEqual(on_screen.reasons, ["travail", "sante"], "the view")
        self.click(self.browser.find("#agent-fermer"))
        self.browser.wait(lambda: not self.view_open(), message="« Fermer » did not close the view")
        self.toggle("sante")
        late = support.QRFields(support.qr_payloads(self.follow("a#qr")[1], png=True)[0])
        self.assertEqual((late.created - late.exit).total_seconds(), 20 * 60, "« QR code »")
        self.assertEqual(late.reasons, ["travail"], "« QR code »")


class OfficerViewOnlineTests(OfficerView, unittest.TestCase):
    def setUp(self):
        self.use_own_server("browser-officer-online", extra=PINNED)

    def test_right_after_the_server_made_one_the_view_shows_that_attestation(self):
        """The server's PDF, as « Générer l’attestation » downloads it: the view's code is its code."""
        self.open_online_with_template()
        self.toggle("sante")
        _, generated = self.follow("a#generer")
        self.browser.wait(lambda: self.browser.visible("a#derniere"), message="the PDF was not kept")
        self.open_officer_view()
        on_screen = self.screen_payload()
        self.assertEqual(on_screen, support.qr_payloads(generated, pages=(2, 2))[0])
        self.assert_view_shows(support.QRFields(on_screen))
        self.server.check_stopped_cleanly()

    def test_online_with_none_made_the_view_shows_the_servers_new_attestation(self):
        self.open_online_with_template()
        self.open_officer_view()
        on_screen = self.screen_payload()
        self.click(self.browser.find("#agent-fermer"))
        self.browser.wait(lambda: not self.view_open(), message="« Fermer » did not close the view")
        self.assertEqual(on_screen, support.qr_payloads(self.last_pdf(), pages=(2, 2))[0])
        self.server.check_stopped_cleanly()


if __name__ == "__main__":
    unittest.main()
