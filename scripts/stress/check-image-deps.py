#!/usr/bin/python3
"""Proves, without a Docker engine, that the Dockerfile's runtime stage can run its binaries.

Reads the Dockerfile's ARG lines (BUILD_FLAGS, RUNTIME_PACKAGES, RUNTIME_IMAGE, SWIFT_IMAGE),
builds attestation-server and attestation-admin with BUILD_FLAGS in .build-image, then:

1. every library `ldd` lists must be found, belong to a Debian package (dpkg -S), and that
   package must be in the runtime stage: RUNTIME_PACKAGES, the slim image's own packages
   (priority required, and apt) or their dependencies, recursively (apt-cache depends);
2. the data files the binaries open (the DejaVu font, the time zones) must come from the same
   set of packages;
3. the server starts with the Dockerfile's CMD arguments (the configuration's path mapped to a
   temporary one made by the test harness, scripts/harness), and the HEALTHCHECK command, run as
   written, reports it healthy; then it stops cleanly on SIGTERM.

With --rootfs (root, debootstrap, network to Debian's mirror; about two minutes more), the
runtime stage itself is rebuilt without Docker: debootstrap --variant=minbase of the image's
release (what debian:*-slim is made of), the stage's RUN instructions executed in it as written,
its COPY instructions done with these binaries, then, in a chroot as the image's USER and in its
WORKDIR: attestation-admin init and mint, the CMD, the HEALTHCHECK, a PDF fetched through the
minted link, and SIGTERM.

The check is only meaningful on the Debian release the image uses (this machine's must match).

  scripts/stress/check-image-deps.py                     build, then check
  scripts/stress/check-image-deps.py --no-build          check the binaries already in .build-image
  scripts/stress/check-image-deps.py --rootfs            also run them in a rebuilt runtime stage
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "harness"))

import attestation_harness as harness  # noqa: E402

SCRATCH = ".build-image"
PRODUCTS = ["attestation-server", "attestation-admin"]
# Opened at run time rather than linked: AttestationRenderer.defaultUnicodeFontPath, the page
# images' Nimbus Sans (defaultStandardFontDirectory), and a zone that every link's time zone
# lookup reads.
DATA_FILES = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
              "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf", "/usr/share/fonts/opentype/urw-base35/NimbusSans-Italic.otf",
              "/usr/share/zoneinfo/Europe/Paris"]


def fail(message):
    print(f"check-image-deps : {message}", file=sys.stderr)
    sys.exit(1)


def run(arguments, **options):
    return subprocess.run(arguments, check=False, text=True, capture_output=True, **options)


def dockerfile_lines():
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    text = open(os.path.join(ROOT, "Dockerfile"), encoding="utf-8").read()
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    return re.sub(r"\\\n\s*", " ", text)


def dockerfile():
    """The ARG defaults, and the runtime stage's CMD and HEALTHCHECK, of the Dockerfile."""
    joined = dockerfile_lines()
    args = {m.group(1): m.group(2) for m in re.finditer(r'^ARG (\w+)="?([^"\n]*)"?$', joined, re.M)}
    for name in ["BUILD_FLAGS", "RUNTIME_PACKAGES", "RUNTIME_IMAGE", "SWIFT_IMAGE"]:
        if name not in args:
            fail(f"Dockerfile : ARG {name}=… introuvable (une ligne, valeur entre guillemets).")
    cmd = re.search(r"^CMD (\[.*\])$", joined, re.M)
    health = re.search(r"^HEALTHCHECK .*?CMD (\[.*\])$", joined, re.M)
    if not cmd or not health:
        fail("Dockerfile : CMD [...] et HEALTHCHECK ... CMD [...] attendus, en forme JSON.")
    return args, json.loads(cmd.group(1)), json.loads(health.group(1))


def codename(image):
    """bookworm, from debian:bookworm-slim or swift:6.3-bookworm."""
    tag = image.partition(":")[2]
    words = [part for part in re.split(r"[-.]", tag) if part.isalpha() and part != "slim"]
    return words[0] if words else ""


def package_closure(roots):
    """The packages installed along with `roots`: their Depends and Pre-Depends, recursively."""
    result = run(["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts",
                  "--no-breaks", "--no-replaces", "--no-enhances", *roots])
    if result.returncode != 0:
        fail(f"apt-cache depends a échoué : {result.stderr.strip()}")
    return {line.strip("<>").split(":")[0] for line in result.stdout.splitlines() if line and not line.startswith(" ")}


