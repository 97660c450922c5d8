"""The harness's command line, for bash scripts: python3 scripts/harness COMMAND [OPTIONS]
(scripts/harness/harness.sh defines `harness` for it). Each command prints what it found on
standard output, one item a line, and fails with a message on standard error and status 1
(64 for a bad command line)."""

import argparse
import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import attestation_harness as harness  # noqa: E402


def json_value(text):
    """A --set value: JSON when it parses (8080, true, {"a": 1}, "quoted"), text otherwise."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def settings(pairs):
    """KEY.PATH=VALUE pairs of --set."""
    result = {}
    for pair in pairs or []:
        key, separator, value = pair.partition("=")
        if not separator:
            raise harness.HarnessError(f"--set {pair} : CLÉ=VALEUR attendu (server.port=8080, par exemple)")
        result[key] = json_value(value)
    return result


def fields(pairs):
    result = {}
    for pair in pairs or []:
        key, separator, value = pair.partition("=")
        if not separator:
            raise harness.HarnessError(f"--field {pair} : CLÉ=VALEUR attendu (status=410, par exemple)")
        result[key] = value
    return result


def command_bin_dir(options):
    print(harness.bin_dir(options.default))


def command_free_port(options):
    print(" ".join(str(port) for port in harness.free_ports(options.count)))


def command_people(options):
    sys.stdout.write(harness.people_tsv(harness.population(options.count, following=options.following)))


def command_init_site(options):
    site = harness.Site(options.directory, base_url=options.base_url)
    site.edit(settings(options.set))
    print(site.config)


def command_config(options):
    harness.edit_config(options.file, settings(options.set), options.delete, options.output)


def command_mint(options):
    arguments = list(options.arguments)
    if arguments and arguments[0] == "--":
        arguments = arguments[1:]
    if options.person:
        arguments = harness.PEOPLE[options.person].options + arguments
    for reason in options.reason or []:
        arguments += ["--reason", reason]
    links = harness.mint(options.config, arguments)
    for link in links:
        print(json.dumps(link.record, ensure_ascii=False) if options.print == "json" else link.field(options.print))


def command_wait_ready(options):
    ready = harness.wait_ready(options.stdout_file, pid=options.pid, log_path=options.log, timeout=options.timeout)
    values = dict(ready, base=ready["url"].rstrip("/"))
    print(" ".join(str(values[name]) for name in options.print.split(",")))


def command_wait_record(options):
    alive = (lambda: harness.process_alive(options.pid)) if options.pid else None
    record = harness.wait_for_record(options.log_file, options.message, fields(options.field), after=options.after,
                                     timeout=options.timeout, alive=alive)
    if record is None:
        shown = options.message or "(tout message)"
        raise harness.HarnessError(f"aucun enregistrement « {shown} » {fields(options.field) or ''} dans "
                                   f"{options.log_file} en {options.timeout} s")
    print(json.dumps(record, ensure_ascii=False))


def command_records(options):
    matching = [r for r in harness.log_records(options.log_file)[options.after:]
                if harness.record_matches(r, options.message, fields(options.field))]
    if options.count:
        print(len(matching))
    else:
        for record in matching:
            print(json.dumps(record, ensure_ascii=False))


def command_reload(options):
    record = harness.reload_outcome(options.log_file, lambda: os.kill(options.pid, signal.SIGHUP), timeout=options.timeout)
    if record is None:
        print(f"harness reload : PID {options.pid} n’a journalisé aucun résultat de rechargement en {options.timeout} s.",
              file=sys.stderr)
        return 2
    print(json.dumps(record, ensure_ascii=False))
    return 0 if record["message"] == harness.RELOADED else 1


def command_check_log(options):
    secrets = []
    for path in options.secrets_file or []:
        with open(path, encoding="utf-8") as file:
            secrets += [line.strip() for line in file if line.strip()]
    records = harness.log_records(options.log_file)
    problems = harness.log_problems(records, worst=options.worst, secrets=secrets)
    for record in records:
        if record.get("level") == "warning" and options.worst != "warning":
            continue
        if record.get("level") == "warning":
            print(f"harness check-log : avertissement : {json.dumps(record, ensure_ascii=False)[:300]}", file=sys.stderr)
    for problem in problems[:20]:
        print(problem)
    if len(problems) > 20:
        print(f"… {len(problems)} problèmes en tout")
    return 1 if problems else 0


def command_answers(options):
    for status, count in sorted(harness.answer_counts(options.base_url, options.route).items()):
        print(status, count)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog} : {message}\n")


def parser():
    top = Parser(prog="python3 scripts/harness", description=__doc__.split("\n\n")[0])
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name, function, text):
        sub = commands.add_parser(name, help=text, description=text)
        sub.set_defaults(function=function)
        return sub

    sub = command("bin-dir", command_bin_dir, "the directory of the built binaries (ATTESTATION_BIN, or the latest build)")
    sub.add_argument("--default", choices=["release", "debug"], help="when ATTESTATION_BIN is not set, this build")

    sub = command("free-port", command_free_port, "COUNT distinct free TCP ports on 127.0.0.1, on one line")
    sub.add_argument("count", nargs="?", type=int, default=1)

    sub = command("people", command_people, "COUNT fictitious people as a people CSV (tab separated), the same on every run")
    sub.add_argument("count", type=int)
    sub.add_argument("--following", action="store_true",
                     help="reasons for links that follow the calendar (no --form): codes the version in force carries on")

    sub = command("init-site", command_init_site,
                  "attestation-admin init in DIRECTORY, then the server object set (shutdownTimeout 5, JSON logs, "
                  "$ATTESTATION_PUBLIC as publicDirectory when set), then each --set; prints the configuration's path")
    sub.add_argument("directory")
    sub.add_argument("--base-url", default="http://127.0.0.1:8080")
    sub.add_argument("--set", action="append", metavar="KEY.PATH=VALUE",
                     help="a key of the configuration, server.port=8080 (the value is JSON when it parses, text otherwise)")

    sub = command("config", command_config,
                  "edits a JSON configuration file: --set KEY.PATH=VALUE, --delete KEY.PATH (a list's element: "
                  "keys.0, or keys.id=k1)")
    sub.add_argument("file")
    sub.add_argument("--set", action="append", metavar="KEY.PATH=VALUE", help="the value is JSON when it parses, text otherwise")
    sub.add_argument("--delete", action="append", default=[], metavar="KEY.PATH")
    sub.add_argument("-o", "--output", help="write here instead of FILE")

    sub = command("mint", command_mint,
                  "attestation-admin mint --format json; prints each link's token, url, page, id, name, or its JSON")
    sub.add_argument("--config", required=True)
    sub.add_argument("--print", choices=["token", "url", "page", "id", "name", "json"], default="token")
    sub.add_argument("--person", choices=sorted(harness.PEOPLE), help="a fictitious person of the harness")
    sub.add_argument("--reason", action="append")
    sub.add_argument("arguments", nargs=argparse.REMAINDER, help="-- then more options of attestation-admin mint (--csv FILE…)")

    sub = command("wait-ready", command_wait_ready,
                  "waits for the server's readiness line in STDOUT_FILE; prints its fields (--print port,base)")
    sub.add_argument("stdout_file")
    sub.add_argument("--pid", type=int, help="the server's process: fail at once when it ends")
    sub.add_argument("--log", help="the server's standard error, shown when it does not start")
    sub.add_argument("--timeout", type=float, default=30)
    sub.add_argument("--print", default="base", help="comma-separated: url, base (url without the final /), host, port, pid")

    sub = command("wait-record", command_wait_record, "waits for a log record that matches; prints it")
    sub.add_argument("log_file")
    sub.add_argument("--message")
    sub.add_argument("--field", action="append", metavar="KEY=VALUE")
    sub.add_argument("--after", type=int, default=0, help="only records after the first N")
    sub.add_argument("--pid", type=int, help="stop waiting when this process ends")
    sub.add_argument("--timeout", type=float, default=30)

    sub = command("records", command_records, "the log records that match, one JSON object a line (or --count)")
    sub.add_argument("log_file")
    sub.add_argument("--message")
    sub.add_argument("--field", action="append", metavar="KEY=VALUE")
    sub.add_argument("--after", type=int, default=0, help="only records after the first N")
    sub.add_argument("--count", action="store_true")

    sub = command("reload", command_reload,
                  "SIGHUP to PID, then waits for the outcome in its log: status 0 reloaded, 1 refused, 2 nothing logged")
    sub.add_argument("log_file")
    sub.add_argument("--pid", type=int, required=True)
    sub.add_argument("--timeout", type=float, default=30)

    sub = command("check-log", command_check_log,
                  "status 1, listing them, when the log has lines that are not records, records above --worst, "
                  "a query string or a line of --secrets-file; warnings are shown on standard error")
    sub.add_argument("log_file")
    sub.add_argument("--worst", choices=harness.LEVELS, default="warning", help="the highest level allowed")
    sub.add_argument("--secrets-file", action="append", help="one secret (token, name) a line")

    sub = command("answers", command_answers, "STATUS COUNT lines from the server's /metrics (http_requests_total)")
    sub.add_argument("base_url")
    sub.add_argument("--route")
    return top


def main():
    options = parser().parse_args()
    try:
        return options.function(options) or 0
    except harness.HarnessError as error:
        print(f"harness {options.command} : {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
