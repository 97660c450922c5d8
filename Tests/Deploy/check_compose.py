#!/usr/bin/env python3
"""Checks docs/deploy/compose.yaml against the repository's Dockerfile, without a Docker engine.

    python3 Tests/Deploy/check_compose.py docs/deploy/compose.yaml REPOSITORY_ROOT
    python3 Tests/Deploy/check_compose.py --requirements     (status 69 when PyYAML is missing)

Prints one line per check that holds; on the first that does not, prints why and exits 1.
Run by scripts/check-deploy.sh (which also runs `docker-compose config` when it is installed).
What must agree: the build context is the repository and names its Dockerfile; every server
service mounts the Dockerfile's VOLUME read-only, publishes its EXPOSE port on loopback only,
keeps its HEALTHCHECK (on /healthz), runs as its non-root USER with a read-only root, no
capabilities and no-new-privileges, and is given more time to stop than the server's
shutdownTimeout; the admin service is attestation-admin with the same volume writable, and no
network. The Dockerfile is the repository's: without it, the check fails.
"""
import os
import re
import shlex
import sys

try:
    import yaml
except ImportError:
    yaml = None

SERVERS = ("attestation", "attestation-2")
SHUTDOWN_TIMEOUT = 10  # ServerSettings.defaults.shutdownTimeout


class Failed(Exception):
    pass


def require(condition, message):
    if not condition:
        raise Failed(message)


def dockerfile_facts(path):
    """VOLUME, EXPOSE, USER, HEALTHCHECK and CMD of the last stage, continuation lines joined."""
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"\\\n", " ", f.read())
    facts = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "FROM":
            facts = {}  # only the last stage is the image
        elif word in ("VOLUME", "EXPOSE", "USER", "HEALTHCHECK", "CMD", "ENTRYPOINT", "WORKDIR"):
            facts[word] = rest.strip()
    return facts


def seconds(value):
    match = re.fullmatch(r"(\d+)(s|m)?", str(value))
    require(match, f"duration {value!r} not understood")
    return int(match.group(1)) * (60 if match.group(2) == "m" else 1)