def slim_image_packages():
    """What debian:*-slim holds before any install: the required packages and apt."""
    result = run(["apt-cache", "dumpavail"])
    required, package = set(), None
    for line in result.stdout.splitlines():
        if line.startswith("Package: "):
            package = line.split()[1]
        elif line == "Priority: required" and package:
            required.add(package)
    if len(required) < 10:
        fail("liste des paquets Debian vide ou incomplète : lancez « apt-get update » d’abord.")
    return required | {"apt"}


def owner(path):
    """The Debian package that installed a file, trying the merged-/usr spellings too."""
    real = os.path.realpath(path)
    candidates = [path, real]
    for p in list(candidates):
        if p.startswith("/usr/lib/"):
            candidates.append(p[4:])
        elif p.startswith("/lib/"):
            candidates.append("/usr" + p)
    for candidate in candidates:
        result = run(["dpkg", "-S", candidate])
        if result.returncode == 0:
            return result.stdout.split(":")[0].strip()
    return None


def linked_libraries(binary):
    result = run(["ldd", binary])
    if result.returncode != 0:
        fail(f"ldd {binary} : {result.stderr.strip()}")
    libraries = []
    for line in result.stdout.splitlines():
        line = line.strip()
        if "not found" in line:
            fail(f"{os.path.basename(binary)} : bibliothèque introuvable : {line}")
        match = re.match(r"(\S+) => (/\S+)", line) or re.match(r"(/\S+) \(", line)
        if match:
            libraries.append((os.path.basename(match.group(1)), match.group(match.lastindex)))
    return libraries


def build(flags):
    for product in PRODUCTS:
        command = ["swift", "build", *flags, "--scratch-path", SCRATCH, "--product", product]
        print("check-image-deps :", " ".join(command), flush=True)
        if subprocess.run(command, cwd=ROOT).returncode != 0:
            fail(f"la construction de {product} avec les options du Dockerfile a échoué.")


def check_packages(bin_dir, args):
    runtime = args["RUNTIME_PACKAGES"].split()
    available = package_closure(sorted(slim_image_packages() | set(runtime)))
    rows, problems = [], []
    for product in PRODUCTS:
        for name, path in linked_libraries(os.path.join(bin_dir, product)):
            package = owner(path)
            if package is None:
                problems.append(f"{product} : {name} ({path}) ne vient d’aucun paquet Debian "
                                "(bibliothèque Swift partagée ? --static-swift-stdlib manque)")
            elif package not in available:
                problems.append(f"{product} : {name} vient de {package}, absent de l’étape d’exécution "
                                "(ajoutez-le à RUNTIME_PACKAGES)")
            rows.append((product, name, package or "—"))
    for path in DATA_FILES:
        package = owner(path) if os.path.exists(path) else None
        if package is None or package not in available:
            problems.append(f"{path} : fourni par {package or 'aucun paquet installé ici'}, absent de l’étape d’exécution")
        rows.append(("(données)", path, package or "—"))
    width = max(len(name) for _, name, _ in rows)
    for product, name, package in rows:
        print(f"  {product:<20} {name:<{width}}  {package}")
    for problem in problems:
        print(f"check-image-deps : {problem}", file=sys.stderr)
    return not problems


def check_command_and_healthcheck(bin_dir, cmd, health):
    """Runs the CMD as the image would, the configuration's path mapped to a scratch site."""
    site = harness.Site(prefix="check-image-deps", base_url="https://attestation.example.org", bin_directory=bin_dir)
    server = None
    try:
        arguments = [site.config if a == "/etc/attestation/config.json" else a for a in cmd]
        if arguments[0] != "attestation-server" or site.config not in arguments:
            fail(f"CMD inattendu : {cmd}")
        arguments[0] = harness.binary("attestation-server", bin_dir)
        # Loopback and a free port instead of 0.0.0.0:8080, which may be taken here.
        if "--host" in arguments:
            arguments[arguments.index("--host") + 1] = "127.0.0.1"
        try:
            server = harness.Server(arguments + ["--port", "0", "--log-format", "json"])
        except harness.HarnessError as error:
            fail(f"le serveur lancé avec le CMD du Dockerfile n’écoute pas : {error}")
        probe = [part.replace("/8080", f"/{server.port}") for part in health]
        result = run(probe, timeout=10)
        if result.returncode != 0:
            fail(f"le HEALTHCHECK du Dockerfile échoue contre le serveur : {shlex.join(probe)}")
        print(f"  CMD démarre le serveur (port {server.port}) ; HEALTHCHECK : sain")
        status = server.stop(timeout=20)
        if status != 0:
            fail(f"arrêt par SIGTERM : code {status} ; journal : {server.log_text()[-2000:]}")
        # The probe in turn must notice a server that is gone.
        if run(probe, timeout=10).returncode == 0:
            fail("le HEALTHCHECK réussit sans serveur : il ne prouve rien")
    finally:
        if server:
            server.remove()
        site.remove()


