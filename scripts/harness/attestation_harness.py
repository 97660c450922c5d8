"""The test harness every script and Python test shares: where the built binaries are, free
ports, a throwaway site (`attestation-admin init` in a temporary directory), fictitious people
minted into links (read from `mint --format json`), and `attestation-server` started on a port
the system chose, ready once it has written its JSON readiness line, its JSON log records read
back, SIGHUP with the reload's outcome, SIGTERM with the exit status.

Debian's python3 and its standard library only. Python code imports it:

    sys.path.insert(0, os.path.join(REPO, "scripts", "harness"))
    import attestation_harness as harness

    site = harness.Site()
    link = site.mint(harness.CAMILLE, ["travail"])
    with harness.Server.start(site.config) as server:
        harness.fetch(server.url("/attestation.pdf", link.token))
        server.reload()
        server.stop()           # SIGTERM, the exit status

Bash scripts use its command line, `python3 scripts/harness COMMAND` (scripts/harness/__main__.py,
`--help` lists the commands), through scripts/harness/harness.sh, which also starts servers as
children of the script itself (so that the script can `wait` for their exit status).

The server's interface this relies on: with `--port 0 --log-format json` it writes exactly one
line on standard output once it listens, `{"event":"listening","host":…,"pid":…,"port":…,
"url":"http://HOST:PORT/"}`, and one JSON object a line on standard error (`time`, `level`,
`message` and the metadata: `request` records carry `route` and `status`; a reload logs
`configuration reloaded` or `reload refused, the previous configuration stays in force`).
"""

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PROGRAMS = ("attestation-server", "attestation-admin")

RELOADED = "configuration reloaded"
RELOAD_REFUSED = "reload refused, the previous configuration stays in force"
# Levels in swift-log's order; a record above `notice` is a problem for a script that expects
# none (warnings are shown, not counted).
LEVELS = ("trace", "debug", "info", "notice", "warning", "error", "critical")


class HarnessError(Exception):
    """Something the harness could not do (a binary missing, a server that did not start…),
    with a message that says what happened."""


# MARK: - The binaries

def bin_dir(default=None):
    """The directory of the built attestation-server and attestation-admin.

    $ATTESTATION_BIN when set (relative to the repository, or absolute). Otherwise `default`
    ("release" or "debug": `.build/release` or `.build/debug`) when the caller needs one kind
    (a benchmark measures the release build only); otherwise whichever of the two holds both
    programs and was built last, so that a script tests what was just built."""
    chosen = os.environ.get("ATTESTATION_BIN")
    if chosen:
        return os.path.abspath(os.path.join(REPO, chosen))
    if default:
        return os.path.join(REPO, ".build", default)
    candidates = []
    for configuration in ("release", "debug"):
        directory = os.path.join(REPO, ".build", configuration)
        paths = [os.path.join(directory, program) for program in PROGRAMS]
        if all(os.access(path, os.X_OK) for path in paths):
            candidates.append((max(os.path.getmtime(path) for path in paths), directory))
    if not candidates:
        return os.path.join(REPO, ".build", "debug")
    return max(candidates)[1]


def binary(name, directory=None):
    """The path of a built program, or a HarnessError that says how to build it."""
    path = os.path.join(directory or bin_dir(), name)
    if not os.access(path, os.X_OK):
        raise HarnessError(f"{path} introuvable ; construisez-le (swift build --product {name}, "
                           f"ou -c release), ou donnez son dossier dans ATTESTATION_BIN.")
    return path


def sanitizer_environment(environment=None):
    """An environment for a program of a sanitizer build: LeakSanitizer's suppressions of
    `make test` (the toolchain's own leaks) unless LSAN_OPTIONS is already set."""
    environment = dict(os.environ if environment is None else environment)
    suppressions = os.path.join(REPO, "scripts", "lsan-suppressions.txt")
    environment.setdefault("LSAN_OPTIONS", f"suppressions={suppressions}:print_suppressions=0")
    return environment


