"""What the browser tests share: a site made by `attestation-admin init` in a temporary
directory, links minted for fictitious people, the real `attestation-server` on a free port,
headless Chromium (Debian's, through chromedriver) that saves the PDFs it is sent, and the QR
codes read back with pdftoppm and zbarimg.

The binaries come from $ATTESTATION_BIN (default .build/debug); `make test` points it at the
address-sanitizer build. Run with the interpreter of .venv-browser (scripts/browser-env).
"""

import base64
import datetime
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zoneinfo

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.abspath(os.path.join(REPO, os.environ.get("ATTESTATION_BIN", ".build/debug")))
PUBLIC = os.path.abspath(os.environ.get("ATTESTATION_PUBLIC", os.path.join(REPO, "Public")))
PARIS = zoneinfo.ZoneInfo("Europe/Paris")

# The phone the pages are made for.
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


def tool(name):
    path = os.path.join(BIN, name)
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"{path} is missing: build it (swift build) or set ATTESTATION_BIN to the build's bin directory")
    return path


def run(arguments, timeout=60, check=True):
    result = subprocess.run(arguments, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(arguments[:3])} … exited {result.returncode}: {result.stderr.decode(errors='replace')}")
    return result


def sanitizer_environment():
    """The server's environment: LeakSanitizer's suppressions of `make test` when none are set."""
    environment = dict(os.environ)
    suppressions = os.path.join(REPO, "scripts", "lsan-suppressions.txt")
    environment.setdefault("LSAN_OPTIONS", f"suppressions={suppressions}:print_suppressions=0")
    return environment


# MARK: - People and links

class Person:
    def __init__(self, first, last, birth_date, birth_place, address, zip_code, city):
        self.first, self.last = first, last
        self.birth_date, self.birth_place = birth_date, birth_place
        self.address, self.zip, self.city = address, zip_code, city

    @property
    def options(self):
        return ["--first-name", self.first, "--last-name", self.last, "--birth-date", self.birth_date,
                "--birth-place", self.birth_place, "--address", self.address, "--zip", self.zip, "--city", self.city]

    @property
    def secrets(self):
        return [self.first, self.last, self.birth_date, self.birth_place, self.address]


# Fictitious people.
CAMILLE = Person("Camille", "Dupont", "01/01/1970", "Lyon", "999 avenue de France", "75001", "Paris")
ELOISE = Person("Éloïse", "Quimperlé", "29/02/1988", "Besançon", "12 rue des Lilas Bleus", "25000", "Besançon")
MAXIME = Person("Maximilien", "Oberkampf", "17/03/1961", "Colmar", "3 impasse du Moulin Rouge", "68000", "Colmar")
YASMINE = Person("Yasmine", "Belkacemi", "05/11/1993", "Roubaix", "48 boulevard Vauban Nord", "59100", "Roubaix")


class Site:
    """A configuration made by `attestation-admin init` in a temporary directory, serving the
    project's Public/ directory, and the links minted from it."""

    def __init__(self, prefix="browser-tests"):
        self.directory = tempfile.mkdtemp(prefix=prefix + "-")
        self.config = os.path.join(self.directory, "config.json")
        self.secrets = []
        run([tool("attestation-admin"), "init", "--config", self.config, "--base-url", "http://127.0.0.1:8080"])
        with open(self.config, encoding="utf-8") as file:
            config = json.load(file)
        config["server"] = {"publicDirectory": PUBLIC, "logLevel": "info", "shutdownTimeout": 5}
        with open(self.config, "w", encoding="utf-8") as file:
            json.dump(config, file, indent=2)

    def mint(self, person, reasons=("travail",), extra=()):
        """Mints a link and returns its token."""
        arguments = [tool("attestation-admin"), "mint", "--config", self.config, "--format", "json"] + person.options
        for reason in reasons:
            arguments += ["--reason", reason]
        result = run(arguments + list(extra))
        link = json.loads(result.stdout)
        if isinstance(link, list):
            link = link[0]
        token = token_of(link["url"])
        self.secrets += person.secrets + [token]
        return token

    def revoke(self, token):
        run([tool("attestation-admin"), "revoke", "--config", self.config, token])

    def remove(self):
        shutil.rmtree(self.directory, ignore_errors=True)


