"""What the browser tests share: the test harness (scripts/harness: a site made by
`attestation-admin init` in a temporary directory, links minted for fictitious people, the real
`attestation-server` on a port the system chose), headless Chromium (Debian's, through
chromedriver) that saves the PDFs it is sent, and the QR codes read back with pdftoppm and
zbarimg.

The binaries come from $ATTESTATION_BIN (default: the latest of .build/debug and
.build/release); `make test` points it at the address-sanitizer build. The pages are the site
built into the server, or the directory $ATTESTATION_PUBLIC names. Run with the interpreter of
.venv-browser (scripts/browser-env.py).
"""

import base64
import datetime
import glob
import json
import os
import shutil
import socket
import sys
import tempfile
import time
import urllib.parse
import zoneinfo

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "scripts", "harness"))

import attestation_harness as harness  # noqa: E402

# What the tests take from here, from the harness.
CAMILLE, ELOISE, MAXIME, YASMINE = harness.CAMILLE, harness.ELOISE, harness.MAXIME, harness.YASMINE
fetch, run, token_of = harness.fetch, harness.run, harness.token_of

PARIS = zoneinfo.ZoneInfo("Europe/Paris")

# The phone the pages are made for.
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


# MARK: - The site and the server

class Site(harness.Site):
    """The harness's site; `mint` gives the link's token, which is what the tests use."""

    def __init__(self, prefix="browser-tests"):
        super().__init__(prefix=prefix, server={"logLevel": "info"})

    def mint(self, person, reasons=("travail",), extra=()):
        return super().mint(person, reasons, extra).token


def altered(token):
    """The token with one character changed in the middle (the signature no longer holds)."""
    index = len(token) // 2
    return token[:index] + ("B" if token[index] == "A" else "A") + token[index + 1:]