def run(arguments, *, timeout=120, check=True, input_bytes=None, cwd=None):
    """Runs a program to its end; its outputs as bytes. A non-zero status raises HarnessError
    with the program's standard error when `check`."""
    result = subprocess.run(arguments, input=input_bytes, stdin=None if input_bytes is not None else subprocess.DEVNULL,
                            capture_output=True, timeout=timeout, cwd=cwd, env=sanitizer_environment())
    if check and result.returncode != 0:
        shown = " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(arguments[:3]))
        raise HarnessError(f"{shown} … : statut {result.returncode} : {result.stderr.decode(errors='replace')[-2000:]}")
    return result


# MARK: - Ports

def ephemeral_ports():
    """The ports the kernel gives outgoing connections (ip_local_port_range)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range", encoding="ascii") as handle:
            low, high = (int(value) for value in handle.read().split())
        return range(low, high + 1)
    except (OSError, ValueError):
        return range(32768, 61000)


def free_port(host="127.0.0.1"):
    """A TCP port nothing uses right now, outside the kernel's ephemeral range. Another program
    may still take it before the caller does: prefer `--port 0` where the program supports it."""
    return free_ports(1, host)[0]


def free_ports(count, host="127.0.0.1"):
    """`count` distinct free ports: all bound at once, so no two are the same; bound on every
    address (a proxy may listen on all); drawn outside the ephemeral range. A port the kernel
    chose (bind to 0) is one it also gives to outgoing connections: make test's stress smokes
    open thousands beside the other stages, and Caddy once found its port taken that way
    (`bind: address already in use`)."""
    ephemeral = ephemeral_ports()
    pool = [port for port in range(10000, 65536) if port not in ephemeral]
    sockets = []
    try:
        for port in random.sample(pool, len(pool)):
            if len(sockets) == count:
                break
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                sock.bind(("" if host == "127.0.0.1" else host, port))
            except OSError:
                sock.close()
                continue
            sockets.append(sock)
        if len(sockets) < count:
            raise HarnessError(f"{count} ports libres demandés, {len(sockets)} trouvés hors de la plage éphémère")
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


# MARK: - People

class Person:
    """A fictitious person, as `attestation-admin mint` takes one."""

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
        """What a log must never hold."""
        return [self.first, self.last, self.birth_date, self.birth_place, self.address]

    @property
    def row(self):
        """The person's columns of a people CSV (`first_name` … `city`)."""
        return [self.first, self.last, self.birth_date, self.birth_place, self.address, self.zip, self.city]


CAMILLE = Person("Camille", "Dupont", "01/01/1970", "Lyon", "999 avenue de France", "75001", "Paris")
ELOISE = Person("Éloïse", "Quimperlé", "29/02/1988", "Besançon", "12 rue des Lilas Bleus", "25000", "Besançon")
MAXIME = Person("Maximilien", "Oberkampf", "17/03/1961", "Colmar", "3 impasse du Moulin Rouge", "68000", "Colmar")
YASMINE = Person("Yasmine", "Belkacemi", "05/11/1993", "Roubaix", "48 boulevard Vauban Nord", "59100", "Roubaix")
DOMINIQUE = Person("Dominique", "Martin", "12/05/1985", "Nantes", "12 rue des Lilas", "44000", "Nantes")
# A name outside CP1252: the PDF embeds a font subset for it.
LUKASZ = Person("Łukasz", "Wałęsa", "02/03/1980", "Gdańsk", "1 rue de la Paix", "75002", "Paris")
PEOPLE = {"camille": CAMILLE, "eloise": ELOISE, "maxime": MAXIME, "yasmine": YASMINE, "dominique": DOMINIQUE,
          "lukasz": LUKASZ}

PEOPLE_HEADER = ["first_name", "last_name", "birth_date", "birth_place", "address", "zip", "city", "reasons"]

_FIRST = ("Camille Élodie Jérôme François Zoé Anaïs Noël Maëlle Loïc Hélène Benoît Cécile Théo Inès Gaëtan Agnès "
          "Mathis Léa Hugo Chloé Lucas Manon Jules Sarah Karim Amina Yannick Solène Bastien Margaux Raphaël "
          "Clémence Antoine Océane Rémi Aurélie Mehdi Salomé Joël Ségolène").split()