def runtime_stage():
    """The instructions after the last FROM: (keyword, rest of the line)."""
    lines = dockerfile_lines().splitlines()
    last_from = max(i for i, line in enumerate(lines) if line.startswith("FROM "))
    return [tuple(line.split(" ", 1)) for line in lines[last_from + 1:] if line.strip()]


def check_rootfs(bin_dir, args, cmd, health):
    """The runtime stage rebuilt with debootstrap, then the binaries run in it."""
    if os.geteuid() != 0:
        fail("--rootfs : root nécessaire (debootstrap, chroot, mount).")
    if not shutil.which("debootstrap"):
        fail("--rootfs : debootstrap manquant (apt-get install debootstrap).")
    release = codename(args["RUNTIME_IMAGE"])
    rootfs = os.path.join(ROOT, SCRATCH, "rootfs")
    mounts = []
    server = None

    def in_root_command(command, user=None, workdir="/"):
        """`command` in the root, as `user`, from `workdir`, with a bare environment."""
        prefix = ["chroot"] + ([f"--userspec={user}:{user}"] if user else []) + [rootfs]
        return prefix + ["env", "-i", "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/nonexistent",
                         "sh", "-c", f"cd {shlex.quote(workdir)} && exec \"$0\" \"$@\"", *command]

    def in_root(command, user=None, workdir="/", **options):
        return run(in_root_command(command, user, workdir), **options)

    try:
        subprocess.run(["rm", "-rf", rootfs], check=True)
        print(f"check-image-deps : debootstrap --variant=minbase {release} (l’image {args['RUNTIME_IMAGE']})", flush=True)
        result = run(["debootstrap", "--variant=minbase", release, rootfs, "http://deb.debian.org/debian"])
        if result.returncode != 0:
            fail(f"debootstrap a échoué : {result.stdout[-1500:]} {result.stderr[-1500:]}")
        user, workdir = "root", "/"
        environment = dict(args)
        for keyword, rest in runtime_stage():
            if keyword == "ARG":
                name, _, value = rest.partition("=")
                environment[name] = value.strip('"') or environment.get(name, "")
            elif keyword == "RUN":
                exports = " ".join(f"{name}={shlex.quote(value)}" for name, value in environment.items())
                result = run(["chroot", rootfs, "sh", "-c", f"export {exports}; {rest}"])
                if result.returncode != 0:
                    fail(f"RUN de l’étape d’exécution en échec dans la racine : {result.stderr[-2000:]}")
            elif keyword == "COPY":
                copy_into(rootfs, rest, bin_dir)
            elif keyword == "USER":
                user = rest.strip()
            elif keyword == "WORKDIR":
                workdir = rest.strip()
        print(f"  racine reconstruite : RUN et COPY de l’étape d’exécution ; USER {user}, WORKDIR {workdir}")
        for source, target, kind in [("proc", "proc", ["-t", "proc"]), ("/dev", "dev", ["--bind"])]:
            subprocess.run(["mount", *kind, source, os.path.join(rootfs, target)], check=True)
            mounts.append(os.path.join(rootfs, target))

        init = in_root(["attestation-admin", "init", "--base-url", "http://127.0.0.1:8080"], user=user, workdir=workdir)
        if init.returncode != 0:
            fail(f"attestation-admin init dans l’image, en {user} : {init.stderr.strip()}")
        mint = in_root(["attestation-admin", "mint", *harness.CAMILLE.options, "--reason", "travail", "--format", "json"],
                       user=user, workdir=workdir)
        if mint.returncode != 0:
            fail(f"attestation-admin mint dans l’image : {mint.stderr.strip()}")
        link = harness.Link(json.loads(mint.stdout)[0])

        try:
            server = harness.Server(in_root_command(cmd + ["--port", "0", "--log-format", "json"], user, workdir))
        except harness.HarnessError as error:
            fail(f"le CMD ne démarre pas dans l’image : {error}")
        probe = [part.replace("/8080", f"/{server.port}") for part in health]
        if in_root(probe, user=user, timeout=10).returncode != 0:
            fail("le HEALTHCHECK échoue dans l’image.")
        status, content_type, body = harness.fetch(server.url("/attestation.pdf", link.token))
        if status != 200 or not body.startswith(b"%PDF-"):
            fail(f"le lien frappé dans l’image ne donne pas de PDF : statut {status}, {content_type}, {body[:200]!r}")
        licences = in_root(["test", "-s", "/usr/share/doc/attestation-links/THIRD-PARTY-NOTICES.txt"])
        if licences.returncode != 0:
            fail("THIRD-PARTY-NOTICES.txt absent ou vide dans l’image.")
        status = server.stop(timeout=20)
        if status != 0:
            fail(f"arrêt par SIGTERM dans l’image : code {status} {server.log_text()[-1000:]}")
        size = run(["du", "-sh", rootfs]).stdout.split()[0]
        print(f"  dans l’image, en {user} : init, mint, CMD (port {server.port}), HEALTHCHECK sain, PDF 200, "
              f"SIGTERM → 0 ; racine {size}")
    finally:
        if server:
            server.remove()
        for mount in reversed(mounts):
            subprocess.run(["umount", "-l", mount], check=False)
        if not mounts or all(not os.path.ismount(m) for m in mounts):
            subprocess.run(["rm", "-rf", rootfs], check=False)