def faketime_environment(at):
    """The environment of a program whose clock starts at `at` (an aware datetime) and runs on
    from there: Debian's libfaketime (package faketime) preloaded, the offset from the real
    clock in seconds (so no time zone is parsed), the monotonic clock left alone (timeouts). The
    library itself, not the `faketime` command: that one forks and waits, so a SIGTERM would
    stop it and orphan the server. An address-sanitizer build refuses a preloaded library unless
    told not to check the link order."""
    libraries = glob.glob("/usr/lib/*/faketime/libfaketimeMT.so.1")
    if not libraries:
        raise RuntimeError("libfaketime introuvable : lancez scripts/install-deps.sh --browser (paquet faketime)")
    environment = harness.sanitizer_environment()
    asan = environment.get("ASAN_OPTIONS")
    environment["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "verify_asan_link_order=0"
    environment["LD_PRELOAD"] = libraries[0]
    environment["FAKETIME"] = "%+ds" % round(at.timestamp() - time.time())
    environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
    return environment


class Server(harness.Server):
    """The harness's server for a site, once it answers /healthz. `at` (an aware datetime) runs
    it with a clock that starts then (faketime_environment), for the forms of 2020–2021 and
    their changes; `port` gives it a port of the test's choice, so that a server started again
    at another date serves the same origin (the page's storage, its service worker)."""

    def __init__(self, site, timeout=30, at=None, port=None):
        self.site = site
        arguments = ("--port", str(port)) if port else ()
        # Through env(1): started straight from Python's subprocess with libfaketime preloaded,
        # the server saw none of its arguments (it looked for ./config.json), every time; exec'd
        # by env, or by sh, it sees them all.
        wrap = ("/usr/bin/env",) if at else ()
        # Under the address sanitizer's runtime libfaketime recurses in clock_gettime and the
        # server never starts (seen: no readiness line in 30 s): a server with a fake clock is
        # the plain build that $ATTESTATION_FAKETIME_BIN names (make test builds it first).
        directory = os.environ.get("ATTESTATION_FAKETIME_BIN") if at else None
        harness.Server.__init__(self, harness.server_command(site.config, *arguments, directory=directory, wrap=wrap),
                                timeout=timeout,
                                env=faketime_environment(at) if at else None)
        deadline = time.monotonic() + timeout
        while fetch(self.base + "/healthz", timeout=5)[0] != 200:
            if time.monotonic() > deadline:
                log = self.log()
                self.remove()
                raise RuntimeError(f"{self.base}/healthz never answered 200: {log}")
            time.sleep(0.05)

    def log(self):
        return self.log_text()

    def check_stopped_cleanly(self):
        """Stops the server (when still running): it must have exited 0, with a log of JSON
        records only (no sanitizer report), none above warning, nothing personal, no query."""
        status = self.stop()
        problems = []
        if status != 0:
            problems.append(f"the server did not stop cleanly (status {status}): {self.log()[-3000:]}")
        problems += self.log_problems(secrets=self.site.secrets)
        if problems:
            raise AssertionError("\n".join(problems))


def shut_down(site, server):
    """A test module's end: its server must have exited cleanly; its files go either way."""
    try:
        if server:
            server.check_stopped_cleanly()
    finally:
        if server:
            server.remove()
        if site:
            site.remove()


def free_port():
    return harness.free_port()


def connection_refused(port):
    with socket.socket() as sock:
        sock.settimeout(2)
        return sock.connect_ex(("127.0.0.1", port)) != 0


# MARK: - The browser

class Browser:
    """Headless Chromium at phone size, saving every document it is sent to download (PDFs
    included: Chromium's own viewer is turned off) into its own directory."""

    def __init__(self, dark=False, device=PHONE):
        self.downloads = tempfile.mkdtemp(prefix="browser-downloads-")
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
                         "--disable-component-update", "--disable-sync", "--disable-default-apps",
                         "--disable-extensions", "--lang=fr-FR", "--hide-scrollbars",
                         f"--window-size={device['width']},{device['height']}"):
            options.add_argument(argument)
        options.add_experimental_option("prefs", {
            "download.default_directory": self.downloads,
            "download.prompt_for_download": False,
            "download.directory_upgrade": True,
            "plugins.always_open_pdf_externally": True,
            "intl.accept_languages": "fr-FR,fr",
        })
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
        service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_page_load_timeout(30)
        self.driver.set_script_timeout(30)
        self.device = device
        self.dark = dark
        self.prepare_tab()

    def prepare_tab(self):
        """Downloads, the phone's metrics and the colour scheme, for the current tab."""
        self.cdp("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": self.downloads})
        self.cdp("Emulation.setDeviceMetricsOverride", dict(self.device))
        self.set_dark(self.dark)

    def set_dark(self, dark):
        self.dark = dark
        self.cdp("Emulation.setEmulatedMedia", {
            "media": "", "features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})

    def cdp(self, command, parameters=None):
        return self.driver.execute_cdp_cmd(command, parameters or {})

    def shift_clock(self, milliseconds):
        """The phone's clock, for every page opened from now on in this tab, `milliseconds`
        ahead of the machine's (time has passed on the phone; the service worker keeps the real
        clock)."""
        self.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": """
            (() => {
              const Vraie = Date, avance = %d;
              class Avancee extends Vraie {
                constructor(...valeurs) { if (valeurs.length === 0) super(Vraie.now() + avance); else super(...valeurs); }
                static now() { return Vraie.now() + avance; }
              }
              globalThis.Date = Avancee;
            })();""" % int(milliseconds)})

    def screenshot(self, name):
        """The screen as PNG bytes; also saved as NAME.png in $BROWSER_SCREENSHOTS when set, for
        a person to look at."""
        data = self.driver.get_screenshot_as_png()
        directory = os.environ.get("BROWSER_SCREENSHOTS")
        if directory:
            os.makedirs(directory, exist_ok=True)
            with open(os.path.join(directory, name + ".png"), "wb") as file:
                file.write(data)
        return data

    def quit(self):
        try:
            self.driver.quit()
        except WebDriverException:
            pass
        shutil.rmtree(self.downloads, ignore_errors=True)

    # Waiting and reading.

    def wait(self, condition, timeout=15, message=""):
        """The first truthy value of condition() within timeout seconds; a test failure otherwise."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda _: condition())
        except TimeoutException:
            raise AssertionError(f"{message or 'condition not met'} (waited {timeout} s)") from None

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def exists(self, css):
        return len(self.find_all(css)) > 0

    def visible(self, css):
        """Present, not hidden, and rendered (display, visibility, size)."""
        return self.driver.execute_script("""
            const e = document.querySelector(arguments[0]);
            if (!e || e.closest('[hidden]')) return false;
            const style = getComputedStyle(e);
            if (style.display === 'none' || style.visibility === 'hidden') return false;
            const box = e.getBoundingClientRect();
            return box.width > 0 && box.height > 0;""", css)

    def text(self, css):
        return self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent.trim().replace(/\\s+/g, ' ') : null;", css)

    def open(self, url):
        self.driver.get(url)

    def open_person(self, server, token):
        """The personal page, once the person's name is shown."""
        self.open(server.url("/", token))
        self.wait(lambda: self.visible("#page-personne") and (self.text("#prenom") or ""),
                  message="the personal page never showed a name")

    def wait_for_service_worker(self, message="the service worker does not control the page"):
        """Once the service worker controls the page: before that, a PDF bypasses it and is not
        kept as the last attestation (a loaded CI machine clicked Générer first, issue 39)."""
        self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; navigator.serviceWorker.ready.then(() => done(true));")
        self.wait(lambda: self.driver.execute_script("return !!navigator.serviceWorker.controller"), timeout=30,
                  message=message)

    # Downloads.

    def clear_downloads(self):
        for name in os.listdir(self.downloads):
            os.remove(os.path.join(self.downloads, name))

    def wait_download(self, timeout=20):
        """The bytes of the one file downloaded since clear_downloads, once complete."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            names = [n for n in os.listdir(self.downloads) if not n.endswith(".crdownload") and not n.startswith(".")]
            partial = [n for n in os.listdir(self.downloads) if n.endswith(".crdownload")]
            if names and not partial:
                path = os.path.join(self.downloads, sorted(names)[-1])
                size = os.path.getsize(path)
                if size > 0 and size == last:
                    with open(path, "rb") as file:
                        return sorted(names)[-1], file.read()
                last = size
            time.sleep(0.1)
        raise AssertionError(f"no download within {timeout} s (directory: {os.listdir(self.downloads)})")

    def fetch_bytes(self, url):
        """GET through the page itself (its origin, its service worker): (status, type, bytes)."""
        result = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch(arguments[0], {cache: 'no-store'}).then(async response => {
              const bytes = new Uint8Array(await response.arrayBuffer());
              let binary = '';
              for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
              done([response.status, response.headers.get('Content-Type') || '', btoa(binary)]);
            }, error => done([0, String(error), '']));""", url)
        return result[0], result[1], base64.b64decode(result[2])

    # What the page asked for.

    def requested_urls(self):
        """Every URL the browser requested since the last call (CDP Network events), and the
        page's own resource timing entries."""
        urls = set()
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                urls.add(message["params"]["request"]["url"])
        try:
            urls.update(self.driver.execute_script(
                "return performance.getEntriesByType('resource').map(e => e.name).concat([location.href]);"))
        except WebDriverException:
            pass
        return urls


# MARK: - Documents

def pdf_text(data):
    with tempfile.TemporaryDirectory(prefix="browser-pdf-") as directory:
        path = os.path.join(directory, "document.pdf")
        with open(path, "wb") as file:
            file.write(data)
        return run(["pdftotext", "-layout", path, "-"]).stdout.decode("utf-8", errors="replace")


def qr_payloads(data, png=False, pages=None):
    """The QR codes of a PDF (pages rasterized by pdftoppm at 150 dpi, a page whose code is not
    read at 300 dpi again) or of a PNG, as zbarimg reads them, one per page or image. The small
    code of the forms of March 2021 (82 pt, about 3 pixels a module at 150 dpi) was missed by
    zbarimg once in a CI run; at 300 dpi it has 6."""
    def decode(image):
        return run(["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", "-Sbinary", image], check=False)

    with tempfile.TemporaryDirectory(prefix="browser-qr-") as directory:
        path = os.path.join(directory, "document." + ("png" if png else "pdf"))
        with open(path, "wb") as file:
            file.write(data)
        if png:
            result = decode(path)
            if result.returncode != 0:
                raise AssertionError("zbarimg found no QR code in the PNG")
            return [result.stdout.decode("utf-8")]
        first, last = pages or (1, int(run(["pdfinfo", path]).stdout.decode().split("Pages:")[1].split()[0]))
        payloads = []
        for page in range(first, last + 1):
            for resolution in ("150", "300"):
                stem = os.path.join(directory, f"page-{page}-{resolution}")
                # Grey PGM: pdftoppm spends nine tenths of its time compressing a PNG.
                run(["pdftoppm", "-r", resolution, "-gray", "-singlefile", "-f", str(page), "-l", str(page), path, stem])
                result = decode(stem + ".pgm")
                if result.returncode == 0:
                    break
            else:
                raise AssertionError(f"zbarimg found no QR code on page {page}, at 150 or 300 dpi")
            payloads.append(result.stdout.decode("utf-8"))
        return payloads


class QRFields:
    """The fields of a QR payload (`Cree le: 28/11/2020 a 08h15;\\nNom: …;\\n…`), by label."""

    def __init__(self, text):
        self.text = text
        self.fields = {}
        for line in text.split(";\n"):
            if line:
                label, _, value = line.partition(": ")
                self.fields[label] = value

    def __getitem__(self, label):
        return self.fields[label]

    @property
    def reasons(self):
        return self.fields.get("Motifs", "").split(", ")

    @property
    def created(self):
        return self.instant(self.fields["Cree le"], "h")

    @property
    def exit(self):
        return self.instant(self.fields["Sortie"], ":")

    @staticmethod
    def instant(text, separator):
        day, _, clock = text.partition(" a ")
        d, m, y = (int(x) for x in day.split("/"))
        hour, minute = (int(x) for x in clock.split(separator))
        return datetime.datetime(y, m, d, hour, minute, tzinfo=PARIS)


def pdf_qr(data):
    """The QR fields of an attestation PDF (its large code, page 2)."""
    return QRFields(qr_payloads(data, pages=(2, 2))[0])


# MARK: - The personal page, as a person uses it

class PageHelpers:
    """For test cases with `browser` and `server` attributes."""

    def use_shared_server(self, server):
        """This test's browser, a new profile (the page remembers each person's choices on the
        device: nothing leaks from one test into the next), on the module's server."""
        self.server = server
        self.browser = Browser()
        self.addCleanup(self.browser.quit)
        self.addCleanup(self.assert_same_origin)

    def use_own_server(self, prefix, extra=()):
        """A site with Camille's link (`extra`: more options of `mint`), its server and a browser
        for this test alone: for tests that go offline or stop the server."""
        self.site = Site(prefix=prefix)
        self.addCleanup(self.site.remove)
        self.token = self.site.mint(CAMILLE, ["travail"], extra)
        self.server = Server(self.site)
        self.addCleanup(self.server.remove)
        self.browser = Browser()
        self.addCleanup(self.browser.quit)

    def reason_states(self):
        """{code: (checked, disabled)} of the reason checkboxes."""
        return {code: (checked, disabled) for code, checked, disabled in self.browser.driver.execute_script("""
            return [...document.querySelectorAll('fieldset#motifs input[type=checkbox][name=motif]')]
              .map(e => [e.value, e.checked, e.disabled]);""")}

    def checked_reasons(self):
        return {code for code, (checked, _) in self.reason_states().items() if checked}

    def click(self, element):
        """A click as a finger would give it: on the element, or on its label when the box
        itself is drawn by CSS and not clickable."""
        from selenium.common.exceptions import ElementClickInterceptedException, ElementNotInteractableException
        self.browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        try:
            element.click()
        except (ElementClickInterceptedException, ElementNotInteractableException):
            label = self.browser.driver.execute_script(
                "const e = arguments[0]; return e.closest('label') || (e.id && document.querySelector(`label[for='${e.id}']`));",
                element)
            if label is None:
                raise
            label.click()

    def reason_box(self, code):
        return self.browser.find(f"fieldset#motifs input[type=checkbox][name=motif][value='{code}']")

    def toggle(self, code):
        self.click(self.reason_box(code))

    def press(self, css, times=1):
        for _ in range(times):
            self.click(self.browser.find(css))

    def follow(self, css, timeout=20):
        """Clicks a link that leads to a document and returns (file name, bytes) of the download.
        A tab it may open is closed again."""
        browser = self.browser
        handles = set(browser.driver.window_handles)
        current = browser.driver.current_window_handle
        browser.clear_downloads()
        self.click(browser.find(css))
        name, data = browser.wait_download(timeout)
        for handle in set(browser.driver.window_handles) - handles:
            browser.driver.switch_to.window(handle)
            browser.driver.close()
        browser.driver.switch_to.window(current)
        return name, data

    def href(self, css):
        return self.browser.driver.execute_script("const e = document.querySelector(arguments[0]); return e && e.href;", css)

    def assert_same_origin(self):
        """No request of the browser went anywhere but the server."""
        origin = self.server.base + "/"
        outside = sorted(u for u in self.browser.requested_urls()
                         if not u.startswith(origin) and not u.startswith(("data:", "blob:", "about:")))
        self.assertEqual(outside, [], "requests outside the server's origin")


def query_of(url):
    return {k: v[0] for k, v in urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).items()}


def reasons_parameter(url):
    value = query_of(url).get("reasons")
    return None if value is None else set(value.split(","))
