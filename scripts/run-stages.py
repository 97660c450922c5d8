#!/usr/bin/python3
"""make test's stages, run side by side where they can be, each timed.

    scripts/run-stages.py [--list] [--only STAGE…] [--log-dir DIR]

Each stage is a shell command (run by bash from the repository's root) with the stages it needs.
A stage starts as soon as every stage it needs has passed, unless it holds a token another
running stage holds: `load` (the stress smokes judge a good client's latency and fill the loopback
with connections: one at a time). The builds run side by side: a release build compiles each
module whole and keeps one core busy, not two (Debian 13's: 23:57 of CPU in 24:53; the release
build: 7:02 in 13:11), so one after the other they were the whole length of a cold run (7:10 of
the sanitized build, 24:53 of Debian 13's, then the release build and its package's checks:
about 47 minutes), while the other core did the suites; 23 GB of memory hold the three. A stage whose need failed is not run. Each stage's output goes
to its log (out/test/STAGE.log); when it ends its last lines are printed (all of it if it failed,
or with TEST_VERBOSE=1). A stage that judges timing under whatever else the machine runs (the
stress smokes, Debian 13's suite of servers under load) is run once more if it fails; its first
failure is kept in STAGE.first.log and said at the end. At the end, a table: each stage, when it
started, how long it took, its CPU, its outcome ("FLAKY, ok on 2nd run" for a second run that
passed: a failure that went away, not a pass); then how many stages were flaky and which, and the
lines that say why each failed stage failed (CI keeps only the end of the output). Exits 1 if any
stage failed or did not run. A complete run records its times and its flaky stages in
out/test/times.json; --doc writes them into docs/testing.md, which keeps the flaky stages of the
last runs recorded (FLAKY_HISTORY of them).

Times are printed, never judged: a loaded machine is slower, not wrong.

--list prints the stages and what each needs; --only runs the named stages and what they need.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ASAN = os.environ.get("ASAN_BUILD", ".build-asan")
ASAN_BIN = f"{ASAN}/debug"
# The release build that ships (the Dockerfile's flags: the Swift runtime linked in): the systemd
# sandbox, the browser tests' clock-shifted servers and the Debian 12 package all run it.
RELEASE = ".build-image"
RELEASE_BIN = f"{RELEASE}/release"
BROWSER_PYTHON = ".venv-browser/bin/python"
TAIL = 15
# The lines that say why a stage failed, in the logs of this project's checks: Swift Testing's ✘,
# the scripts' « ÉCHEC », Python's tracebacks and assertions, a shell's errors. CI keeps only the
# end of a run's output, so these are printed again after the table.
WHY = re.compile(r"✘|ÉCHEC|FAILED|Traceback|Error|error:|AssertionError|Fatal|panic|No such file")
WHY_LINES = 6


class Stage:
    def __init__(self, name, command, needs=(), tokens=(), summary="", retry=False):
        self.name = name
        self.command = command
        self.needs = list(needs)
        self.tokens = set(tokens)
        self.summary = summary
        # Judges timing under whatever else the machine runs (a good client's latency, a slow
        # client cut in time, a suite of servers under load): run again once if it fails; the
        # first failure is kept (STAGE.first.log) and printed again at the end.
        self.retry = retry
        self.first_failure = None  # the digest of the first run's failure, once retried
        self.first_started = None
        self.first_cpu = 0.0
        self.process = None
        self.log = None
        self.started = None
        self.ended = None
        self.outcome = None  # "ok", "FAILED", "not run"
        self.cpu = None  # seconds of CPU, its processes' and those they waited for


def stages():
    """make test, stage by stage. A Debian 12 machine (this one) builds twice: the address
    sanitizer's debug build (every target, the tests included) and one release build of the two
    programs with the Swift runtime linked in (the systemd sandbox cannot hold a sanitizer's
    runtime; the browser tests' servers under libfaketime run it too; the Debian 12 package ships
    it), attestation-bench built there with them (a minute more: the libraries are the programs';
    render-cost counts its instructions). The Debian 13 root builds twice in one stage: debug with its tests (as make
    check: a changed file compiles that file and what uses it again), then the two programs, release, with the Swift
    runtime linked in, which its package ships (the toolchain has no
    static Swift Testing module, so the tests cannot be built that way). Each package is proved
    in copies of a fresh root of its release (debootstrap) by piuparts, autopkgtest and
    scripts/check-deb.sh, beside the builds."""
    asan = f"ATTESTATION_BIN={ASAN_BIN}"
    every = [
        Stage("lint", "swift format lint --recursive --strict Sources Tests Benchmarks Package.swift",
              summary="swift format lint (.swift-format)"),
        Stage("docs-layout",
              "python3 -m unittest discover -s Tests/Docs && python3 -m unittest discover -s Tests/Layout",
              summary="the documentation's links, modules and counts; where tests and scripts are"),
        Stage("debian13-root", "scripts/check-debian13.sh --prepare", summary="the Debian 13 root: debootstrap, the toolchain's and the README's packages"),
        Stage("browser-env", "scripts/browser-env.py", summary=".venv-browser (selenium, axe-core)"),
        Stage("asan-build",
              f"swift build --build-tests --sanitize=address --scratch-path {ASAN}",
              summary="every target under the address sanitizer (debug), the tests included"),
        Stage("deb12-root", "scripts/deb-root.sh --release 12 --root",
              summary="a fresh Debian 12 root for the package: debootstrap minbase, systemd (kept a week)"),
        Stage("deb13-root", "scripts/deb-root.sh --release 13 --root",
              summary="a fresh Debian 13 root for the package: debootstrap minbase, systemd (kept a week)"),
        Stage("debian13-build", "scripts/check-debian13.sh --build", needs=["debian13-root"],
              summary="Debian 13: debug with its tests; the two programs, release, with the Swift "
                      "runtime linked in, and their package (lintian, manual pages)"),
        Stage("release-build",
              f"swift build -c release --static-swift-stdlib --scratch-path {RELEASE} --product attestation-server && "
              f"swift build -c release --static-swift-stdlib --scratch-path {RELEASE} --product attestation-admin && "
              f"swift build -c release --static-swift-stdlib --scratch-path {RELEASE} --product attestation-bench",
              summary="attestation-server and attestation-admin, release, the Swift runtime linked in; "
                      "attestation-bench beside them"),
        Stage("deb12-package", f"scripts/build-deb.sh --bin {RELEASE_BIN} --out out/deb/debian12",
              needs=["release-build"],
              summary="the Debian 12 package of the release build: debhelper, lintian, manual pages"),
        Stage("swift-tests",
              f"swift test --skip-build --disable-xctest --sanitize=address --scratch-path {ASAN}",
              needs=["asan-build"],
              summary="every Swift suite under the address sanitizer"),
        Stage("swift-test-list",
              f"mkdir -p out/test && swift test list --skip-build --disable-xctest --sanitize=address --scratch-path {ASAN} "
              "> out/test/swift-test-list.txt && SWIFT_TEST_LIST=out/test/swift-test-list.txt "
              "python3 -m unittest discover -s Tests/Docs -p test_testing_doc.py",
              needs=["swift-tests"],  # SwiftPM runs one command at a time in a build folder
              summary="docs/testing.md's count of Swift tests against swift test list"),
        Stage("harness", f"{asan} python3 -m unittest discover -s scripts/harness", needs=["asan-build"],
              summary="the test harness's own tests"),
        Stage("fuzz-replay", f"{asan} scripts/fuzz-replay.sh", needs=["asan-build"],
              summary="the fuzz corpus and crash seeds, fresh, replayed under the address sanitizer"),
        Stage("deploy-proxies", f"{asan} scripts/check-deploy.sh nginx caddy tls compose",
              needs=["asan-build"],
              summary="nginx, Caddy, native TLS and compose files against the sanitized server"),
        Stage("deploy-sandbox", f"ATTESTATION_BIN={RELEASE_BIN} scripts/check-deploy.sh systemd",
              needs=["release-build"],
              summary="the systemd units: verify, exposure, seccomp and file-system sandbox, release server"),
        # Instructions, not times: callgrind's counts repeat on a busy machine. What a link prints
        # must cost about the same whatever the version in force (issue 37): one process renders
        # each built-in version's PDF once, then 10 times counted; more than 3× the cheapest fails.
        Stage("render-cost",
              f"BENCH={RELEASE_BIN}/attestation-bench Benchmarks/callgrind-per-render --max-ratio 3 10",
              needs=["release-build"],
              summary="instructions per PDF of every built-in version (callgrind): none over 3× the cheapest"),
        Stage("kubernetes", f"{asan} scripts/check-kubernetes.py", needs=["asan-build"],
              summary="the Kubernetes manifests against the API schemas and --check-config"),
        Stage("browser",
              f"{asan} PYTHONPATH=Tests/Browser {BROWSER_PYTHON} -m unittest -v "
              "$(cd Tests/Browser && ls test_*.py | grep -vx -e test_form_calendar.py -e test_context_hours.py | sed 's/[.]py$//')",
              needs=["asan-build", "browser-env"],
              summary="the pages in headless Chromium, but the calendar's"),
        Stage("browser-calendar",
              f"{asan} ATTESTATION_FAKETIME_BIN={RELEASE_BIN} PYTHONPATH=Tests/Browser "
              f"{BROWSER_PYTHON} -m unittest -v test_form_calendar test_context_hours",
              needs=["asan-build", "release-build", "browser-env"],
              summary="the pages across a change of form: servers at a 2020–2021 date under libfaketime, "
                      "release build"),
        Stage("stress-hostile", f"{asan} STRESS_HOSTILE_SCALE=small scripts/stress/stress-hostile.py",
              needs=["asan-build"], tokens=["load"], summary="hostile clients, small scale", retry=True),
        Stage("stress-fairness", f"{asan} STRESS_FAIRNESS_SCALE=small scripts/stress/stress-fairness.py",
              needs=["asan-build"], tokens=["load"], summary="a good client's share under floods, small scale", retry=True),
        Stage("stress-scaleout", f"{asan} STRESS_SCALEOUT_SECONDS=5 scripts/stress/stress-scaleout.sh",
              needs=["asan-build"], tokens=["load"], summary="two replicas behind nginx, 5 s", retry=True),
        Stage("debian13-check", "scripts/check-debian13.sh --check", needs=["debian13-build"],
              summary="Debian 13: the Swift suite, runtime packages, init, mint, a served PDF", retry=True),
    ]
    # Each package in copies of its release's fresh root: piuparts, autopkgtest (debian/tests), and
    # what the two do not check (scripts/check-deb.sh); side by side, none of them builds.
    for release, package in (("12", "deb12-package"), ("13", "debian13-build")):
        deb = f"out/deb/debian{release}/attestation-links_*.deb"
        needs = [f"deb{release}-root", package]
        every += [
            Stage(f"deb{release}-piuparts", f"scripts/deb-piuparts.sh --release {release} {deb}", needs=needs,
                  summary=f"piuparts on the Debian {release} package: install and purge; upgrade from an older "
                          "version, /etc/attestation kept; remove, purge"),
            Stage(f"deb{release}-autopkgtest", f"scripts/deb-autopkgtest.sh --release {release} {deb}", needs=needs,
                  summary=f"autopkgtest on the Debian {release} package (debian/tests, a chroot): the server as its "
                          "unit starts it, a link's PDF, a revoked link refused"),
            Stage(f"deb{release}-check", f"scripts/check-deb.sh --release {release} {deb}", needs=needs,
                  summary=f"the Debian {release} package, what the tools do not check: Depends, user, "
                          "/etc/attestation's modes, the units' verify and exposure, enabled; what the "
                          "maintainer scripts ask of systemd: start, restart on an upgrade, stop on a removal"),
        ]
    return every


DOC = os.path.join(REPO, "docs", "testing.md")
DOC_START = "<!-- stages: written by scripts/run-stages.py --doc from the last run; Tests/Docs checks them -->"
DOC_END = "<!-- end of stages -->"
TIMES = os.path.join(REPO, "out", "test", "times.json")
# How many recorded runs docs/testing.md lists the flaky stages of.
FLAKY_HISTORY = 6
FLAKY_START = "Stages that failed once, then passed on their second run (flaky), in the runs recorded:"


def doc_section(every, times):
    """docs/testing.md's table of the stages: what each does, what it waits for, and the start
    and duration of a recorded run (times: {"stages": {name: [start, seconds]}, "total": s,
    "note": text})."""
    lines = [DOC_START, "", "| stage | what it does | after | start | time | CPU |",
             "| --- | --- | --- | --- | --- | --- |"]

    def shown(value):
        return clock(value) if value is not None else "?"

    for stage in every:
        start, took, cpu = times["stages"].get(stage.name, (None, None, None))
        after = ", ".join(f"`{name}`" for name in stage.needs) or "-"
        lines.append(f"| `{stage.name}` | {stage.summary} | {after} | {shown(start)} | {shown(took)} | {shown(cpu)} |")
    lines += ["", f"The whole run: {shown(times['total'])}, {shown(times.get('cpu'))} of CPU ({times['note']}).", "",
              FLAKY_START, ""]
    for run_note, names in times.get("flaky_history", []):
        lines.append(f"- {run_note}: {', '.join(f'`{name}`' for name in names) if names else 'none'}")
    if not times.get("flaky_history"):
        lines.append("- none recorded yet")
    lines += ["", DOC_END]
    return "\n".join(lines)


def seconds(value):
    """A time as clock() writes it ("12:34"), in seconds; "?" is None."""
    if value == "?":
        return None
    minutes, rest = value.split(":")
    return int(minutes) * 60 + int(rest)


def doc_times(text):
    """The times written in docs/testing.md's table, as doc_section takes them."""
    section = text.split(DOC_START, 1)[1].split(DOC_END, 1)[0]
    stages_seen = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].startswith("`"):
            stages_seen[cells[0].strip("`")] = (seconds(cells[3]), seconds(cells[4]), seconds(cells[5]))
    total_line = [line for line in section.splitlines() if line.startswith("The whole run: ")][0]
    found = re.fullmatch(r"The whole run: (\S+), (\S+) of CPU \((.*)\)\.", total_line)
    history = []
    for line in section.split(FLAKY_START, 1)[1].splitlines() if FLAKY_START in section else []:
        entry = re.fullmatch(r"- (.*): (.*)", line.strip())
        if entry and line.strip() != "- none recorded yet":
            names = [] if entry.group(2) == "none" else [name.strip("` ") for name in entry.group(2).split(",")]
            history.append([entry.group(1), names])
    return {"stages": stages_seen, "total": seconds(found.group(1)), "cpu": seconds(found.group(2)),
            "note": found.group(3), "flaky_history": history}


