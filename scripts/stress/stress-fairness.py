#!/usr/bin/python3
"""Is a good client still served fairly under attack? (issue 22, items 2 and 3; `make stress`,
`make stress-smoke` at a small scale.)

In a temporary directory (removed on exit): the configuration `attestation-admin init` writes,
server limits left at their defaults (maxConnections 1024, maxConnectionsPerAddress 128,
connectionTimeout 15 s, one worker thread per core; only JSON logs and shutdownTimeout 5 s are
set), one link minted for a fictitious person, and the release server on a free loopback port. A
good client (a process of its own, so that the attacking event loop cannot delay it) makes
sequential requests from 127.0.0.1 throughout, 25 ms apart, /healthz then the person's PDF,
alternately on a new connection and on a kept-alive one (reopened, and the request sent again
once, when the server has closed it in between, as browsers do), each with a 10 s timeout (a
failure). Its latency is measured in each phase:

  baseline     the good client alone;
  idle         (item 2) 11 addresses 127.0.0.2 … 127.0.0.12 holding 100 idle connections each
               (connect, send nothing; under the per-address limit), each reopened as soon as the
               server closes it, for the whole phase; in its middle, one burst of 3,000 more idle
               connections from 127.0.1.1 and up (100 an address), held until the server closes
               them or the phase ends. Target: the good client's p99 < 1 s, no failure;
  flood png    (item 3) `wrk -t2 -c64` on one link's page image (/attestation.png?page=1&dpi=300);
  flood template  the same on its offline template (/api/v1/template). Targets: /healthz's and
               the PDF's p99 ≤ 50 ms each, and the flooded route still served (some 200s; beyond
               the server's bounded queue, 503 with Retry-After).

The targets are asserted at full scale only; at small scale the numbers are printed and only
what is not timing fails: a good request that failed, a flooded route with no 200 at all, a status
other than 200 and 503 (or a 503 without Retry-After, or a 200 whose body is not the image or the
JSON), a connection of wrk's dropped without an answer, the server dying, an error line or a
token or personal datum in its log, a 5xx other than 503 in its metrics. Prints a Markdown report
on standard output (failures in French on standard error, as the other stress scripts); exits 1
naming every failure.

Environment:
  ATTESTATION_BIN          the binaries (default .build/release)
  STRESS_FAIRNESS_SCALE    full (default: a 10 s baseline, a 40 s idle phase with 1,100 idle
                           connections and a burst of 3,000, 20 s floods) or small (the CI smoke,
                           under a minute: 3 s, 8 s with 198 idle and a burst of 500, 6 s floods)
  STRESS_FAIRNESS_JSON     a file to write the numbers to, as JSON (none by default)

The script raises its own limit of open files (and so the server's, which it starts) to fit the
idle connections.
"""

import asyncio
import json
import logging
import math
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
NAME = "stress-fairness"
sys.path.insert(0, os.path.join(REPO, "scripts", "harness"))

import attestation_harness as harness  # noqa: E402

SCALES = {
    # Seconds of baseline, of the idle phase and of each flood; idle connections per address
    # (11 addresses), the burst's connections; the most seconds waited after a phase for the
    # server to finish what the attack left (the requests wrk had in flight are still answered).
    "full": dict(baseline=10, idle_seconds=40, per_address=100, burst=3000, flood_seconds=20, quiet=30),
    "small": dict(baseline=3, idle_seconds=8, per_address=18, burst=500, flood_seconds=6, quiet=10),
}
IDLE_ADDRESSES = [f"127.0.0.{n}" for n in range(2, 13)]
BURST_PER_ADDRESS = 100
GOOD_TIMEOUT = 10.0
GOOD_PAUSE = 0.025
IDLE_TARGET_MS = 1000.0
FLOOD_TARGET_MS = 50.0
WRK_THREADS, WRK_CONNECTIONS = 2, 64
FLOOD_LUA = os.path.join(REPO, "Benchmarks", "wrk", "flood.lua")
# libmicrohttpd's listen backlog is the system's: connections beyond the server's limit wait there.
IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)

# A fictitious person, whose name appears nowhere else: finding it in the log means the server wrote it.
PERSON = harness.Person("Hermengarde", "Polycarpe-Vautrin", "11/08/1958", "Saint-Pourçain",
                        "27 sente des Grives Musiciennes", "03500", "Saint-Pourçain-sur-Sioule")


def die_with_parent():
    """In a child process (preexec_fn): SIGTERM when this script dies, even by SIGKILL."""
    import ctypes
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


STARTED = time.monotonic()


def note(message):
    print(f"{NAME} [{time.monotonic() - STARTED:5.1f} s] : {message}", file=sys.stderr, flush=True)