_LAST = ("Martin;Bernard;Dubois;Lefèvre;Girard;Bonnet;Dupont;Lambert;Fontaine;Rousseau;Mercier;Blanc;Guérin;Boyer;"
         "Garnier;Chevalier;Legrand;Gauthier;Perrin;Robin;Clément;Morin;Le Goff;Da Silva;Benali;Roussel;Masson;"
         "Marchand;Duval;Lemaire;Meyer;Dufour;Brunet;Blanchard;Giraud;Joly;N’Diaye;Nguyễn;Kerbrat;Ménard").split(";")
_CITIES = ("75011 Paris;69003 Lyon;13001 Marseille;31000 Toulouse;06000 Nice;44000 Nantes;67000 Strasbourg;"
           "34000 Montpellier;33000 Bordeaux;59000 Lille;35000 Rennes;51100 Reims;42000 Saint-Étienne;"
           "76600 Le Havre;38000 Grenoble;21000 Dijon;49000 Angers;30000 Nîmes;69100 Villeurbanne;"
           "63000 Clermont-Ferrand;13100 Aix-en-Provence;29200 Brest;87000 Limoges;37000 Tours;80000 Amiens;"
           "66000 Perpignan;57000 Metz;25000 Besançon;45000 Orléans;76000 Rouen;68100 Mulhouse;14000 Caen;"
           "54000 Nancy;93200 Saint-Denis;94240 L’Haÿ-les-Roses;84000 Avignon;20000 Ajaccio;"
           "97110 Pointe-à-Pitre;64200 Biarritz;74000 Annecy").split(";")
_BIRTH_PLACES = ("Paris;Lyon;Marseille;Alger;Casablanca;Lisbonne;Bordeaux;Quimper;Tunis;Lille;Dakar;Hanoï;"
                 "Fort-de-France;Besançon;Porto;Metz;Saint-Malo;Orléans;Bastia;Bamako").split(";")
_STREETS = ("rue de la République;avenue Jean Jaurès;boulevard Victor Hugo;place du Marché;impasse des Lilas;"
            "chemin des Écoliers;allée des Tilleuls;rue Pasteur;quai de la Loire;rue du Faubourg Saint-Antoine;"
            "avenue de l’Europe;rue Émile Zola;résidence Les Cèdres, bât. B;rue des Trois-Frères;"
            "cours Mirabeau").split(";")
_REASONS = ("travail;achats_culturel_cultuel;sante;famille;handicap;sport_animaux;convocation;missions;enfants;"
            "travail enfants;sante famille;achats_culturel_cultuel sport_animaux;famille handicap;travail|sante").split(";")
# The reasons of people whose links follow the calendar (minted without --form, as users get
# them): codes of November 2020 that the version in force today (the last, of June 2021) carries
# on (missions as travail, handicap as famille, convocation as convocation_demarches);
# achats_culturel_cultuel, sport_animaux and enfants have no counterpart there (409).
_FOLLOWING_REASONS = ("travail;sante;famille;handicap;convocation;missions;travail sante;sante famille;"
                      "famille handicap;travail|sante;convocation missions").split(";")