def write_doc():
    """Rewrites the table of docs/testing.md from the last complete run (out/test/times.json)."""
    if os.path.exists(TIMES):
        with open(TIMES, encoding="utf-8") as handle:
            times = json.load(handle)
    else:
        times = {"stages": {}, "total": None, "cpu": None, "note": "no whole run recorded yet"}
    with open(DOC, encoding="utf-8") as handle:
        text = handle.read()
    # The flaky stages of this run join those of the runs the doc recorded already.
    history = doc_times(text).get("flaky_history", []) if DOC_START in text else []
    if "flaky" in times and not any(note == times["note"] for note, _ in history):
        history = [[times["note"], times["flaky"]]] + history
    times["flaky_history"] = history[:FLAKY_HISTORY]
    before, rest = text.split(DOC_START, 1)
    after = rest.split(DOC_END, 1)[1]
    with open(DOC, "w", encoding="utf-8") as handle:
        handle.write(before + doc_section(stages(), times) + after)
    print(f"run-stages: {os.path.relpath(DOC, REPO)} written from the run of {times['note']}.")
    return 0


# A stage that failed, then passed when run again: reported as such, not as a plain pass.
FLAKY = "FLAKY, ok on 2nd run"


def passed(stage):
    return stage.outcome is not None and (stage.outcome == "ok" or stage.outcome == FLAKY)