class Failure(Exception):
    """A setup problem that ends the run at once (a test failure is collected, not raised)."""


# MARK: - The good client (a process of its own)

class Closed(Exception):
    """The server closed a kept-alive connection before any byte of the answer."""


def read_response(sock, deadline):
    """One response on a blocking socket, framed by Content-Length (or to EOF without it):
    (status, headers lowercased, body). Raises Closed on EOF before any byte."""
    data = bytearray()
    head_end = -1
    length = None
    while True:
        if head_end >= 0 and length is not None and len(data) - head_end >= length:
            break
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("délai dépassé")
        sock.settimeout(remaining)
        chunk = sock.recv(65536)
        if not chunk:
            if not data:
                raise Closed()
            if head_end >= 0 and length is None:
                break
            raise ValueError(f"connexion fermée au milieu de la réponse ({len(data)} octets)")
        data += chunk
        if head_end < 0:
            index = data.find(b"\r\n\r\n")
            if index >= 0:
                head_end = index + 4
                match = re.search(rb"(?im)^content-length:\s*(\d+)\s*$", bytes(data[:index]))
                length = int(match.group(1)) if match else None
    head = bytes(data[:head_end - 4]).decode("latin-1").split("\r\n")
    match = re.match(r"HTTP/1\.[01] (\d{3})", head[0])
    if not match:
        raise ValueError(f"ligne de statut illisible : {head[0][:60]!r}")
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    body = bytes(data[head_end:head_end + length] if length is not None else data[head_end:])
    return int(match.group(1)), headers, body


def good_client(port, token_path, timeout, pause):
    """Sequential requests, one JSON line each on stdout: {"t0" (CLOCK_MONOTONIC, shared by the
    processes), "ms", "kind" (healthz, pdf), "mode" (new, keep-alive), "error", "reopened"}."""
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    parent = os.getppid()
    with open(token_path, encoding="ascii") as file:
        token = file.read().strip()
    kept = None
    index = 0
    while True:
        kind = "healthz" if index % 2 == 0 else "pdf"
        mode = "new" if (index // 2) % 2 == 0 else "keep-alive"
        path = "/healthz" if kind == "healthz" else f"/attestation.pdf?t={token}&offset=-20"
        start = time.monotonic()
        deadline = start + timeout
        error = None
        reopened = False
        stage = "connexion"
        try:
            if mode == "new":
                with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
                    stage = "envoi"
                    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
                    stage = "lecture"
                    status, headers, body = read_response(sock, deadline)
            else:
                request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
                for attempt in (0, 1):
                    stage = "connexion"
                    if kept is None:
                        kept = socket.create_connection(("127.0.0.1", port), timeout=max(0.001, deadline - time.monotonic()))
                        fresh = True
                    else:
                        fresh = False
                    try:
                        stage = "envoi"
                        kept.sendall(request)
                        stage = "lecture"
                        status, headers, body = read_response(kept, deadline)
                        break
                    except (Closed, ConnectionResetError, BrokenPipeError):
                        kept.close()
                        kept = None
                        if fresh or attempt == 1:
                            raise
                        reopened = True
                if headers.get("connection", "").lower() == "close":
                    kept.close()
                    kept = None
            if status != 200:
                error = f"statut {status}"
            elif kind == "pdf" and not (body.startswith(b"%PDF-") and b"%%EOF" in body[-8:]):
                error = "réponse 200 qui n’est pas un PDF entier"
            elif kind == "healthz" and json.loads(body).get("status") != "ok":
                error = f"/healthz a répondu {body[:40]!r}"
        except Closed:
            error = f"connexion {'neuve' if mode == 'new' else 'gardée'} fermée sans réponse"
        except (OSError, ValueError) as problem:
            where = f"{stage}, connexion {'neuve' if mode == 'new' else 'gardée'}"
            error = (f"délai de {timeout:.0f} s dépassé ({where})" if isinstance(problem, TimeoutError)
                     else f"{type(problem).__name__} ({where}) : {problem}")
        if error and kept is not None and mode == "keep-alive":
            kept.close()
            kept = None
        elapsed = (time.monotonic() - start) * 1000
        print(json.dumps({"t0": start, "ms": elapsed, "kind": kind, "mode": mode, "error": error,
                          "reopened": reopened}), flush=True)
        index += 1
        if os.getppid() != parent:
            return
        time.sleep(pause)


class GoodClient:
    """The good client's process and the records it sends back."""

    def __init__(self, port, token_path):
        self.records = []
        self.lock = threading.Lock()
        self.process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--good-client", str(port), token_path, str(GOOD_TIMEOUT),
             str(GOOD_PAUSE)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True, preexec_fn=die_with_parent)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            with self.lock:
                self.records.append(record)

    def window(self, start, end):
        """The requests that started between start and end, once the last of them has ended."""
        limit = time.monotonic() + GOOD_TIMEOUT + 2
        while time.monotonic() < limit:
            with self.lock:
                if any(r["t0"] >= end for r in self.records) or self.process.poll() is not None:
                    break
            time.sleep(0.05)
        with self.lock:
            return [r for r in self.records if start <= r["t0"] < end]

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def percentile(values, fraction):
    """Nearest-rank percentile of a list, None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def summary(records):
    """count, failures, p50, p99 and max (ms, of the requests answered), reopened kept-alive."""
    good = [r["ms"] for r in records if r["error"] is None]
    errors = [r for r in records if r["error"] is not None]
    return {"count": len(records), "failures": len(errors), "errors": sorted({r["error"] for r in errors}),
            "p50_ms": percentile(good, 0.50), "p99_ms": percentile(good, 0.99), "max_ms": max(good) if good else None,
            "reopened": sum(1 for r in records if r.get("reopened"))}


def breakdown(records):
    """The summaries of a phase: all, by route, by connection."""
    return {
        "all": summary(records),
        "healthz": summary([r for r in records if r["kind"] == "healthz"]),
        "pdf": summary([r for r in records if r["kind"] == "pdf"]),
        "new connection": summary([r for r in records if r["mode"] == "new"]),
        "kept-alive": summary([r for r in records if r["mode"] == "keep-alive"]),
    }


# MARK: - The idle attacker (asyncio)

async def open_idle(address, port, timeout):
    """A socket from `address`, connected to the server (nothing sent)."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        sock.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
        sock.bind((address, 0))
        await asyncio.wait_for(loop.sock_connect(sock, ("127.0.0.1", port)), timeout)
    except BaseException:
        sock.close()
        raise
    return sock


