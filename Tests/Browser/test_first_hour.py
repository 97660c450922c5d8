"""The administrator's first hour (issue 14): "Links, step by step" of docs/administration.md
followed literally in a new empty folder outside the checkout (its commands, as written, through bash,
with the built programs first on PATH), then the personal page of a person of the HTML sheet in
headless Chromium at phone size, and the sheet's direct PDF link.

One change to the commands: port 8080 becomes a free port, so the test does not depend on what
else listens here. Self-contained on purpose (selenium, pdftoppm, zbarimg, pdftotext): nothing
of support.py is used; the test harness (scripts/harness) only finds the binaries
($ATTESTATION_BIN, else the latest build, as for the other browser tests), the free port, and
the server's readiness line among the commands' output.
"""

import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "scripts", "harness"))

import attestation_harness as harness  # noqa: E402

BIN = harness.bin_dir()
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


def readme_steps():
    """The first sh block of "Links, step by step" in docs/administration.md."""
    with open(os.path.join(REPO, "docs", "administration.md"), encoding="utf-8") as file:
        section = file.read().split("\n## Links, step by step\n", 1)[1]
    return section.split("```sh\n", 1)[1].split("\n```", 1)[0]


def environment():
    """The built programs first on PATH; LeakSanitizer's suppressions of `make test` for the
    address-sanitizer build; no NO_COLOR (the terminal code in colours, as a person sees it)."""
    env = dict(os.environ)
    env["PATH"] = BIN + os.pathsep + env.get("PATH", "/usr/bin:/bin")
    env.setdefault("LSAN_OPTIONS", "suppressions=" + os.path.join(REPO, "scripts", "lsan-suppressions.txt") + ":print_suppressions=0")
    env.pop("NO_COLOR", None)
    return env


def run(arguments, **options):
    return subprocess.run(arguments, stdin=subprocess.DEVNULL, capture_output=True, timeout=120, **options)


