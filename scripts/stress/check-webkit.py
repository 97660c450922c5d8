#!/usr/bin/python3
"""make check-webkit: « Montrer à l’agent » in WebKit, the engine of every iPhone browser.

The browser tests (Tests/Browser) run in Chromium only; most people show their attestation to an
officer from an iPhone. This script opens a person's page in WebKitGTK (Debian's MiniBrowser,
through WebKitWebDriver and Debian's selenium) at phone size, 390 x 844 CSS pixels at device scale
2, against the server built in $ATTESTATION_BIN (the harness: a temporary site, Camille's link, a
free port), and checks:

  online   the service worker controls the page; with « Santé » ticked, « Montrer à l’agent »
           opens the view and draws the QR code, which zbarimg reads on a screenshot: Camille's
           Prenom and Nom, the ticked reasons; the view's text gives her name, exit date and time
           and the reasons' labels; « Fermer » closes it and the page is back;
  offline  the server stopped (connection refused, its log clean), the page reopened from the
           service worker: the view's code is an attestation made now (« Cree le » within two
           minutes, Paris time) for the ticked reasons; « QR code » is not greyed out and its
           download (a PNG the page makes, saved by MiniBrowser) is a code zbarimg reads, with
           the same reasons.

Screenshots of the view online and offline are kept in a temporary folder (its path is in the
report) for a person to look at. The report is JSON on standard output, a record per check
(`name`, `pass`, `details`); the exit status is 0 when every check passes, 1 otherwise.

WebKitGTK needs a display (MiniBrowser has no headless mode): without DISPLAY the script runs
itself again under xvfb-run. The browser's home is a temporary directory: a new profile each run,
the downloads in it, and a GTK style sheet that lets the toolbar, so the window, shrink to 390
pixels (447 at least otherwise).
"""

import datetime
import glob
import json
import os
import shutil
import sys
import tempfile
import traceback

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "Browser"))

import support  # noqa: E402
from support import CAMILLE, PageHelpers, QRFields  # noqa: E402