async def hold(sock, until):
    """Waits, sending nothing, until the server closes the socket (True) or `until` (False).
    Returns (closed by the server, bytes received)."""
    loop = asyncio.get_running_loop()
    try:
        data = await asyncio.wait_for(loop.sock_recv(sock, 4096), max(0.0, until - time.monotonic()))
        return True, data
    except asyncio.TimeoutError:
        return False, b""
    except OSError:
        return True, b""


class IdleStats:
    def __init__(self):
        self.opened = 0
        self.closed_by_server = 0
        self.answered = 0          # the server wrote something before closing
        self.connect_timeouts = 0
        self.connect_errors = 0
        self.error_kinds = {}
        self.held = []             # seconds each connection closed by the server was held

    def as_dict(self):
        return {"opened": self.opened, "closed_by_server": self.closed_by_server, "answered": self.answered,
                "connect_timeouts": self.connect_timeouts, "connect_errors": self.connect_errors,
                "connect_error_kinds": self.error_kinds,
                "held_median_s": percentile(self.held, 0.5), "held_max_s": max(self.held) if self.held else None}


async def idle_slot(address, port, until, stats, reopen):
    while time.monotonic() < until:
        try:
            sock = await open_idle(address, port, max(0.1, min(10.0, until - time.monotonic())))
        except asyncio.TimeoutError:
            stats.connect_timeouts += 1
            if not reopen:
                return
            continue
        except OSError as problem:
            stats.connect_errors += 1
            kind = type(problem).__name__
            stats.error_kinds[kind] = stats.error_kinds.get(kind, 0) + 1
            if not reopen:
                return
            await asyncio.sleep(0.1)
            continue
        stats.opened += 1
        opened = time.monotonic()
        try:
            closed, data = await hold(sock, until)
        finally:
            sock.close()
        if closed:
            stats.closed_by_server += 1
            stats.held.append(time.monotonic() - opened)
            if data:
                stats.answered += 1
        if not reopen:
            return


# MARK: - The server

