#!/usr/bin/python3
"""make screenshots: the pages at phone size (390 x 844 CSS pixels, device scale 2) in light and
dark mode, as PNG files in docs/screenshots/ (or the directory given). Fictitious people, a
temporary configuration, the server built in $ATTESTATION_BIN on a free port, headless Chromium.
Run with the interpreter of .venv-browser (scripts/browser-env.py)."""

import base64
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Browser"))

import support  # noqa: E402
from support import CAMILLE, ELOISE, MAXIME, Browser, PageHelpers, Server, Site  # noqa: E402


class Shooter(PageHelpers):
    def __init__(self, browser, server, directory, written):
        self.browser, self.server, self.directory = browser, server, directory
        self.written = written

    def shoot(self, name, full_page=True):
        """Saves the page as NAME-clair.png or NAME-sombre.png. A full page is taken with the
        phone's screen made as tall as the page, so bars fixed at the bottom stay at the bottom."""
        driver = self.browser.driver
        driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
        # The pointer away from the last button clicked (no :hover look).
        self.browser.cdp("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 0, "y": 0})
        driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                    "(document.fonts ? document.fonts.ready : Promise.resolve()).then(() => done(true));")
        if full_page:
            content = driver.execute_script(
                "return Math.ceil(Math.max(document.documentElement.scrollHeight, document.body.scrollHeight))")
            if content > support.PHONE["height"]:
                self.browser.cdp("Emulation.setDeviceMetricsOverride", dict(support.PHONE, height=content))
        driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                    "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));")
        data = self.browser.cdp("Page.captureScreenshot", {"format": "png"})["data"]
        if full_page:
            self.browser.cdp("Emulation.setDeviceMetricsOverride", dict(support.PHONE))
        path = os.path.join(self.directory, f"{name}-{'sombre' if self.browser.dark else 'clair'}.png")
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        self.written.append(path)

    # AssertionError-free helpers: PageHelpers asks for these of a TestCase.
    def assertEqual(self, first, second, message=None):
        if first != second:
            raise RuntimeError(f"{message}: {first!r} != {second!r}")


def main():
    directory = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(support.REPO, "docs", "screenshots"))
    os.makedirs(directory, exist_ok=True)
    site = Site(prefix="screenshots")
    server = browser = shooter = None
    try:
        camille = site.mint(CAMILLE, ["travail"], ["--expires", "90d"])
        eloise = site.mint(ELOISE, ["sport_animaux"])
        locked = site.mint(MAXIME, ["sante"], ["--lock-reasons"])
        server = Server(site)

        for dark in (False, True):
            # A new device for each mode, so both show the same people in the switcher.
            if browser:
                browser.quit()
            browser = Browser(dark=dark)
            shooter = Shooter(browser, server, directory, shooter.written if shooter else [])
            browser.open(server.url("/"))
            browser.wait(lambda: browser.visible("#accueil"), message="#accueil is not shown")
            shooter.shoot("accueil")

            # Two people on the device, Camille's page with a second reason and 20 minutes ago.
            browser.open_person(server, eloise)
            browser.open_person(server, camille)
            shooter.toggle("sante")
            shooter.press("#parti-20")
            shooter.shoot("personne")
            shooter.shoot("personne-ecran", full_page=False)

            browser.open_person(server, locked)
            shooter.shoot("personne-verrouillee")

            browser.open(server.url("/", support.altered(camille)))
            browser.wait(lambda: browser.visible("#erreur"), message="#erreur is not shown")
            shooter.shoot("lien-refuse")

            browser.open(server.url("/licenses"))
            browser.wait(lambda: browser.driver.execute_script("return document.readyState") == "complete")
            shooter.shoot("licences", full_page=False)  # the whole texts: thousands of lines

            # « Dis Siri, attestation », from Camille's page: her links filled in.
            browser.open(server.url("/raccourcis.html", camille))
            browser.wait(lambda: browser.visible("#liens"), message="the Shortcuts page shows no links")
            shooter.shoot("raccourcis")

            # What a bookmark of a refused link shows in a browser.
            browser.open(server.url("/attestation.pdf", support.altered(camille)))
            browser.wait(lambda: browser.text("h1") == "Lien non valable", message="no error page")
            shooter.shoot("erreur-lien")

        # Offline: Camille's page kept its template and one PDF made with the network; Éloïse's
        # page was opened once; then the server stops.
        browser.set_dark(False)
        browser.open_person(server, eloise)
        browser.open_person(server, camille)
        browser.driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; navigator.serviceWorker.ready.then(() => done(true));")
        browser.wait(lambda: browser.driver.execute_script("return !!navigator.serviceWorker.controller"), timeout=10,
                     message="the service worker does not control the page")
        browser.wait(lambda: browser.driver.execute_script("return document.documentElement.dataset.modele === 'pret'"),
                     message="no offline template kept")
        shooter.follow("a#generer")
        server.check_stopped_cleanly()
        for dark in (False, True):
            browser.set_dark(dark)
            browser.open(server.url("/", camille))
            browser.wait(lambda: browser.visible("#hors-ligne"), message="no offline notice")
            browser.wait(lambda: browser.visible("a#derniere"), message="no a#derniere offline")
            shooter.shoot("hors-ligne")

        # « Montrer à l’agent », offline: the code drawn on the phone, the facts in large type.
        for dark in (False, True):
            browser.set_dark(dark)
            browser.open(server.url("/", camille))
            browser.wait(lambda: browser.visible("#hors-ligne"), message="no offline notice")
            shooter.click(browser.find("#agent"))
            browser.wait(lambda: browser.driver.execute_script(
                "const i = document.querySelector('#agent-qr'); return !document.querySelector('#agent-contenu').hidden"
                " && i.complete && i.naturalWidth > 0"), message="the officer view shows no QR code")
            shooter.shoot("agent", full_page=False)

        # No template kept: Éloïse never generated one (nothing to show), Camille's is from yesterday.
        browser.set_dark(False)
        browser.driver.execute_async_script("""
            const [token, done] = [arguments[0], arguments[arguments.length - 1]];
            const yesterday = new Date(Date.now() - 26 * 3600 * 1000).toISOString();
            caches.delete('modeles-v1')
              .then(() => caches.open('attestations-v1'))
              .then(cache => cache.match('/derniere-attestation.pdf?t=' + token).then(r => r.blob()).then(pdf =>
                cache.put('/derniere-attestation.pdf?t=' + token, new Response(pdf, {headers: {
                  'Content-Type': 'application/pdf', 'X-Enregistree-Le': yesterday, 'X-Decalage': '-20',
                  'X-Motifs': 'travail,sante'}}))))
              .then(() => done(true));""", camille)
        for dark in (False, True):
            browser.set_dark(dark)
            browser.open(server.url("/", eloise))
            browser.wait(lambda: browser.driver.execute_script(
                "return document.querySelector('#hors-ligne').dataset.cas === 'rien'"), message="not the « nothing yet » notice")
            shooter.shoot("hors-ligne-rien", full_page=False)
            browser.open(server.url("/", camille))
            browser.wait(lambda: browser.visible("#derniere-perimee"), message="yesterday's attestation does not look old")
            browser.driver.execute_script("document.querySelector('#derniere-bloc').scrollIntoView({block: 'center'})")
            shooter.shoot("derniere-ancienne")

        for path in shooter.written:
            print(os.path.relpath(path, support.REPO))
    finally:
        if browser:
            browser.quit()
        if server:
            server.remove()
        site.remove()


if __name__ == "__main__":
    main()