# Debian's MiniBrowser (package libwebkit2gtk-4.1-0), in the machine's multiarch directory.
MINIBROWSER = (glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser") or ["MiniBrowser"])[0]
WIDTH, HEIGHT, SCALE = 390, 844, 2
# The short labels the view shows for the reasons of the built-in form.
LABELS = {"travail": "Travail, études, examen", "sante": "Santé"}
REASONS = ["travail", "sante"]


class WebKit(support.Browser):
    """support.Browser's waiting, reading and downloads, over WebKitGTK's MiniBrowser instead of
    Chromium. Its home is a temporary directory: a new profile, and the downloads, which
    MiniBrowser saves in the user's download folder, where support.Browser looks for them."""

    def __init__(self, home, log):
        from selenium import webdriver
        from selenium.webdriver import WebKitGTKOptions
        from selenium.webdriver.webkitgtk.service import Service

        # The toolbar's widgets may shrink: the window, so the page, can be 390 pixels wide.
        os.makedirs(os.path.join(home, ".config", "gtk-3.0"))
        with open(os.path.join(home, ".config", "gtk-3.0", "gtk.css"), "w", encoding="utf-8") as file:
            file.write("* { min-width: 0; padding: 0; margin: 0; }\n")
        self.home, self.downloads = home, os.path.join(home, "downloads")
        os.makedirs(self.downloads)
        with open(os.path.join(home, ".config", "user-dirs.dirs"), "w", encoding="utf-8") as file:
            file.write(f'XDG_DOWNLOAD_DIR="{self.downloads}"\n')
        environment = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"), GDK_SCALE=str(SCALE))
        options = WebKitGTKOptions()
        options.binary_location = os.environ.get("MINIBROWSER", MINIBROWSER)
        options.add_argument("--automation")
        # Started here, not by webdriver.WebKitGTK, which in Debian 12's selenium takes no
        # environment. Its and the browser's messages (GTK, D-Bus) go to the file `log`.
        self.service = Service(os.environ.get("WEBKITWEBDRIVER", "/usr/bin/WebKitWebDriver"), log_path=log,
                               env=environment)
        self.service.start()
        self.device, self.dark = None, False
        try:
            self.driver = webdriver.Remote(command_executor=self.service.service_url, options=options)
        except Exception:
            self.service.stop()
            raise
        self.driver.set_page_load_timeout(30)
        self.driver.set_script_timeout(30)
        # The window's size less the page's is the toolbar's height.
        self.driver.set_window_rect(width=WIDTH, height=HEIGHT)
        self.driver.get("about:blank")
        inner = self.driver.execute_script("return innerHeight")
        self.driver.set_window_rect(width=WIDTH, height=2 * HEIGHT - inner)

    def quit(self):
        super().quit()
        self.service.stop()
        shutil.rmtree(self.home, ignore_errors=True)

    def viewport(self):
        return self.driver.execute_script("return [innerWidth, innerHeight, devicePixelRatio]")


class Check(PageHelpers):
    def __init__(self, browser, server, token, shots):
        self.browser, self.server, self.token, self.shots = browser, server, token, shots
        self.results = []

    def record(self, name, passed, details):
        self.results.append({"name": name, "pass": bool(passed), "details": details})
        return bool(passed)

    def run(self, name, step):
        """One check: step() returns (passed, details); an exception fails it, with its message."""
        try:
            passed, details = step()
        except Exception as error:  # noqa: BLE001 - the report says what went wrong
            passed, details = False, f"{type(error).__name__}: {error}".strip()
            print(traceback.format_exc(), file=sys.stderr)
        return self.record(name, passed, details)

    def script(self, code, *arguments):
        return self.browser.driver.execute_script(code, *arguments)

    # The page.

    def checked(self):
        return self.script("return [...document.querySelectorAll('input[name=motif]:checked')].map((e) => e.value)")

    def tick(self, code):
        if code not in self.checked():
            self.toggle(code)

    def view_open(self):
        return self.script("return document.querySelector('#vue-agent').open")

    def open_view(self):
        self.click(self.browser.find("#agent"))
        self.browser.wait(lambda: self.script("""
            const image = document.querySelector('#agent-qr');
            return document.querySelector('#vue-agent').open && !document.querySelector('#agent-contenu').hidden
              && image.complete && image.naturalWidth > 0;"""), message="the officer view never showed a QR code")
        # Painted, not only decoded.
        self.browser.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));")

    def close_view(self):
        self.click(self.browser.find("#agent-fermer"))
        self.browser.wait(lambda: not self.view_open(), message="« Fermer » did not close the view")

    def screen_code(self, name):
        """The QR code zbarimg reads on a screenshot of the screen, saved as NAME.png."""
        png = self.browser.driver.get_screenshot_as_png()
        path = os.path.join(self.shots, name + ".png")
        with open(path, "wb") as file:
            file.write(png)
        return QRFields(support.qr_payloads(png, png=True)[0]), path

    def layout(self):
        """What would be cut off or small at phone width: the boxes of the view and of its code."""
        return self.script("""
            const box = (s) => { const r = document.querySelector(s).getBoundingClientRect();
              return [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]; };
            const vue = document.querySelector('#vue-agent');
            const out = [...vue.querySelectorAll('*')].filter((e) => {
              const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < 0 || r.right > innerWidth); });
            return {viewport: [innerWidth, innerHeight], view_box: box('#vue-agent'), qr_box: box('#agent-qr'),
              view_scrolls: vue.scrollHeight > vue.clientHeight,
              name_font_px: parseFloat(getComputedStyle(document.querySelector('#agent-nom')).fontSize),
              wider_than_screen: out.map((e) => e.id || e.localName)};""")

    def view_text(self, fields):
        """The name, exit date and time, and reasons' labels of the code in the view's text."""
        text = self.browser.text("#agent-contenu")
        day, _, clock = fields["Sortie"].partition(" a ")
        missing = [w for w in [f"{CAMILLE.first} {CAMILLE.last}", day, clock] + [LABELS[c] for c in fields.reasons]
                   if w not in text]
        return not missing, {"text": text, "missing": missing}

    # Online.

    def online(self):
        browser = self.browser

        def page():
            browser.open_person(self.server, self.token)
            browser.driver.execute_async_script(
                "const done = arguments[arguments.length - 1]; navigator.serviceWorker.ready.then(() => done(true));")
            browser.wait(lambda: self.script("return !!navigator.serviceWorker.controller"), timeout=10,
                         message="the service worker does not control the page")
            browser.wait(lambda: self.script("return document.documentElement.dataset.modele === 'pret'"),
                         message="the offline template was never kept")
            return True, {"viewport": browser.viewport(), "user_agent": self.script("return navigator.userAgent"),
                          "wake_lock": self.script("return 'wakeLock' in navigator")}
        if not self.run("online: the service worker controls the page, the offline template is kept", page):
            return False

        shown = {}

        def view():
            self.tick("sante")
            self.open_view()
            shown["fields"], path = self.screen_code("agent-en-ligne")
            fields = shown["fields"]
            got = {"Prenom": fields["Prenom"], "Nom": fields["Nom"], "reasons": fields.reasons}
            return got == {"Prenom": CAMILLE.first, "Nom": CAMILLE.last, "reasons": REASONS}, \
                dict(got, payload=fields.text, screenshot=path, layout=self.layout())
        if not self.run("online: « Montrer à l’agent » shows the QR code of Camille's attestation", view):
            return False
        self.run("online: the view shows her name, exit date and time, reasons",
                 lambda: self.view_text(shown["fields"]))

        def close():
            self.close_view()
            back = browser.visible("#page-personne") and browser.visible("#agent")
            return back, {"page_shown": back, "focus": self.script("return document.activeElement.id")}
        return self.run("online: « Fermer » closes the view, the page is back", close)

    # Offline.

    def offline(self):
        browser = self.browser

        def stop():
            self.server.check_stopped_cleanly()  # exit status 0, a log without error, token or personal data
            refused = support.connection_refused(self.server.port)
            return refused, {"connection_refused": refused, "server_exit": 0}
        if not self.run("offline: the server stopped cleanly, connections refused", stop):
            return

        def reopen():
            # A new tab, as a person opens the page again (its session storage starts empty: the
            # view makes a new attestation on the phone rather than redraw the one made online).
            online_tab = browser.driver.current_window_handle
            browser.driver.switch_to.new_window("tab")
            new_tab = browser.driver.current_window_handle
            browser.driver.switch_to.window(online_tab)
            browser.driver.close()
            browser.driver.switch_to.window(new_tab)
            browser.open(self.server.url("/", self.token))
            browser.wait(lambda: browser.visible("#hors-ligne"), message="no offline notice")
            case = browser.wait(lambda: self.script("return document.querySelector('#hors-ligne').dataset.cas"),
                                message="the offline notice never said which case")
            return case == "modele", {"offline_case": case}
        if not self.run("offline: the page opens from the service worker, able to make attestations", reopen):
            return

        shown = {}

        def view():
            self.tick("sante")
            ticked = self.checked()
            self.open_view()
            shown["fields"], path = self.screen_code("agent-hors-ligne")
            fields = shown["fields"]
            # The code names a minute: this one, or one of the two before.
            now = datetime.datetime.now(support.PARIS).replace(second=0, microsecond=0)
            minutes_ago = (now - fields.created).total_seconds() / 60
            passed = 0 <= minutes_ago <= 2 and fields.reasons == ticked == REASONS
            return passed, {"Cree le": fields["Cree le"], "minutes_ago": minutes_ago, "reasons": fields.reasons,
                            "ticked": ticked, "payload": fields.text, "screenshot": path, "layout": self.layout()}
        if self.run("offline: « Montrer à l’agent » shows the QR code of an attestation made now", view):
            self.run("offline: the view shows her name, exit date and time, reasons",
                     lambda: self.view_text(shown["fields"]))
        if self.view_open():
            self.close_view()

        def enabled():
            disabled = browser.find("a#qr").get_attribute("aria-disabled")
            return disabled is None, {"aria-disabled": disabled}
        self.run("offline: « QR code » is not greyed out", enabled)

        def qr_button():
            # The page makes the PNG and hands it over as a download; MiniBrowser saves it.
            name, png = self.follow("a#qr")
            path = os.path.join(self.shots, "qr-hors-ligne.png")
            with open(path, "wb") as file:
                file.write(png)
            fields = QRFields(support.qr_payloads(png, png=True)[0])
            passed = png.startswith(b"\x89PNG") and fields["Nom"] == CAMILLE.last and fields.reasons == self.checked()
            return passed, {"file": name, "reasons": fields.reasons, "payload": fields.text, "saved": path}
        self.run("offline: « QR code » gives a scannable PNG of the attestation", qr_button)