class Server(harness.Server):
    def __init__(self, bin_dir, config, directory):
        try:
            super().__init__(harness.server_command(config, directory=bin_dir), directory=directory,
                             preexec_fn=die_with_parent)
        except harness.HarnessError as problem:
            raise Failure(f"le serveur n’a pas démarré : {problem}") from None

    @property
    def alive(self):
        return harness.process_alive(self.pid) and self.process.poll() is None

    def fds(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def cpu_ticks(self):
        with open(f"/proc/{self.pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime

    def get(self, path, timeout=10):
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            return read_response(sock, time.monotonic() + timeout)


# MARK: - The run

class Run:
    def __init__(self):
        scale_name = os.environ.get("STRESS_FAIRNESS_SCALE", "full")
        if scale_name not in SCALES:
            raise Failure(f"STRESS_FAIRNESS_SCALE : full ou small attendu (reçu « {scale_name} »).")
        self.scale_name = scale_name
        self.scale = SCALES[scale_name]
        self.full = scale_name == "full"
        self.json_path = os.environ.get("STRESS_FAIRNESS_JSON")
        self.bin_dir = harness.bin_dir("release")
        try:
            for program in harness.PROGRAMS:
                harness.binary(program, self.bin_dir)
        except harness.HarnessError as problem:
            raise Failure(str(problem)) from None
        if not shutil.which("wrk"):
            raise Failure("wrk manquant : scripts/install-deps.sh --stress l’installe.")
        self.site = None
        self.server = None
        self.good = None
        self.failures = []
        self.phases = {}     # name → breakdown
        self.attacks = {}    # name → what the attacker saw
        self.targets = []    # the timing targets, met or not
        self.loads = {}      # phase → the machine's load average (1 min) at its end

    # Setup

    def raise_file_limit(self):
        wanted = len(IDLE_ADDRESSES) * self.scale["per_address"] + self.scale["burst"] + 2048
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft >= wanted:
            return
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, max(hard, wanted)))
        except (ValueError, OSError):
            if hard < wanted:
                raise Failure(f"limite de fichiers ouverts trop basse ({hard}, {wanted} nécessaires) : "
                              f"ulimit -n {wanted}, ou lancez-le en root.")
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    def setup(self):
        self.raise_file_limit()
        try:
            # The configuration init writes; the server's limits are its defaults.
            self.site = harness.Site(prefix=NAME, bin_directory=self.bin_dir)
            self.token = self.site.mint(PERSON).token
        except harness.HarnessError as problem:
            raise Failure(str(problem)) from None
        self.token_path = os.path.join(self.site.directory, "token.txt")
        with open(self.token_path, "w", encoding="ascii") as file:
            file.write(self.token + "\n")
        with open(self.site.config, encoding="utf-8") as file:
            self.settings = json.load(file).get("server", {})
        self.server = Server(self.bin_dir, self.site.config, self.site.directory)
        self.port = self.server.port
        self.paths = {
            "pdf": f"/attestation.pdf?t={self.token}&offset=-20",
            "png": f"/attestation.png?t={self.token}&page=1&dpi=300",
            "template": f"/api/v1/template?t={self.token}",
        }
        checks = [("/healthz", lambda b: json.loads(b).get("status") == "ok"),
                  (self.paths["pdf"], lambda b: b.startswith(b"%PDF-")),
                  (self.paths["png"], lambda b: b.startswith(b"\x89PNG\r\n\x1a\n")),
                  (self.paths["template"], lambda b: json.loads(b).get("pdf") is not None or b.startswith(b"{"))]
        for path, check in checks:
            status, _, body = self.server.get(path, timeout=30)
            if status != 200 or not check(body):
                raise Failure(f"échantillon {path.split('?')[0]} : statut {status}, ou réponse inattendue.")
        note(f"serveur sur le port {self.port} (PID {self.server.pid}), échelle {self.scale_name}, "
             f"configuration d’attestation-admin init (réglages du serveur : {json.dumps(self.settings)}).")

    def cleanup(self):
        if self.good:
            self.good.stop()
        if self.server:
            self.server.stop()
        if self.site:
            self.site.remove()

    # Helpers

    def fail(self, phase, message):
        self.failures.append(f"{phase} : {message}")
        note(f"ÉCHEC — {phase} : {message}")

    def check_alive(self, phase):
        if not self.server.alive:
            self.fail(phase, f"le serveur est mort (statut {self.server.process.poll()})")
            raise Failure("le serveur est mort ; fin du test.")

    def wait_quiet(self, limit_seconds):
        """Waits until the server has finished the work the attack left (its CPU under 10 % over
        half a second) and its descriptors are back to the baseline, `limit_seconds` at most:
        (the seconds it took, whether it is quiet)."""
        start = time.monotonic()
        hz = os.sysconf("SC_CLK_TCK")
        while time.monotonic() - start < limit_seconds:
            before = self.server.cpu_ticks()
            time.sleep(0.5)
            busy = (self.server.cpu_ticks() - before) / hz / 0.5
            if busy < 0.10 and self.server.fds() <= self.fds_baseline + 2:
                return time.monotonic() - start, True
        return time.monotonic() - start, False

    def judge_good(self, phase, result):
        """Failures of the good client fail at every scale."""
        everything = result["all"]
        if everything["count"] < 2:
            self.fail(phase, f"le bon client n’a fait que {everything['count']} requêtes")
        if everything["failures"]:
            self.fail(phase, f"{everything['failures']} requêtes du bon client sur {everything['count']} ont échoué "
                             f"({'; '.join(everything['errors'][:4])})")

    @staticmethod
    def load():
        return " ".join(f"{value:.1f}" for value in os.getloadavg())

    def target(self, phase, what, label, value, limit, baseline, strict=False):
        """A timing target (`what` for the report, `label` in French for the failure): recorded,
        and a failure at full scale only."""
        met = value is not None and (value < limit if strict else value <= limit)
        self.targets.append({"phase": phase, "what": what, "value_ms": value, "limit_ms": limit,
                             "comparison": "<" if strict else "≤", "met": met, "baseline_ms": baseline})
        if not met and self.full:
            shown = "aucune réponse" if value is None else f"{value:.1f} ms"
            self.fail(phase, f"{label} : {shown}, objectif {'<' if strict else '≤'} {limit:.0f} ms (sans attaque : "
                             f"{self.ms(baseline)} ms ; charge de la machine {self.load()})")

    # Phases

    def run_baseline(self):
        self.good = GoodClient(self.port, self.token_path)
        time.sleep(1.5)  # warm-up: the first requests fill the caches
        fds = []
        start = time.monotonic()
        while time.monotonic() - start < self.scale["baseline"]:
            fds.append(self.server.fds())
            time.sleep(0.1)
        end = time.monotonic()
        self.fds_baseline = min(fds)
        result = breakdown(self.good.window(start, end))
        self.phases["baseline"] = result
        self.loads["baseline"] = os.getloadavg()[0]
        self.judge_good("référence", result)
        if result["all"]["count"] < 10:
            raise Failure(f"référence : {result['all']['count']} requêtes seulement.")
        note(f"référence : {result['all']['count']} requêtes ; p99 /healthz {result['healthz']['p99_ms']:.1f} ms, "
             f"PDF {result['pdf']['p99_ms']:.1f} ms.")

    def run_idle(self):
        phase = "idle"
        seconds = self.scale["idle_seconds"]
        per_address = self.scale["per_address"]
        burst = self.scale["burst"]
        burst_addresses = [f"127.0.{1 + n // 250}.{1 + n % 250}" for n in range(math.ceil(burst / BURST_PER_ADDRESS))]
        steady, bursting = IdleStats(), IdleStats()
        samples = []
        moments = {}

        async def sampler(until):
            while time.monotonic() < until:
                try:
                    samples.append(self.server.fds())
                except OSError:
                    pass
                await asyncio.sleep(0.25)

        async def burst_wave(at, until):
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            moments["burst"] = time.monotonic()
            await asyncio.gather(*(idle_slot(burst_addresses[n // BURST_PER_ADDRESS], self.port, until, bursting, False)
                                   for n in range(burst)))

        async def attack(start):
            until = start + seconds
            await asyncio.gather(
                sampler(until),
                burst_wave(start + seconds / 2, until),
                *(idle_slot(address, self.port, until, steady, True)
                  for address in IDLE_ADDRESSES for _ in range(per_address)))

        self.check_alive(phase)
        note(f"{phase} : {len(IDLE_ADDRESSES)} × {per_address} connexions inactives rouvertes pendant {seconds} s, "
             f"rafale de {burst} à mi-parcours.")
        start = time.monotonic()
        asyncio.run(attack(start))
        end = time.monotonic()
        self.check_alive(phase)
        recovery, quiet = self.wait_quiet(self.scale["quiet"])
        records = self.good.window(start, start + seconds)
        result = breakdown(records)
        self.phases[phase] = result
        self.loads[phase] = os.getloadavg()[0]
        self.attacks[phase] = {
            "seconds": seconds, "addresses": len(IDLE_ADDRESSES), "per_address": per_address,
            "steady": steady.as_dict(), "burst_size": burst, "burst_addresses": len(burst_addresses),
            "burst_at_s": moments.get("burst", start) - start, "burst": bursting.as_dict(),
            "server_fds_baseline": self.fds_baseline, "server_fds_peak": max(samples) if samples else None,
            "ended_s": end - start, "recovery_s": recovery, "quiet": quiet,
            "good_failures_at_s": [round(r["t0"] - start, 1) for r in records if r["error"]],
        }
        self.judge_good(phase, result)
        self.target(phase, "good client p99 (all requests)", "p99 du bon client (toutes requêtes)",
                    result["all"]["p99_ms"], IDLE_TARGET_MS, self.phases["baseline"]["all"]["p99_ms"], strict=True)
        note(f"{phase} : {result['all']['count']} requêtes, {result['all']['failures']} échecs, "
             f"p99 {self.ms(result['all']['p99_ms'])} ms ; serveur {'revenu' if quiet else 'pas encore revenu'} "
             f"au calme en {recovery:.1f} s.")

    def answer_counts(self, route):
        try:
            return harness.answer_counts(self.server.base, route)
        except (OSError, ValueError):
            return {}

    def run_flood(self, name, path, kind):
        phase = f"flood {name}"
        seconds = self.scale["flood_seconds"]
        route = path.split("?")[0]
        self.check_alive(phase)
        # The previous phase's work (page images rendered for nobody once wrk left) can still
        # fill the bounded queue on a slow machine (the address sanitizer, other builds): this
        # phase starts once the server is quiet, or every answer it counts would be the previous
        # phase's 503 (make test once saw 7,059 of them and no template).
        waited, quiet = self.wait_quiet(self.scale["quiet"] * 12)
        if not quiet:
            self.fail(phase, f"le serveur travaillait encore {waited:.0f} s après la phase précédente")
            return
        counted_before = self.answer_counts(route)
        note(f"{phase} : wrk -t{WRK_THREADS} -c{WRK_CONNECTIONS} pendant {seconds} s.")
        output_path = os.path.join(self.site.directory, f"wrk-{name}.txt")
        start = time.monotonic()
        with open(output_path, "wb") as output:
            process = subprocess.Popen(
                ["wrk", f"-t{WRK_THREADS}", f"-c{WRK_CONNECTIONS}", f"-d{seconds}s", "--timeout", "10s", "--latency",
                 "-s", FLOOD_LUA, f"http://127.0.0.1:{self.port}{path}", "--", f"kind={kind}"],
                stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
            try:
                status = process.wait(seconds + 60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                status = None
        end = time.monotonic()
        self.check_alive(phase)
        recovery, quiet = self.wait_quiet(self.scale["quiet"])
        with open(output_path, encoding="utf-8", errors="replace") as file:
            text = file.read()
        numbers = {}
        for match in re.finditer(r"^flood\.(\w+) ([0-9.]+)$", text, re.M):
            value = float(match.group(2))
            numbers[match.group(1)] = int(value) if value.is_integer() and match.group(1) != "rps" else value
        if status != 0 or "requests" not in numbers:
            shown = text.replace(self.token, "TOKEN")[-1500:]
            self.fail(phase, f"wrk a échoué (statut {status}) : {shown}")
            return
        result = breakdown(self.good.window(start, end))
        self.phases[phase] = result
        self.loads[phase] = os.getloadavg()[0]
        numbers["seconds"] = seconds
        numbers["recovery_s"] = recovery
        numbers["quiet"] = quiet
        # The server's own count, once quiet: answers to wrk's requests include those it finished
        # after wrk had gone (rendered for nobody).
        counted_after = self.answer_counts(route)
        numbers["server_answers"] = {str(code): counted_after.get(code, 0) - counted_before.get(code, 0)
                                     for code in sorted(counted_after) if counted_after.get(code, 0) != counted_before.get(code, 0)}
        self.attacks[phase] = numbers
        self.judge_good(phase, result)
        label = "images de page" if name == "png" else "modèles"
        # wrk counts only what came back within its seconds; under the address sanitizer on a
        # loaded machine (load 14 in make test) a template took longer than the phase, and the
        # server's count of 200 after it says whether the flood was served at all.
        if numbers["ok"] == 0 and not numbers["server_answers"].get("200"):
            self.fail(phase, f"aucun des {label} n’a été servi (200) : {numbers['busy']} 503, {numbers['other']} autres")
        if numbers["other"]:
            self.fail(phase, f"{numbers['other']} réponses ni 200 ni 503 (la première : {numbers['other_status']})")
        if numbers["bad200"]:
            self.fail(phase, f"{numbers['bad200']} réponses 200 dont le corps n’est pas {'une image PNG' if kind == 'png' else 'du JSON'}")
        if numbers["busy"] != numbers["busy_retry"]:
            self.fail(phase, f"{numbers['busy'] - numbers['busy_retry']} réponses 503 sans Retry-After")
        dropped = numbers["errors_connect"] + numbers["errors_read"] + numbers["errors_write"]
        if dropped:
            self.fail(phase, f"wrk : {dropped} erreurs de connexion (connect {numbers['errors_connect']}, read "
                             f"{numbers['errors_read']}, write {numbers['errors_write']}) : connexions coupées sans réponse")
        for route in ("healthz", "pdf"):
            self.target(phase, f"{'/healthz' if route == 'healthz' else 'PDF'} p99",
                        f"p99 de {'/healthz' if route == 'healthz' else 'la PDF'}", result[route]["p99_ms"], FLOOD_TARGET_MS,
                        self.phases["baseline"][route]["p99_ms"])
        note(f"{phase} : {numbers['requests']} réponses ({numbers['ok']} 200, {numbers['busy']} 503), "
             f"délais d’attente wrk {numbers['errors_timeout']} ; bon client p99 /healthz "
             f"{self.ms(result['healthz']['p99_ms'])} ms, PDF {self.ms(result['pdf']['p99_ms'])} ms.")

    def final_checks(self):
        phase = "fin"
        self.check_alive(phase)
        try:
            status, _, _ = self.server.get("/healthz")
            if status != 200:
                self.fail(phase, f"/healthz répond {status}")
        except (OSError, ValueError) as problem:
            self.fail(phase, f"/healthz ne répond pas : {problem}")
        self.good.stop()
        try:
            _, _, metrics = self.server.get("/metrics")
        except (OSError, ValueError) as problem:
            metrics = b""
            self.fail(phase, f"/metrics ne répond pas : {problem}")
        statuses = {}
        for match in re.finditer(rb'^http_requests_total\{([^}]*)\}\s+([0-9.e+]+)$', metrics, re.M):
            labels = dict(re.findall(rb'(\w+)="([^"]*)"', match.group(1)))
            key = f"{labels.get(b'route', b'?').decode()} {labels.get(b'status', b'?').decode()}"
            statuses[key] = statuses.get(key, 0) + int(float(match.group(2)))
        self.statuses = statuses
        errors = {k: v for k, v in statuses.items() if k.split()[-1].isdigit() and int(k.split()[-1]) >= 500
                  and int(k.split()[-1]) != 503}
        if errors:
            self.fail(phase, f"le serveur a compté des réponses 5xx : {errors}")
        status = self.server.stop()
        self.exit_status = status
        if status != 0:
            self.fail(phase, f"le serveur est sorti avec le statut {status} après SIGTERM")
        records = self.server.log_records()
        self.log_lines = len(records)
        problems = harness.log_problems(records, secrets=self.site.secrets)
        for problem in problems[:10]:
            self.fail(phase, f"dans le journal : {problem[:200]}")
        if len(problems) > 10:
            self.fail(phase, f"… {len(problems)} lignes de ce genre")

    # Report

    @staticmethod
    def ms(value):
        return "—" if value is None else f"{value:.1f}"

    def report(self):
        ms = self.ms
        print()
        print(f"### attestation-server: a good client's share under attack ({os.cpu_count()} cores, scale {self.scale_name})")
        print()
        print("Server: the configuration `attestation-admin init` writes, limits at their defaults (maxConnections 1024, "
              "maxConnectionsPerAddress 128, connectionTimeout 15 s, one worker thread per core). Good client: "
              f"127.0.0.1, sequential, /healthz then a PDF, alternately on a new connection and on a kept-alive one, "
              f"{GOOD_PAUSE * 1000:.0f} ms apart, {GOOD_TIMEOUT:.0f} s timeout (a failure); latencies of the requests "
              "answered.")
        print()
        print("| phase | requests | count | failures | p50 (ms) | p99 (ms) | max (ms) | p99 / baseline |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        base = self.phases.get("baseline")
        for phase, result in self.phases.items():
            for part in ("all", "healthz", "pdf", "new connection", "kept-alive"):
                s = result[part]
                reference = base[part]["p99_ms"] if base else None
                ratio = f"{s['p99_ms'] / reference:.1f}" if s["p99_ms"] is not None and reference else "—"
                extra = f" ({s['reopened']} reopened)" if s["reopened"] else ""
                print(f"| {phase} | {part}{extra} | {s['count']} | {s['failures']} | {ms(s['p50_ms'])} | "
                      f"{ms(s['p99_ms'])} | {ms(s['max_ms'])} | {ratio} |")
        print()
        print("The machine's load average (1 min) at the end of each phase, other work included: "
              + ", ".join(f"{phase} {load:.1f}" for phase, load in self.loads.items()) + ".")
        print()
        idle = self.attacks.get("idle")
        if idle:
            st, bu = idle["steady"], idle["burst"]
            print(f"Idle: {idle['addresses']} addresses × {idle['per_address']} connections for {idle['seconds']} s, "
                  f"each reopened once closed: {st['opened']} opened, {st['closed_by_server']} closed by the server "
                  f"(held {ms(st['held_median_s'])} s median, {ms(st['held_max_s'])} s at most), {st['connect_timeouts']} "
                  f"connects timed out, {st['connect_errors']} failed. Burst of {idle['burst_size']} from "
                  f"{idle['burst_addresses']} addresses at {idle['burst_at_s']:.1f} s: {bu['opened']} connected, "
                  f"{bu['closed_by_server']} closed by the server before the end, {bu['connect_timeouts']} connects "
                  f"timed out, {bu['connect_errors']} failed. Server descriptors: baseline {idle['server_fds_baseline']}, "
                  f"peak {idle['server_fds_peak']}; {'quiet again' if idle['quiet'] else 'still busy'} "
                  f"{idle['recovery_s']:.1f} s after the phase."
                  + (f" The good client's failed requests started at "
                     f"{', '.join(f'{t:.1f}' for t in idle['good_failures_at_s'])} s." if idle["good_failures_at_s"] else ""))
            print()
        floods = [(name, numbers) for name, numbers in self.attacks.items() if name.startswith("flood")]
        if floods:
            print(f"| flood (wrk -t{WRK_THREADS} -c{WRK_CONNECTIONS}) | seconds | responses | 200 | 503 | 503 with Retry-After "
                  "| other | socket errors c/r/w/timeout | flood p50 (ms) | flood p99 (ms) | server's count (by status) "
                  "| server busy after (s) |")
            print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- | ---: |")
            for name, n in floods:
                counted = ", ".join(f"{code}: {count}" for code, count in n["server_answers"].items()) or "—"
                print(f"| {name} | {n['seconds']} | {n['requests']} | {n['ok']} | {n['busy']} | {n['busy_retry']} | "
                      f"{n['other']} | {n['errors_connect']}/{n['errors_read']}/{n['errors_write']}/{n['errors_timeout']} | "
                      f"{n['p50_ms']:.1f} | {n['p99_ms']:.1f} | {counted} | "
                      f"{n['recovery_s']:.1f}{'' if n['quiet'] else ' (still busy)'} |")
            print()
        if self.targets:
            asserted = "asserted" if self.full else "not asserted at this scale"
            print(f"Targets ({asserted}): " + "; ".join(
                f"{t['phase']}, {t['what']}: {ms(t['value_ms'])} ms {t['comparison']} {t['limit_ms']:.0f} ms "
                f"{'met' if t['met'] else 'MISSED'}" for t in self.targets) + ".")
        if hasattr(self, "statuses"):
            print("Server's count of answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(self.statuses.items()))
                  + f"; {self.log_lines} log lines checked; exit status after SIGTERM: {self.exit_status}.")
        print()

    def write_json(self):
        if not self.json_path:
            return
        document = {"scale": self.scale_name, "cores": os.cpu_count(), "server": self.settings,
                    "phases": self.phases, "attacks": self.attacks, "targets": self.targets, "load_average": self.loads,
                    "targets_asserted": self.full, "failures": self.failures}
        with open(self.json_path, "w", encoding="utf-8") as file:
            json.dump(document, file, indent=2, ensure_ascii=False)
            file.write("\n")

    def main(self):
        try:
            self.setup()
            self.run_baseline()
            self.run_idle()
            self.run_flood("png", self.paths["png"], "png")
            self.run_flood("template", self.paths["template"], "json")
            self.final_checks()
        finally:
            if self.phases:
                try:
                    self.report()
                    self.write_json()
                except Exception as problem:  # the report must not hide the failures
                    note(f"rapport incomplet : {problem!r}")
            self.cleanup()
        if self.failures:
            for failure in self.failures:
                print(f"{NAME} : ÉCHEC — {failure}", file=sys.stderr)
            return 1
        if self.full:
            print("Fairness passed: the good client was served within its targets under idle connections and floods.")
        else:
            print("Fairness smoke passed (timing targets not asserted at this scale).")
        return 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--good-client":
        port, token_path, timeout, pause = sys.argv[2:6]
        good_client(int(port), token_path, float(timeout), float(pause))
        return 0
    if len(sys.argv) > 1:
        print(f"usage : {NAME} (réglages par l’environnement : ATTESTATION_BIN, STRESS_FAIRNESS_SCALE=full|small, "
              f"STRESS_FAIRNESS_JSON=FICHIER)", file=sys.stderr)
        return 64
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)

    def interrupted(number, _frame):
        raise SystemExit(128 + number)

    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, interrupted)
    run = None
    try:
        run = Run()
        return run.main()
    except Failure as problem:
        if run:
            for failure in run.failures:
                print(f"{NAME} : ÉCHEC — {failure}", file=sys.stderr)
        note(str(problem))
        return 1


if __name__ == "__main__":
    sys.exit(main())