def population(count, following=False):
    """`count` fictitious people as rows of a people CSV (PEOPLE_HEADER), the same ones on
    every run. Person i takes first name i mod 40 and last name (i + i div 40) mod 40: 1,600
    distinct names, each with its own birth date, address and reasons. One last name in 40
    (Nguyễn) has no CP1252 form, so 2.5 % of the PDFs take the embedded-font path, as some real
    people's do. The reasons are codes of the form of 28 November 2020 (links pinned to it), or
    with `following`, codes that the version in force today carries on (links that follow the
    calendar)."""
    reasons = _FOLLOWING_REASONS if following else _REASONS
    rows = []
    for i in range(count):
        zip_city = _CITIES[(i * 11) % len(_CITIES)]
        rows.append([
            _FIRST[i % len(_FIRST)],
            _LAST[(i + i // len(_FIRST)) % len(_LAST)],
            "%02d/%02d/%04d" % ((i * 7) % 28 + 1, (i * 5) % 12 + 1, 1935 + (i * 13) % 71),
            _BIRTH_PLACES[(i * 7) % len(_BIRTH_PLACES)],
            "%d%s %s" % ((i * 37) % 180 + 1, " bis" if i % 17 == 0 else "", _STREETS[(i * 3) % len(_STREETS)]),
            zip_city[:5],
            zip_city[6:],
            reasons[i % len(reasons)],
        ])
    return rows


def people_tsv(rows):
    """A people CSV, tab separated, with its header."""
    return "".join("\t".join(row) + "\n" for row in [PEOPLE_HEADER] + list(rows))


# MARK: - Links

class Link:
    """One link from `attestation-admin mint --format json`."""

    def __init__(self, record):
        self.record = record
        self.id = record["id"]
        self.url = record["url"]
        self.page_url = record["pageURL"]
        self.name = record["name"]
        self.expires_at = record.get("expiresAt")

    @property
    def token(self):
        return token_of(self.url)

    def field(self, name):
        """`token`, `url`, `page`, `id` or `name`, as the command line prints them."""
        return {"token": self.token, "url": self.url, "page": self.page_url, "id": self.id, "name": self.name}[name]


def token_of(url):
    """The `t` parameter of a link."""
    values = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).get("t")
    if not values:
        raise HarnessError(f"pas de paramètre t= dans le lien {url[:60]}…")
    return values[0]


def mint(config, arguments, directory=None):
    """`attestation-admin mint --config CONFIG --format json ARGUMENTS…`: the links, in order."""
    result = run([binary("attestation-admin", directory), "mint", "--config", config, "--format", "json", *arguments])
    records = json.loads(result.stdout)
    return [Link(record) for record in (records if isinstance(records, list) else [records])]


# MARK: - Configuration files

def _path_parts(path):
    parts = [part for part in path.split(".") if part]
    if not parts:
        raise HarnessError(f"chemin de clé vide : « {path} » (attendu : server.logFormat, par exemple)")
    return parts


def _child(node, part, path, create):
    """One step of a key path: an object's key, a list's index (`0`), or the list's element
    whose field has a value (`id=k1`)."""
    if isinstance(node, list):
        field, separator, value = part.partition("=")
        for index, element in enumerate(node):
            if (separator and isinstance(element, dict) and str(element.get(field)) == value) or \
                    (not separator and part.isdigit() and index == int(part)):
                return element
        raise HarnessError(f"{path} : aucun élément « {part} » dans la liste")
    if not isinstance(node, dict):
        raise HarnessError(f"{path} : « {part} » est sous une valeur qui n’est ni un objet ni une liste")
    if create:
        return node.setdefault(part, {})
    if part not in node:
        raise HarnessError(f"{path} : pas de clé « {part} »")
    return node[part]


def set_key(document, path, value):
    """document[a][b][c] = value for `a.b.c`, creating the objects on the way."""
    *parents, last = _path_parts(path)
    node = document
    for part in parents:
        node = _child(node, part, path, create=True)
    if not isinstance(node, dict):
        raise HarnessError(f"{path} : seule une clé d’objet peut recevoir une valeur")
    node[last] = value


def delete_key(document, path):
    """Removes `a.b.c` (an object's key, or a list's element: `keys.id=k1`); nothing when the
    last key is absent."""
    *parents, last = _path_parts(path)
    node = document
    for part in parents:
        node = _child(node, part, path, create=False)
    if isinstance(node, list):
        node.remove(_child(node, last, path, create=False))
    elif isinstance(node, dict):
        node.pop(last, None)


def edit_config(path, settings=None, deletions=(), output=None):
    """Reads a JSON configuration, sets `settings` ({"server.port": 8080, …}), removes
    `deletions` (["server.tls", "keys.id=k1"]), and writes it back (or to `output`)."""
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    for key, value in (settings or {}).items():
        set_key(document, key, value)
    for key in deletions:
        delete_key(document, key)
    with open(output or path, "w", encoding="utf-8") as file:
        json.dump(document, file, indent=2, ensure_ascii=False)
        file.write("\n")
    return output or path


class Site:
    """A configuration and signing key made by `attestation-admin init` in a directory of its
    own (temporary unless given), the links minted from it, and what its logs must not hold.

    `server` is merged into the configuration's `server` object, which starts as
    `shutdownTimeout` 5 s and JSON logs. The server serves the site built into it, or the
    directory $ATTESTATION_PUBLIC names (`publicDirectory`: pages edited since the build, without
    rebuilding)."""

    DEFAULT_SERVER = {"shutdownTimeout": 5, "logFormat": "json"}

    def __init__(self, directory=None, *, prefix="attestation-site", base_url="http://127.0.0.1:8080", server=None,
                 bin_directory=None):
        self.owned = directory is None
        self.directory = directory or tempfile.mkdtemp(prefix=prefix + "-")
        os.makedirs(self.directory, exist_ok=True)
        self.bin_dir = bin_directory or bin_dir()
        self.config = os.path.join(self.directory, "config.json")
        self.secrets = []
        run([binary("attestation-admin", self.bin_dir), "init", "--config", self.config, "--base-url", base_url])
        settings = dict(self.DEFAULT_SERVER)
        if os.environ.get("ATTESTATION_PUBLIC"):
            settings["publicDirectory"] = os.path.abspath(os.environ["ATTESTATION_PUBLIC"])
        settings.update(server or {})
        self.edit({"server": settings})

    def edit(self, settings=None, deletions=()):
        edit_config(self.config, settings, deletions)

    def mint(self, person, reasons=("travail",), extra=()):
        """A link for a person."""
        arguments = list(person.options)
        for reason in reasons:
            arguments += ["--reason", reason]
        link = mint(self.config, arguments + list(extra), self.bin_dir)[0]
        self.secrets += person.secrets + [link.token]
        return link

    def mint_people(self, rows, extra=()):
        """Links for rows of a people CSV (see `population`), in order."""
        path = os.path.join(self.directory, "people.tsv")
        with open(path, "w", encoding="utf-8") as file:
            file.write(people_tsv(rows))
        links = mint(self.config, ["--csv", path, *extra], self.bin_dir)
        self.secrets += [link.token for link in links]
        return links

    def revoke(self, token):
        run([binary("attestation-admin", self.bin_dir), "revoke", "--config", self.config, token])

    def remove(self):
        if self.owned:
            shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.remove()


# MARK: - Readiness and log records

def parse_readiness(line):
    """The readiness object of a line of the server's standard output, or None."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("event") != "listening" or not isinstance(record.get("port"), int):
        return None
    return record


def read_readiness(path):
    """The readiness object in a file holding the server's standard output, or None yet."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            text = file.read()
    except FileNotFoundError:
        return None
    for line in text.splitlines(keepends=True):
        if line.endswith("\n"):
            record = parse_readiness(line)
            if record:
                return record
    return None


def process_alive(pid):
    """Whether a process runs (a zombie does not: it has exited, unreaped)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as file:
            return not re.search(r"^State:\s*Z", file.read(), re.M)
    except OSError:
        return False


def tail(path, characters=3000):
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return file.read()[-characters:]
    except OSError:
        return ""


def wait_ready(stdout_path, *, pid=None, alive=None, log_path=None, timeout=30):
    """Waits for the readiness line in `stdout_path`; the readiness object. Fails (HarnessError
    with the server's log) when the process ends first or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    alive = alive or (lambda: pid is None or process_alive(pid))
    while True:
        record = read_readiness(stdout_path)
        if record:
            return record
        if not alive():
            # The line may have come just before the end.
            record = read_readiness(stdout_path)
            if record:
                return record
            raise HarnessError(f"attestation-server s’est arrêté sans écouter ; standard output : "
                               f"{tail(stdout_path, 500)!r} ; journal : {tail(log_path) if log_path else '(non lu)'}")
        if time.monotonic() > deadline:
            raise HarnessError(f"attestation-server n’a pas écrit sa ligne de disponibilité en {timeout} s ; "
                               f"journal : {tail(log_path) if log_path else '(non lu)'}")
        time.sleep(0.02)


def log_records(path):
    """The server's log records so far, each a dict; a line that is not a JSON object (a
    sanitizer's report, a crash, --check-config's summary) is given as {"text": line}. A last
    line not yet ended is left for the next read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            text = file.read()
    except FileNotFoundError:
        return []
    records = []
    for line in text.splitlines(keepends=True):
        if not line.endswith("\n"):
            break
        line = line.rstrip("\n")
        if not line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        records.append(record if isinstance(record, dict) else {"text": line})
    return records


def record_matches(record, message=None, fields=None):
    """Whether a record has this message (None: any) and these field values. A field given as
    text matches a number of the same digits (`status=410` from a command line)."""
    if message is not None and record.get("message") != message:
        return False
    for key, wanted in (fields or {}).items():
        value = record.get(key)
        if value != wanted and not (isinstance(wanted, str) and value is not None and str(value) == wanted):
            return False
    return True


def wait_for_record(path, message=None, fields=None, *, after=0, timeout=30, alive=None):
    """Waits for a record that matches, beyond the first `after` records; returns it, or None
    after `timeout` seconds (or once `alive()` says the server has ended and none came)."""
    deadline = time.monotonic() + timeout
    while True:
        ended = alive is not None and not alive()
        for record in log_records(path)[after:]:
            if record_matches(record, message, fields):
                return record
        if ended or time.monotonic() > deadline:
            return None
        time.sleep(0.02)


def reload_outcome(path, send_signal, *, timeout=30):
    """Sends SIGHUP through `send_signal()` and waits for the server to log the outcome: the
    record `configuration reloaded` or `reload refused…` that follows, or None after `timeout`
    seconds. Records already there (an automatic reload of a file change) do not count."""
    before = len(log_records(path))
    send_signal()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for record in log_records(path)[before:]:
            if record.get("message") in (RELOADED, RELOAD_REFUSED):
                return record
        time.sleep(0.02)
    return None


def log_problems(records, *, worst="warning", secrets=(), markers=("?t=", "&t=", "offset=", "reasons=")):
    """What is wrong in a log that should show a healthy server: lines that are not records
    (a crash, a sanitizer's report), records above `worst`, and any of `secrets` (at least 4
    characters) or of the query-string `markers`, which no log line may hold."""
    problems = []
    limit = LEVELS.index(worst)
    for record in records:
        if "text" in record and "message" not in record:
            problems.append(f"ligne qui n’est pas un enregistrement JSON : {record['text'][:300]}")
        elif record.get("level") not in LEVELS:
            problems.append(f"enregistrement sans niveau connu : {json.dumps(record, ensure_ascii=False)[:300]}")
        elif LEVELS.index(record["level"]) > limit:
            problems.append(f"{record['level']} : {json.dumps(record, ensure_ascii=False)[:300]}")
    text = "\n".join(json.dumps(r, ensure_ascii=False) if "message" in r else r.get("text", "") for r in records)
    for secret in sorted(set(secrets)):
        if len(secret) >= 4 and secret in text:
            problems.append(f"le journal contient une donnée personnelle ou un jeton (« {secret[:12]}… »)")
    for marker in markers:
        if marker in text:
            problems.append(f"le journal contient une chaîne de requête ({marker})")
    return problems


# MARK: - The server

def server_command(config, *arguments, directory=None, wrap=()):
    """attestation-server's command line: `--port 0` unless `arguments` give a port, JSON logs."""
    command = [*wrap, binary("attestation-server", directory)]
    if config:
        command += ["--config", config]
    if "--port" not in arguments:
        command += ["--port", "0"]
    return command + ["--log-format", "json", *arguments]


class Server:
    """A running attestation-server: its standard output and error go to files in a directory
    of its own; ready once its readiness line is there (`url`, `base`, `port`, `pid`).

    `Server.start(config, ARGUMENTS…)` builds the usual command (`server_command`); `Server(COMMAND)`
    runs any command that ends up executing the server (a sandbox wrapper, chroot…) and adds
    nothing to it. Killed, if still running, by `remove()` or at the end of a `with` block."""

    def __init__(self, command, *, timeout=30, env=None, cwd=None, preexec_fn=None, directory=None):
        self.command = list(command)
        self.outputs = tempfile.mkdtemp(prefix="attestation-server-", dir=directory)
        self.stdout_path = os.path.join(self.outputs, "stdout.log")
        self.log_path = os.path.join(self.outputs, "stderr.log")
        with open(self.stdout_path, "wb") as out, open(self.log_path, "wb") as err:
            self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=cwd,
                                            env=env if env is not None else sanitizer_environment(),
                                            preexec_fn=preexec_fn)
        self.pid = self.process.pid
        try:
            self.ready = wait_ready(self.stdout_path, alive=lambda: self.process.poll() is None,
                                    log_path=self.log_path, timeout=timeout)
        except HarnessError:
            self.remove()
            raise
        self.port = self.ready["port"]
        self.base = self.ready["url"].rstrip("/")

    @classmethod
    def start(cls, config, *arguments, directory=None, wrap=(), **options):
        return cls(server_command(config, *arguments, directory=directory, wrap=wrap), **options)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.remove()

    def url(self, path="/", token=None, **query):
        parameters = ([("t", token)] if token else []) + list(query.items())
        return self.base + path + ("?" + urllib.parse.urlencode(parameters, safe=",") if parameters else "")

    # The log.

    def log_text(self):
        return tail(self.log_path, characters=1 << 30)

    def log_records(self):
        return log_records(self.log_path)

    def requests(self, route=None, status=None):
        """The access-log records of answered requests, optionally of one route and status."""
        return [r for r in self.log_records() if r.get("message") == "request"
                and (route is None or r.get("route") == route) and (status is None or r.get("status") == status)]

    def wait_for_record(self, message=None, fields=None, *, after=0, timeout=30):
        return wait_for_record(self.log_path, message, fields, after=after, timeout=timeout, alive=lambda: self.running)

    def log_problems(self, secrets=(), worst="warning"):
        return log_problems(self.log_records(), worst=worst, secrets=secrets)

    # Signals and the end.

    @property
    def running(self):
        return self.process.poll() is None

    def signal(self, number):
        if self.running:
            self.process.send_signal(number)

    def reload(self, timeout=30):
        """SIGHUP: True when the server reloaded, False when it refused the new configuration;
        HarnessError when it logged neither within `timeout` seconds."""
        record = reload_outcome(self.log_path, lambda: self.signal(signal.SIGHUP), timeout=timeout)
        if record is None:
            raise HarnessError(f"aucun résultat de rechargement journalisé en {timeout} s après SIGHUP : {tail(self.log_path)}")
        return record["message"] == RELOADED

    def stop(self, timeout=30):
        """SIGTERM, then the exit status; None when it was still running after `timeout`
        seconds (it is then killed)."""
        self.signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None

    def remove(self):
        """Kills the server if it still runs and deletes its output files."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.outputs, ignore_errors=True)


# MARK: - HTTP

def fetch(url, timeout=30, headers=None):
    """(status, content type, body) of a GET, error statuses included."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def answer_counts(base, route=None):
    """{status: count} of the answers a server counted in its /metrics (`http_requests_total`),
    optionally of one route."""
    _, _, body = fetch(base.rstrip("/") + "/metrics", timeout=10)
    counts = {}
    for match in re.finditer(r'^http_requests_total\{([^}]*)\}\s+([0-9.e+]+)$', body.decode(), re.M):
        labels = dict(re.findall(r'(\w+)="([^"]*)"', match.group(1)))
        if route is not None and labels.get("route") != route:
            continue
        status = int(labels.get("status", 0))
        counts[status] = counts.get(status, 0) + int(float(match.group(2)))
    return counts
