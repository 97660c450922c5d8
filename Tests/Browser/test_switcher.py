"""The person switcher: every link opened on the device is remembered, each person keeps
their own last choices, and the list can be reordered, trimmed and added to."""

import unittest

import support
from support import CAMILLE, ELOISE, PageHelpers, Server, Site

site = server = None
tokens = {}


def setUpModule():
    global site, server
    site = Site()
    tokens["camille"] = site.mint(CAMILLE, ["travail"])
    tokens["eloise"] = site.mint(ELOISE, ["travail"])
    server = Server(site)


def tearDownModule():
    support.shut_down(site, server)


class SwitcherTests(PageHelpers, unittest.TestCase):
    def setUp(self):
        self.use_shared_server(server)

    def people(self):
        """[(display name, token, current)] of the switcher, in order."""
        return [(name, support.token_of(href), current == "page") for name, href, current in self.browser.driver.execute_script("""
            return [...document.querySelectorAll('#personnes-liste > li')].map(li => {
              const a = li.querySelector('a.personne');
              return [a.textContent.trim().replace(/\\s+/g, ' '), a.href, a.getAttribute('aria-current')];
            });""")]

    def entry(self, token, css):
        """A control of the switcher's entry for that person."""
        for item in self.browser.find_all("#personnes-liste > li"):
            link = item.find_element("css selector", "a.personne")
            if support.token_of(link.get_attribute("href")) == token:
                return item.find_element("css selector", css)
        self.fail(f"no entry in the switcher for that token: {self.people()}")

    def switch_to(self, token, first_name):
        self.click(self.entry(token, "a.personne"))
        self.browser.wait(lambda: self.browser.text("#prenom") == first_name,
                          message=f"the switcher did not open {first_name}")
        self.browser.wait(lambda: self.reason_states(), message="no reasons shown")

    def open_both(self):
        self.browser.open_person(self.server, tokens["camille"])
        self.browser.open_person(self.server, tokens["eloise"])
        self.browser.wait(lambda: len(self.people()) == 2, message="the switcher does not list both people")

    def test_both_people_are_listed_and_the_current_one_is_marked(self):
        self.open_both()
        self.assertTrue(self.browser.visible("nav#personnes"))
        people = self.people()
        self.assertEqual({(name, token) for name, token, _ in people},
                         {("Camille D.", tokens["camille"]), ("Éloïse Q.", tokens["eloise"])})
        self.assertEqual([name for name, _, current in people if current], ["Éloïse Q."], "aria-current on the page's person")

    def test_each_person_keeps_their_own_reasons(self):
        self.open_both()
        self.switch_to(tokens["camille"], "Camille")
        self.toggle("sante")
        self.follow("a#generer")
        self.switch_to(tokens["eloise"], "Éloïse")
        self.assertEqual(self.checked_reasons(), {"travail"}, "Éloïse got Camille's reasons")
        self.toggle("travail")
        self.toggle("famille")
        _, pdf = self.follow("a#generer")
        self.assertEqual(support.pdf_qr(pdf).reasons, ["famille"])

        self.switch_to(tokens["camille"], "Camille")
        self.assertEqual(self.checked_reasons(), {"travail", "sante"}, "Camille's last reasons")
        self.assertEqual([name for name, _, current in self.people() if current], ["Camille D."])
        _, pdf = self.follow("a#generer")
        fields = support.pdf_qr(pdf)
        self.assertEqual((fields["Prenom"], set(fields.reasons)), ("Camille", {"travail", "sante"}))

        self.switch_to(tokens["eloise"], "Éloïse")
        self.assertEqual(self.checked_reasons(), {"famille"}, "Éloïse's last reasons")

    def test_reorder_and_remove(self):
        self.open_both()
        before = [token for _, token, _ in self.people()]
        second = before[1]
        self.click(self.entry(second, "button.monter"))
        self.browser.wait(lambda: [token for _, token, _ in self.people()] == [before[1], before[0]],
                          message=f"button.monter did not move the second person up: {self.people()}")
        self.browser.driver.refresh()
        self.browser.wait(lambda: len(self.people()) == 2)
        self.assertEqual([token for _, token, _ in self.people()], [before[1], before[0]], "the order is kept on the device")
        self.click(self.entry(second, "button.descendre"))
        self.browser.wait(lambda: [token for _, token, _ in self.people()] == before,
                          message="button.descendre did not move it back down")

        # Removing asks first; dismissing keeps the person.
        self.click(self.entry(tokens["camille"], "button.retirer"))
        alert = self.browser.wait(lambda: self.browser.driver.switch_to.alert, message="no confirmation asked")
        alert.dismiss()
        self.assertEqual(len(self.people()), 2, "dismissing the confirmation removed the person")
        self.click(self.entry(tokens["camille"], "button.retirer"))
        self.browser.wait(lambda: self.browser.driver.switch_to.alert).accept()
        self.browser.wait(lambda: [token for _, token, _ in self.people()] == [tokens["eloise"]],
                          message=f"button.retirer did not remove Camille: {self.people()}")
        self.browser.driver.refresh()
        self.browser.wait(lambda: self.browser.text("#prenom"))
        self.assertEqual([token for _, token, _ in self.people()], [tokens["eloise"]], "the removal is kept on the device")

    def test_a_pasted_link_adds_a_person(self):
        self.browser.open_person(self.server, tokens["eloise"])
        self.browser.wait(lambda: len(self.people()) == 1)
        # The link as the administrator hands it out: the PDF's address.
        pasted = self.server.url("/attestation.pdf", tokens["camille"])
        field = self.browser.find("input#ajout-lien")
        if not field.is_displayed():
            # The form may sit in a closed <details>: open it as a person would.
            summary = self.browser.driver.execute_script(
                "const d = arguments[0].closest('details'); return d && d.querySelector('summary');", field)
            if summary is not None:
                self.click(summary)
        field.send_keys(pasted)
        self.click(self.browser.find("form#ajout [type=submit]"))
        self.browser.wait(lambda: tokens["camille"] in [token for _, token, _ in self.people()],
                          message=f"the pasted link was not added: {self.people()} {self.browser.text('#ajout-erreur')}")
        self.assertIn("Camille D.", [name for name, _, _ in self.people()])

        # A pasted link that is not one is refused with a message.
        field = self.browser.find("input#ajout-lien")
        field.clear()
        field.send_keys("https://exemple.invalid/pas-un-lien")
        self.click(self.browser.find("form#ajout [type=submit]"))
        self.browser.wait(lambda: self.browser.text("#ajout-erreur"), message="no message for a link that is not one")
        self.assertEqual(len(self.people()), 2)


if __name__ == "__main__":
    unittest.main()
