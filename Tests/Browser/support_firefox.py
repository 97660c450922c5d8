"""Debian's Firefox ESR (package firefox-esr, installed by scripts/install-deps.sh --browser)
driven through Marionette, its own remote protocol, for the browser tests that must see what
Firefox does (issue 29: it reloads the page on Back where Chromium and WebKit restore it).
Debian packages no geckodriver, the WebDriver server Selenium needs for Firefox; Marionette is
what geckodriver itself speaks to Firefox, and its few commands used here fit in this file.

The protocol (Firefox's remote/marionette documentation): a TCP connection to the port of the
`marionette.port` preference; each message is its JSON's length in bytes, a colon, then the
JSON. Firefox first sends {"applicationType": "gecko", "marionetteProtocol": 3}; a command is
[0, id, name, parameters], its answer [1, id, error, result]. Names and parameters are those of
WebDriver (WebDriver:NewSession, WebDriver:Navigate, WebDriver:ExecuteScript…).

Python's standard library only; Firefox headless, in a profile of its own, removed on quit."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

import support  # noqa: F401  (puts the harness on the path)
import attestation_harness as harness  # noqa: E402

FIREFOX = os.environ.get("FIREFOX", "/usr/bin/firefox-esr")


class MarionetteError(Exception):
    pass


class Firefox:
    """One headless Firefox ESR at phone width, with a Marionette session."""

    def __init__(self, width=390, height=844, timeout=60):
        if not os.access(FIREFOX, os.X_OK):
            raise AssertionError(f"{FIREFOX} is missing: run scripts/install-deps.sh --browser (package firefox-esr)")
        self.profile = tempfile.mkdtemp(prefix="firefox-profile-")
        self.port = harness.free_port()
        preferences = {
            "marionette.port": self.port,
            "browser.shell.checkDefaultBrowser": False,
            "browser.startup.homepage_override.mstone": "ignore",
            "browser.aboutwelcome.enabled": False,
            "datareporting.policy.dataSubmissionEnabled": False,
            "toolkit.telemetry.reportingpolicy.firstRun": False,
            "app.update.disabledForTesting": True,
            "browser.download.always_ask_before_handling_new_types": False,
            "pdfjs.disabled": False,
            "intl.accept_languages": "fr-FR, fr",
            "network.captive-portal-service.enabled": False,
            "network.connectivity-service.enabled": False,
            "browser.safebrowsing.update.enabled": False,
            "extensions.update.enabled": False,
        }
        with open(os.path.join(self.profile, "user.js"), "w", encoding="utf-8") as file:
            for name, value in preferences.items():
                file.write(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n")
        environment = dict(os.environ, MOZ_HEADLESS="1", MOZ_HEADLESS_WIDTH=str(width),
                           MOZ_HEADLESS_HEIGHT=str(height))
        self.log = open(os.path.join(self.profile, "firefox.log"), "wb")
        self.process = subprocess.Popen(
            [FIREFOX, "--headless", "--marionette", "--no-remote", "--profile", self.profile, "about:blank"],
            stdout=self.log, stderr=subprocess.STDOUT, env=environment)
        self.sock = None
        self.next_id = 0
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.quit()
                    raise AssertionError(f"Firefox did not open Marionette on port {self.port}")
                time.sleep(0.2)
        self.sock.settimeout(timeout)
        self.buffer = b""
        hello = self._receive()
        if hello.get("marionetteProtocol") != 3:
            raise AssertionError(f"unexpected Marionette greeting: {hello}")
        self.command("WebDriver:NewSession", {"capabilities": {"alwaysMatch": {"pageLoadStrategy": "normal"}}})

    # The protocol.

    def _receive(self):
        while b":" not in self.buffer:
            self._fill()
        length, _, rest = self.buffer.partition(b":")
        self.buffer = rest
        size = int(length)
        while len(self.buffer) < size:
            self._fill()
        message, self.buffer = self.buffer[:size], self.buffer[size:]
        return json.loads(message)

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise MarionetteError("Marionette closed the connection")
        self.buffer += data

    def command(self, name, parameters=None):
        self.next_id += 1
        body = json.dumps([0, self.next_id, name, parameters or {}]).encode()
        self.sock.sendall(str(len(body)).encode() + b":" + body)
        while True:
            message = self._receive()
            if isinstance(message, list) and message[0] == 1 and message[1] == self.next_id:
                _, _, error, result = message
                if error:
                    raise MarionetteError(f"{name}: {error}")
                return result

    # What the tests use.

    def navigate(self, url):
        self.command("WebDriver:Navigate", {"url": url})

    def url(self):
        return self.command("WebDriver:GetCurrentURL")["value"]

    def back(self):
        self.command("WebDriver:Back")

    def refresh(self):
        self.command("WebDriver:Refresh")

    def script(self, source, *arguments):
        """The value the function body `source` returns in the page (`arguments` as its
        arguments); None while a navigation has no document to run it in yet."""
        try:
            return self.command("WebDriver:ExecuteScript", {"script": source, "args": list(arguments)})["value"]
        except MarionetteError as error:
            if "NoSuchWindow" in str(error) or "JavaScript error" in str(error) or "no such" in str(error):
                return None
            raise

    def wait(self, condition, timeout=20, message=""):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = condition()
            except MarionetteError:
                value = None
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"{message or 'condition not met'} (waited {timeout} s)")

    def quit(self):
        try:
            if self.sock is not None:
                try:
                    self.command("Marionette:Quit", {"flags": ["eForceQuit"]})
                except (MarionetteError, OSError):
                    pass
                self.sock.close()
        finally:
            if self.process.poll() is None:
                self.process.terminate()
                try:
                    self.process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            self.log.close()
            shutil.rmtree(self.profile, ignore_errors=True)