def clock(seconds):
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def print_tail(stage, everything):
    with open(stage.log.name, encoding="utf-8", errors="replace") as handle:
        lines = handle.read().splitlines()
    shown = lines if everything else lines[-TAIL:]
    if len(shown) < len(lines):
        print(f"  … ({len(lines) - len(shown)} lines before these in {os.path.relpath(stage.log.name, REPO)})")
    for line in shown:
        print(f"  {line}")


def failure_digest(stage):
    """The few lines of a failed stage's log that say why, and its last line."""
    with open(stage.log.name, encoding="utf-8", errors="replace") as handle:
        lines = [line.rstrip() for line in handle if line.strip()]
    why = [line for line in lines if WHY.search(line)][:WHY_LINES]
    if lines and lines[-1] not in why:
        why.append(lines[-1])
    return [line[:300] for line in why]


def stop_all(running):
    """SIGTERM to every running stage's process group (their own traps clean up: the Debian 13
    root's mounts, the servers the harness started), SIGKILL 30 s later."""
    for stage in running:
        try:
            os.killpg(stage.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 30
    for stage in running:
        try:
            stage.process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(stage.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def run(selected, log_dir):
    everything = os.environ.get("TEST_VERBOSE") == "1"
    os.makedirs(log_dir, exist_ok=True)
    start = time.monotonic()
    waiting = list(selected)
    running = []
    by_name = {stage.name: stage for stage in selected}
    held = set()

    def interrupted(number, _frame):
        print(f"\nSignal {number}: stopping {', '.join(stage.name for stage in running) or 'nothing'}.", flush=True)
        stop_all(running)
        sys.exit(128 + number)

    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    while waiting or running:
        for stage in list(waiting):
            needs = [by_name[name] for name in stage.needs if name in by_name]
            if any(need.outcome in ("FAILED", "not run") for need in needs):
                stage.outcome = "not run"
                waiting.remove(stage)
                failed_needs = ", ".join(need.name for need in needs if need.outcome != "ok")
                print(f"[{clock(time.monotonic() - start)}] {stage.name}: not run ({failed_needs} did not pass)",
                      flush=True)
                continue
            if any(need.outcome != "ok" for need in needs) or stage.tokens & held:
                continue
            stage.log = open(os.path.join(log_dir, f"{stage.name}.log"), "w", encoding="utf-8")
            stage.started = time.monotonic()
            if stage.first_started is None:
                stage.first_started = stage.started
            stage.process = subprocess.Popen(["bash", "-c", f"set -o pipefail; {stage.command}"], cwd=REPO,
                                             stdout=stage.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                             start_new_session=True)
            held |= stage.tokens
            waiting.remove(stage)
            running.append(stage)
            print(f"[{clock(stage.started - start)}] {stage.name}: started ({stage.command})", flush=True)
        time.sleep(0.2)
        for stage in list(running):
            pid, status, usage = os.wait4(stage.process.pid, os.WNOHANG)
            if pid == 0:
                continue
            stage.process.returncode = os.waitstatus_to_exitcode(status)
            stage.cpu = usage.ru_utime + usage.ru_stime
            stage.ended = time.monotonic()
            stage.log.close()
            stage.outcome = "ok" if stage.process.returncode == 0 else "FAILED"
            running.remove(stage)
            held -= stage.tokens
            print(f"[{clock(stage.ended - start)}] {stage.name}: {stage.outcome} in {clock(stage.ended - stage.started)}"
                  f" ({clock(stage.cpu)} of CPU)"
                  + ("" if stage.outcome == "ok" else f" (exit status {stage.process.returncode})"), flush=True)
            print_tail(stage, everything or stage.outcome != "ok")
            if stage.outcome == "FAILED" and stage.retry and stage.first_failure is None:
                stage.first_failure = failure_digest(stage)
                first_log = os.path.join(log_dir, f"{stage.name}.first.log")
                os.replace(stage.log.name, first_log)
                stage.first_cpu = stage.cpu
                stage.outcome = None
                waiting.append(stage)
                print(f"[{clock(time.monotonic() - start)}] {stage.name}: failed once, run again "
                      f"(first run's log: {os.path.relpath(first_log, REPO)})", flush=True)
    total = time.monotonic() - start
    for stage in selected:
        if stage.cpu is not None:
            stage.cpu += stage.first_cpu
        if stage.first_started is not None:
            stage.started = stage.first_started
        if stage.outcome == "ok" and stage.first_failure is not None:
            stage.outcome = FLAKY

    print()
    print(f"{'stage':<17} {'start':>6} {'time':>6} {'CPU':>6}  outcome")
    for stage in selected:
        began = clock(stage.started - start) if stage.started is not None else "-"
        took = clock(stage.ended - stage.started) if stage.ended is not None else "-"
        cpu = clock(stage.cpu) if stage.cpu is not None else "-"
        print(f"{stage.name:<17} {began:>6} {took:>6} {cpu:>6}  {stage.outcome}")
    cpu_total = sum(stage.cpu or 0 for stage in selected)
    print(f"{'make test':<17} {'':>6} {clock(total):>6} {clock(cpu_total):>6}  "
          + ("ok" if all(passed(stage) for stage in selected) else "FAILED"))
    load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"CPU: seconds used by each stage's processes; {os.cpu_count()} cores; load average now {load} "
          "(other work on the machine slows every stage).")
    failed = [stage.name for stage in selected if not passed(stage)]
    flaky = [stage.name for stage in selected if stage.outcome == FLAKY]
    print(f"Flaky: {len(flaky)} stage(s) failed once, then passed on their second run"
          + (f": {', '.join(flaky)}." if flaky else "."))
    for stage in selected:
        if stage.first_failure is not None and passed(stage):
            print(f"{stage.name} failed its first run ({os.path.relpath(log_dir, REPO)}/{stage.name}.first.log):")
            for line in stage.first_failure:
                print(f"  {line}")
    if not failed and len(selected) == len(stages()):
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                                text=True).stdout.strip() or "?"
        record = {
            "stages": {stage.name: [round(stage.started - start), round(stage.ended - stage.started),
                                    round(stage.cpu)] for stage in selected},
            "total": round(total),
            "cpu": round(cpu_total),
            "note": f"{time.strftime('%Y-%m-%d')}, commit {commit}, {os.cpu_count()} cores",
            "flaky": flaky,
        }
        os.makedirs(os.path.dirname(TIMES), exist_ok=True)
        with open(TIMES, "w", encoding="utf-8") as handle:
            json.dump(record, handle, indent=1)
        print(f"Times kept in {os.path.relpath(TIMES, REPO)}: scripts/run-stages.py --doc writes them "
              "into docs/testing.md.")
    if failed:
        for stage in selected:
            if stage.outcome == "FAILED":
                print(f"Why {stage.name} failed ({os.path.relpath(stage.log.name, REPO)}):")
                for line in failure_digest(stage):
                    print(f"  {line}")
        print(f"Failed or not run: {', '.join(failed)}; logs in {os.path.relpath(log_dir, REPO)}/.")
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="the stages and what each needs")
    parser.add_argument("--only", nargs="+", metavar="STAGE", help="these stages and what they need")
    parser.add_argument("--doc", action="store_true",
                        help="write docs/testing.md's table of the stages from the last complete run")
    parser.add_argument("--log-dir", default=os.path.join(REPO, "out", "test"))
    arguments = parser.parse_args()
    every = stages()
    by_name = {stage.name: stage for stage in every}
    if arguments.doc:
        return write_doc()
    if arguments.list:
        for stage in every:
            needs = f" (after {', '.join(stage.needs)})" if stage.needs else ""
            print(f"{stage.name:<17} {stage.summary}{needs}")
        return 0
    selected = every
    if arguments.only:
        unknown = [name for name in arguments.only if name not in by_name]
        if unknown:
            parser.error(f"unknown stage {', '.join(unknown)}; --list names them")
        wanted, pending = set(), list(arguments.only)
        while pending:
            name = pending.pop()
            if name not in wanted:
                wanted.add(name)
                pending.extend(by_name[name].needs)
        selected = [stage for stage in every if stage.name in wanted]
    return run(selected, os.path.abspath(arguments.log_dir))


if __name__ == "__main__":
    sys.exit(main())