def token_of(url):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["t"][0]


def altered(token):
    """The token with one character changed in the middle (the signature no longer holds)."""
    index = len(token) // 2
    return token[:index] + ("B" if token[index] == "A" else "A") + token[index + 1:]


# MARK: - The server

class Server:
    """The built attestation-server on a port the system chose (`--port 0`): the port is read
    from its line `attestation-server : à l’écoute sur http://HOST:PORT/` on standard output."""

    PREFIX = "attestation-server : à l’écoute sur "

    def __init__(self, site, timeout=30):
        self.site = site
        self.outputs = tempfile.mkdtemp(prefix="browser-server-")
        self.stdout_path = os.path.join(self.outputs, "stdout.log")
        self.stderr_path = os.path.join(self.outputs, "stderr.log")
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen([tool("attestation-server"), "--config", site.config, "--port", "0"],
                                            stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                            env=sanitizer_environment())
        deadline = time.monotonic() + timeout
        url = None
        while url is None:
            with open(self.stdout_path, encoding="utf-8", errors="replace") as file:
                for line in file.read().splitlines():
                    if line.startswith(self.PREFIX):
                        url = line[len(self.PREFIX):].rstrip("/")
            if url is None:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.process.kill()
                    self.process.wait()
                    raise RuntimeError(f"attestation-server did not start (status {self.process.returncode}): {self.log()}")
                time.sleep(0.02)
        self.base = url
        self.port = int(url.rsplit(":", 1)[1])
        self.wait_healthy(deadline)

    def wait_healthy(self, deadline):
        while True:
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=5) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.base}/healthz never answered 200: {self.log()}")
            time.sleep(0.05)

    def url(self, path="/", token=None, **query):
        parameters = ([("t", token)] if token else []) + list(query.items())
        return self.base + path + ("?" + urllib.parse.urlencode(parameters, safe=",") if parameters else "")

    def log(self):
        with open(self.stderr_path, encoding="utf-8", errors="replace") as file:
            return file.read()

    @property
    def running(self):
        return self.process.poll() is None

    def stop(self, timeout=20):
        """SIGTERM, and the exit status (None when it had to be killed)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                return None
        return self.process.returncode

    def check_stopped_cleanly(self):
        """Stops the server (when still running): it must have exited 0, with no sanitizer
        report and nothing personal in its log."""
        status = self.stop()
        log = self.log()
        problems = []
        if status != 0:
            problems.append(f"the server did not stop cleanly (status {status}): {log[-3000:]}")
        if "Sanitizer" in log:
            problems.append(f"sanitizer report in the server's log: {log[-6000:]}")
        for secret in set(self.site.secrets):
            if len(secret) >= 4 and secret in log:
                problems.append(f"the server's log holds « {secret[:12]}… »")
        for marker in ("?t=", "&t=", "offset=", "reasons="):
            if marker in log:
                problems.append(f"the server's log holds a query string ({marker})")
        if problems:
            raise AssertionError("\n".join(problems))

    def remove(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.outputs, ignore_errors=True)


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


def fetch(url, timeout=30):
    """(status, content type, body) of a GET, errors included."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


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
    """The QR codes of a PDF (pages rasterized by pdftoppm at 150 dpi) or of a PNG, as zbarimg
    reads them, one per page or image."""
    with tempfile.TemporaryDirectory(prefix="browser-qr-") as directory:
        path = os.path.join(directory, "document." + ("png" if png else "pdf"))
        with open(path, "wb") as file:
            file.write(data)
        images = [path]
        if not png:
            arguments = ["pdftoppm", "-r", "150", "-png"]
            if pages:
                arguments += ["-f", str(pages[0]), "-l", str(pages[1])]
            run(arguments + [path, os.path.join(directory, "page")])
            images = sorted(os.path.join(directory, n) for n in os.listdir(directory) if n.startswith("page"))
        payloads = []
        for image in images:
            result = run(["zbarimg", "--raw", "-q", "-Sbinary", image], check=False)
            if result.returncode != 0:
                raise AssertionError(f"zbarimg found no QR code in {os.path.basename(image)}")
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