def copy_into(rootfs, rest, bin_dir):
    """A COPY of the runtime stage, from this checkout or from what the build stage makes."""
    words = rest.split()
    source, target = words[-2], words[-1]
    destination = os.path.join(rootfs, target.lstrip("/"))
    if words[0] == "--from=build":
        if source == "/out/bin/":
            os.makedirs(destination, exist_ok=True)
            for product in PRODUCTS:
                subprocess.run(["install", "-m", "0755", os.path.join(bin_dir, product), destination], check=True)
                subprocess.run(["strip", os.path.join(destination, product)], check=True)
        elif source == "/out/doc/THIRD-PARTY-NOTICES.txt":
            os.makedirs(destination, exist_ok=True)
            with open(os.path.join(destination, "THIRD-PARTY-NOTICES.txt"), "w") as notices:
                subprocess.run([os.path.join(bin_dir, "attestation-admin"), "licenses"], stdout=notices, check=True)
        else:
            fail(f"COPY --from=build {source} : inconnu de check-image-deps ; ajoutez-le à copy_into.")
    else:
        subprocess.run(["mkdir", "-p", os.path.dirname(destination.rstrip("/"))], check=True)
        subprocess.run(["cp", "-a", os.path.join(ROOT, source), destination], check=True)


def main():
    options = sys.argv[1:]
    for option in options:
        if option in ("-h", "--help"):
            print(__doc__.strip())
            return
        if option not in ("--no-build", "--rootfs"):
            fail(f"option inconnue {option} (acceptées : --no-build, --rootfs, --help)")
    args, cmd, health = dockerfile()
    here = ""
    if os.path.exists("/etc/os-release"):
        here = re.search(r"^VERSION_CODENAME=(\w+)", open("/etc/os-release").read(), re.M)
        here = here.group(1) if here else ""
    for name in ["RUNTIME_IMAGE", "SWIFT_IMAGE"]:
        if codename(args[name]) != here:
            fail(f"{name}={args[name]} n’est pas la version de Debian de cette machine ({here or 'inconnue'}) : "
                 "la vérification n’y prouverait rien.")
    flags = shlex.split(args["BUILD_FLAGS"])
    if "--no-build" not in options:
        build(flags)
    bin_dir = run(["swift", "build", *flags, "--scratch-path", SCRATCH, "--show-bin-path"], cwd=ROOT).stdout.strip()
    for product in PRODUCTS:
        if not os.access(os.path.join(bin_dir, product), os.X_OK):
            fail(f"{bin_dir}/{product} introuvable ; lancez scripts/stress/check-image-deps.py sans --no-build.")
    print(f"check-image-deps : {args['RUNTIME_IMAGE']} + {args['RUNTIME_PACKAGES']}")
    if not check_packages(bin_dir, args):
        sys.exit(1)
    check_command_and_healthcheck(bin_dir, cmd, health)
    if "--rootfs" in options:
        check_rootfs(bin_dir, args, cmd, health)
    print("check-image-deps : l’étape d’exécution du Dockerfile fournit tout ce que les binaires demandent.")


if __name__ == "__main__":
    main()