def main():
    results = []
    work = tempfile.mkdtemp(prefix="check-webkit-")
    shots, log = os.path.join(work, "screenshots"), os.path.join(work, "webkit.log")
    os.makedirs(shots)
    site = server = browser = None
    try:
        site = support.Site(prefix="check-webkit")
        token = site.mint(CAMILLE, ["travail"])
        server = support.Server(site)
        browser = WebKit(os.path.join(work, "home"), log)
        check = Check(browser, server, token, shots)
        results = check.results
        if check.online():
            check.offline()
    except Exception as error:  # noqa: BLE001 - reported, not raised
        print(traceback.format_exc(), file=sys.stderr)
        results.append({"name": "setup: site, server and WebKitGTK", "pass": False,
                        "details": f"{type(error).__name__}: {error}"})
    finally:
        version = browser.driver.capabilities.get("browserVersion") if browser else None
        if browser:
            browser.quit()
        if server:
            server.remove()
        if site:
            site.remove()
    passed = bool(results) and all(r["pass"] for r in results)
    print(json.dumps({"pass": passed, "browser": f"WebKitGTK {version or '?'} (MiniBrowser)", "screenshots": shots,
                      "browser_log": log, "checks": results}, ensure_ascii=False, indent=2))
    print(f"check-webkit: {'every check passes' if passed else 'FAILED'}; screenshots in {shots}", file=sys.stderr)
    return 0 if passed else 1


if __name__ == "__main__":
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        if not shutil.which("xvfb-run"):
            sys.exit("check-webkit: no DISPLAY and no xvfb-run: scripts/install-deps.sh --webkit installs it")
        screen = f"-screen 0 {WIDTH * SCALE * 2}x{HEIGHT * SCALE * 2}x24"
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", screen, sys.executable, os.path.abspath(__file__),
                               *sys.argv[1:]])
    sys.exit(main())