def svg_payload(svg, directory):
    """The QR code of the sheet's SVG (one path of `M x y h w v h h-w z` rectangles in module
    units on a white square) drawn to a PGM that zbarimg reads."""
    side = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    scale = 6
    width = side * scale
    pixels = bytearray([255]) * (width * width)
    for x, y, w, h in re.findall(r"M(\d+) (\d+)h(\d+)v(\d+)h-\d+z", svg):
        x, y, w, h = int(x), int(y), int(w), int(h)
        for row in range(y * scale, (y + h) * scale):
            pixels[row * width + x * scale:row * width + (x + w) * scale] = bytes(w * scale)
    path = os.path.join(directory, f"code-{time.monotonic_ns()}.pgm")
    with open(path, "wb") as file:
        file.write(b"P5\n%d %d\n255\n" % (width, width) + bytes(pixels))
    result = run(["zbarimg", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", "-Sbinary", path])
    return result.stdout.decode("utf-8").strip() if result.returncode == 0 else None


def pdf_qr(data, directory):
    """The payload of the large QR code on page 2 of an attestation PDF."""
    path = os.path.join(directory, f"attestation-{time.monotonic_ns()}.pdf")
    with open(path, "wb") as file:
        file.write(data)
    prefix = path[:-4] + "-page"
    result = run(["pdftoppm", "-r", "150", "-gray", "-f", "2", "-l", "2", path, prefix])
    if result.returncode != 0:
        raise AssertionError(f"pdftoppm: {result.stderr.decode(errors='replace')}")
    image = next(os.path.join(directory, n) for n in os.listdir(directory) if n.startswith(os.path.basename(prefix)))
    decoded = run(["zbarimg", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", "-Sbinary", image])
    if decoded.returncode != 0:
        raise AssertionError("zbarimg found no QR code on page 2")
    return decoded.stdout.decode("utf-8")


class FirstHourTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for program in ("attestation-admin", "attestation-server"):
            if not os.access(os.path.join(BIN, program), os.X_OK):
                raise RuntimeError(f"{BIN}/{program} is missing: build it or set ATTESTATION_BIN")
        cls.port = harness.free_port()
        steps = readme_steps().replace("8080", str(cls.port))
        lines = steps.splitlines()
        if not lines[-1].startswith("attestation-server"):
            raise AssertionError(f"the steps of docs/administration.md no longer end by starting the server: {lines[-1]}")
        # A new empty folder outside the checkout, as an administrator would start.
        cls.home = tempfile.mkdtemp(prefix="premiere-heure-")
        cls.folder = os.path.join(cls.home, "attestations")
        cls.output_path = os.path.join(cls.home, "sortie.txt")
        cls.errors_path = os.path.join(cls.home, "erreurs.txt")
        with open(cls.output_path, "wb") as out, open(cls.errors_path, "wb") as err:
            # The commands as written, the last one (the server) in the foreground.
            cls.shell = subprocess.Popen(["bash", "-e", "-c", steps], cwd=cls.home, env=environment(),
                                         stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True)
        try:
            cls.ready = harness.wait_ready(cls.output_path, alive=lambda: cls.shell.poll() is None,
                                           log_path=cls.errors_path, timeout=120)
        except harness.HarnessError as problem:
            cls.stop()
            raise AssertionError(f"the steps of docs/administration.md did not end with a listening server (status "
                                 f"{cls.shell.returncode}): {problem}\n{cls.output()[-3000:]}") from None
        cls.base = f"http://127.0.0.1:{cls.port}"
        cls.downloads = tempfile.mkdtemp(prefix="premiere-heure-telechargements-")
        cls.browser = None

    @classmethod
    def tearDownClass(cls):
        status = cls.stop()
        if cls.browser:
            try:
                cls.browser.quit()
            except WebDriverException:
                pass
        shutil.rmtree(cls.downloads, ignore_errors=True)
        try:
            if status != 0:
                raise AssertionError(f"the server did not stop cleanly (status {status}): {cls.errors()[-3000:]}")
            if "Sanitizer" in cls.errors():
                raise AssertionError(f"sanitizer report: {cls.errors()[-6000:]}")
        finally:
            shutil.rmtree(cls.home, ignore_errors=True)

    @classmethod
    def stop(cls):
        """SIGTERM to the shell's group (bash and the server it runs); the server's status."""
        if cls.shell.poll() is None:
            os.killpg(cls.shell.pid, signal.SIGTERM)
            try:
                cls.shell.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(cls.shell.pid, signal.SIGKILL)
                cls.shell.wait()
        # bash -e reports the last command's status: the server's, or 128 + its signal.
        return 0 if cls.shell.returncode in (0, 128 + signal.SIGTERM, -signal.SIGTERM) else cls.shell.returncode

    @classmethod
    def output(cls):
        with open(cls.output_path, encoding="utf-8", errors="replace") as file:
            return file.read()

    @classmethod
    def errors(cls):
        with open(cls.errors_path, encoding="utf-8", errors="replace") as file:
            return file.read()

    def sheet(self):
        """{name: (page URL the QR code holds, PDF link)} of liens.html."""
        with open(os.path.join(self.folder, "liens.html"), encoding="utf-8") as file:
            html = file.read()
        people = {}
        for item in re.findall(r"<li>(.*?)</li>", html, re.S):
            name = re.search(r"<h2>(.*?)</h2>", item).group(1)
            page = svg_payload(re.search(r"<svg.*?</svg>", item, re.S).group(0), self.home)
            pdf = re.search(r'<a href="([^"]+)"', item).group(1).replace("&amp;", "&")
            people[name] = (page, pdf)
        return people

    def open_browser(self):
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                         "--disable-background-networking", "--disable-extensions", "--lang=fr-FR",
                         f"--window-size={PHONE['width']},{PHONE['height']}"):
            options.add_argument(argument)
        options.add_experimental_option("prefs", {"download.default_directory": self.downloads,
                                                  "download.prompt_for_download": False,
                                                  "plugins.always_open_pdf_externally": True})
        driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
        type(self).browser = driver
        driver.set_page_load_timeout(30)
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": self.downloads})
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", dict(PHONE))
        return driver

    def wait(self, driver, condition, message, timeout=20):
        try:
            return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda _: condition())
        except TimeoutException:
            raise AssertionError(f"{message} (waited {timeout} s)") from None

    def test_the_server_listens_where_init_said(self):
        self.assertEqual(self.ready["url"], f"{self.base}/")
        self.assertIn(f"Le serveur écoutera sur {self.base}/", self.output())
        for name in ("config.json", "keys/k1.key", "revoked.txt", "links.jsonl", "liens.html", "personnes.csv"):
            self.assertTrue(os.path.exists(os.path.join(self.folder, name)), f"{name} is not in the folder")
        self.assertIn("2 liens écrits dans liens.html, 0 refusé", self.output())

    def test_the_terminal_code_leads_to_camilles_page(self):
        page = next((line for line in self.output().splitlines() if line.startswith(f"{self.base}/?t=")), None)
        self.assertIsNotNone(page, f"no page address under the terminal code: {self.output()[:2000]}")
        token = urllib.parse.parse_qs(urllib.parse.urlsplit(page).query)["t"][0]
        with urllib.request.urlopen(f"{self.base}/api/v1/link?t={token}", timeout=30) as response:
            self.assertEqual(json.load(response)["firstName"], "Camille")

    def test_a_person_of_the_sheet_gets_her_page_and_her_pdf(self):
        people = self.sheet()
        self.assertEqual(sorted(people), ["Hélène Leroy", "Zoé Durand"])
        page, pdf_link = people["Hélène Leroy"]
        self.assertTrue(page and page.startswith(f"{self.base}/?t="), page)
        self.assertTrue(pdf_link.startswith(f"{self.base}/attestation.pdf?t="), pdf_link)
        self.assertEqual(urllib.parse.urlsplit(page).query, urllib.parse.urlsplit(pdf_link).query, "one link, two doors")

        # The direct link, as a bookmark or a Shortcut opens it.
        with urllib.request.urlopen(pdf_link, timeout=30) as response:
            self.assertEqual(response.headers.get("Content-Type"), "application/pdf")
            self.assertIn("Nom: Leroy;\nPrenom: Helene;\n", pdf_qr(response.read(), self.home))

        # The page, as her phone opens it from the QR code: her name, then the PDF in one tap.
        driver = self.open_browser()
        driver.get(page)
        self.wait(driver, lambda: driver.execute_script(
            "const e = document.querySelector('#prenom'); return e && e.textContent.trim();") == "Hélène",
                  "the personal page never showed « Hélène »")
        self.assertEqual(driver.execute_script("return [innerWidth, matchMedia('(pointer: coarse)').matches || true]")[0], 390)
        checked = driver.execute_script(
            "return [...document.querySelectorAll('fieldset#motifs input[name=motif]:checked')].map(e => e.value)")
        self.assertEqual(set(checked), {"travail", "sante"}, "the reasons of her CSV row")
        button = driver.find_element(By.CSS_SELECTOR, "a#generer")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        data = self.wait(driver, self.downloaded, "no PDF downloaded", timeout=30)
        payload = pdf_qr(data, self.home)
        # The version in force today, the last (9 June 2021), has no place of birth.
        self.assertIn("Nom: Leroy;\nPrenom: Helene;\nNaissance: 01/02/1950;\n", payload)
        self.assertIn("Adresse: 1 rue de la Paix 01000 Bourg-en-Bresse;\n", payload)
        self.assertTrue(payload.endswith("Motifs: travail, sante;\n"), payload)

    def downloaded(self):
        names = [n for n in os.listdir(self.downloads) if n.endswith(".pdf")]
        if not names or any(n.endswith(".crdownload") for n in os.listdir(self.downloads)):
            return None
        with open(os.path.join(self.downloads, names[0]), "rb") as file:
            data = file.read()
        return data if data.startswith(b"%PDF-") and b"%%EOF" in data[-64:] else None


if __name__ == "__main__":
    unittest.main()