def main(compose_path, repository):
    lines = []
    with open(compose_path, encoding="utf-8") as f:
        compose = yaml.safe_load(f)
    services = compose.get("services") or {}
    require(all(name in services for name in SERVERS + ("admin",)),
            f"services {', '.join(SERVERS)} and admin expected, found {', '.join(services)}")
    require(set(compose.get("volumes") or {}) == {"attestation"}, "one named volume, attestation, expected")
    lines.append("valid YAML: services " + ", ".join(services) + "; volume attestation")

    base = os.path.dirname(os.path.abspath(compose_path))
    for name, service in services.items():
        build = service.get("build") or {}
        context = os.path.normpath(os.path.join(base, build.get("context", ".")))
        require(os.path.samefile(context, repository), f"{name}: build context {context} is not the repository")
        require(build.get("dockerfile") == "Dockerfile", f"{name}: dockerfile Dockerfile expected")
        require(service.get("image") == "attestation-links:local", f"{name}: image attestation-links:local expected")
        require(service.get("pull_policy") in ("build", "never"), f"{name}: the image must never be pulled")
    lines.append("every service builds the repository's Dockerfile, none pulls an image")

    dockerfile = os.path.join(repository, "Dockerfile")
    require(os.path.isfile(dockerfile), f"{dockerfile} is missing: the repository holds it")
    facts = dockerfile_facts(dockerfile)
    volume = facts.get("VOLUME", "").strip('[]" ')
    port = facts.get("EXPOSE", "").split("/")[0]
    user = facts.get("USER")
    require(volume and port, "the Dockerfile's VOLUME and EXPOSE not found")
    require(user and user not in ("root", "0"), "the Dockerfile's USER must not be root")
    health = facts.get("HEALTHCHECK", "")
    require("/healthz" in health and "NONE" not in health.upper().split(), "the Dockerfile's HEALTHCHECK must ask /healthz")
    command = facts.get("CMD", "")
    require(f"{volume}/config.json" in command, f"the Dockerfile's CMD must read {volume}/config.json")
    require("0.0.0.0" in command, "the Dockerfile's CMD must listen on 0.0.0.0 for the published port")
    lines.append(f"Dockerfile: VOLUME {volume}, EXPOSE {port}, USER {user}, HEALTHCHECK on /healthz, CMD reads {volume}/config.json")

    published, grace = [], set()
    for name in SERVERS:
        service = services[name]
        require(service.get("volumes") == [f"attestation:{volume}:ro"], f"{name}: volumes must be [attestation:{volume}:ro]")
        ports = service.get("ports") or []
        require(len(ports) == 1, f"{name}: one published port expected")
        host, host_port, container_port = str(ports[0]).split(":")
        require(host == "127.0.0.1", f"{name}: publish on 127.0.0.1 only (the proxy is on the host), not {host}")
        require(container_port == port, f"{name}: container port {container_port}, the Dockerfile exposes {port}")
        published.append(f"{name} 127.0.0.1:{host_port}")
        require("healthcheck" not in service or not service["healthcheck"].get("disable"), f"{name}: health check disabled")
        require(service.get("user") in (None, user), f"{name}: user {service.get('user')} instead of the image's")
        require(service.get("read_only") is True, f"{name}: read_only: true expected")
        require(service.get("cap_drop") == ["ALL"], f"{name}: cap_drop: [ALL] expected")
        require("no-new-privileges:true" in (service.get("security_opt") or []), f"{name}: no-new-privileges expected")
        require(service.get("stop_signal", "SIGTERM") == "SIGTERM", f"{name}: stop_signal SIGTERM expected")
        grace.add(seconds(service.get("stop_grace_period", "10s")))
        require(max(grace) > SHUTDOWN_TIMEOUT and min(grace) > SHUTDOWN_TIMEOUT,
                f"{name}: stop_grace_period must exceed shutdownTimeout ({SHUTDOWN_TIMEOUT} s)")
        for key in ("command", "entrypoint", "privileged", "network_mode", "pid", "cap_add"):
            require(key not in service, f"{name}: {key} overrides the image or weakens isolation")
    require(len({p.split(":")[-1] for p in published}) == len(published), "two services publish the same port")
    require(services["attestation-2"].get("profiles") == ["replicas"], "attestation-2 belongs to the replicas profile")
    lines.append(f"servers: {volume} read-only, {', '.join(published)} -> {port}, health check kept, "
                 f"read-only root, no capabilities, no-new-privileges, {min(grace)} s to stop")

    admin = services["admin"]
    require(admin.get("entrypoint") == ["attestation-admin"], "admin: entrypoint [attestation-admin] expected")
    require(admin.get("volumes") == [f"attestation:{volume}"], f"admin: volumes must be [attestation:{volume}] (writable)")
    require(admin.get("profiles") == ["admin"], "admin: profile admin expected (not started by up)")
    require(admin.get("network_mode") == "none", "admin: network_mode none expected")
    require(admin.get("pull_policy") == "never", "admin: pull_policy never expected")
    require(facts.get("WORKDIR") == volume, f"the Dockerfile's WORKDIR must be {volume} (admin finds config.json there)")
    lines.append(f"admin: attestation-admin, {volume} writable, working directory {volume}, no network, profile admin")

    # The commands in the file's header use only these services and profiles.
    with open(compose_path, encoding="utf-8") as f:
        header = [line[1:].strip() for line in f if line.startswith("#   docker compose")]
    for command in header:
        words = shlex.split(command)
        if "run" in words:
            target = words[words.index("--rm") + 1] if "--rm" in words else None
            require(target in services, f"header command names unknown service: {command}")
    lines.append(f"the {len(header)} commands of the file's header name its services")
    return lines


if __name__ == "__main__":
    if yaml is None:
        print("check-deploy: python3-yaml manquant (apt-get install python3-yaml).", file=sys.stderr)
        sys.exit(69)
    if sys.argv[1:] == ["--requirements"]:
        sys.exit(0)
    if len(sys.argv) != 3:
        print("usage: check_compose.py COMPOSE_FILE REPOSITORY_ROOT", file=sys.stderr)
        sys.exit(64)
    try:
        for line in main(sys.argv[1], sys.argv[2]):
            print(line)
    except Failed as error:
        print(error, file=sys.stderr)
        sys.exit(1)
