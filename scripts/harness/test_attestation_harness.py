"""Tests of the test harness itself: what scripts and tests rely on it to read right.

    python3 -m unittest discover -s scripts/harness -v      (make check and make test run it)

The server's tests start the built attestation-server and attestation-admin (ATTESTATION_BIN,
or the latest build); they are skipped, saying so, when neither is built.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import attestation_harness as harness  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)
    return path


class ReadingTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="harness-tests-")
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", self.directory], check=False))

    def test_the_readiness_line_gives_the_port_and_url(self):
        path = write(self.directory, "out", '{"event":"listening","host":"127.0.0.1","pid":7,"port":39385,'
                                            '"url":"http://127.0.0.1:39385/"}\n')
        ready = harness.read_readiness(path)
        self.assertEqual((ready["port"], ready["url"]), (39385, "http://127.0.0.1:39385/"))

    def test_a_readiness_line_not_yet_ended_is_not_read(self):
        path = write(self.directory, "out", '{"event":"listening","host":"127.0.0.1","pid":7,"port":1,"url":"http://127.0.0.1:1/"}')
        self.assertIsNone(harness.read_readiness(path))

    def test_other_output_is_not_readiness(self):
        for line in ["attestation-server : à l’écoute sur http://127.0.0.1:8080/", '{"event":"stopping"}', "[]"]:
            self.assertIsNone(harness.parse_readiness(line), line)

    def test_waiting_for_a_process_that_ended_fails_with_its_log(self):
        out = write(self.directory, "out", "")
        log = write(self.directory, "log", "configuration invalide : clé inconnue\n")
        process = subprocess.Popen(["true"])
        process.wait()
        with self.assertRaises(harness.HarnessError) as raised:
            harness.wait_ready(out, alive=lambda: process.poll() is None, log_path=log, timeout=30)
        self.assertIn("clé inconnue", str(raised.exception))

    def test_log_records_keep_other_lines_as_text_and_leave_a_partial_line(self):
        path = write(self.directory, "log", '{"level":"info","message":"listening"}\n'
                                            '==42==ERROR: AddressSanitizer: heap-use-after-free\n'
                                            '{"level":"info","mess')
        self.assertEqual(harness.log_records(path), [
            {"level": "info", "message": "listening"}, {"text": "==42==ERROR: AddressSanitizer: heap-use-after-free"}])

    def test_a_field_given_as_text_matches_a_number(self):
        record = {"message": "request", "route": "/attestation.pdf", "status": 410}
        self.assertTrue(harness.record_matches(record, "request", {"status": "410", "route": "/attestation.pdf"}))
        self.assertFalse(harness.record_matches(record, "request", {"status": "200"}))
        self.assertFalse(harness.record_matches(record, "listening"))

    def test_log_problems_name_crashes_errors_secrets_and_queries(self):
        records = [{"level": "info", "message": "request", "route": "/attestation.pdf", "status": 200},
                   {"level": "warning", "message": "static file left out"},
                   {"level": "error", "message": "reload refused, the previous configuration stays in force"},
                   {"text": "Segmentation fault"},
                   {"level": "info", "message": "request", "path": "/attestation.pdf?t=AQJrMb4Ixxx"}]
        problems = harness.log_problems(records, secrets=["AQJrMb4Ixxx", "abc"])
        self.assertEqual(len(problems), 4, problems)
        self.assertTrue(problems[0].startswith("error"), problems)
        self.assertIn("Segmentation fault", problems[1])
        self.assertIn("jeton", problems[2])
        self.assertIn("?t=", problems[3])
        self.assertEqual(harness.log_problems(records[:2]), [])

    def test_configuration_edits_reach_nested_keys_and_list_elements(self):
        path = write(self.directory, "config.json", json.dumps(
            {"keys": [{"id": "k1"}, {"id": "2027-01"}], "server": {"port": 8080, "tls": {"certificate": "a"}}}))
        harness.edit_config(path, {"server.tls.privateKey": "b", "server.host": "127.0.0.1"},
                            ["keys.id=k1", "server.port", "server.absent"])
        with open(path, encoding="utf-8") as file:
            self.assertEqual(json.load(file), {"keys": [{"id": "2027-01"}],
                                               "server": {"tls": {"certificate": "a", "privateKey": "b"}, "host": "127.0.0.1"}})
        with self.assertRaises(harness.HarnessError):
            harness.edit_config(path, deletions=["keys.id=k9"])

    def test_the_population_is_the_same_on_every_run_and_every_name_distinct(self):
        rows = harness.population(1600)
        self.assertEqual(rows, harness.population(1600))
        self.assertEqual(len({(row[0], row[1]) for row in rows}), 1600)
        self.assertEqual(sum("Nguyễn" in row[1] for row in rows), 40)
        self.assertTrue(all(len(row[5]) == 5 and row[5].isdigit() for row in rows))

    def test_free_ports_are_distinct_and_free(self):
        ports = harness.free_ports(8)
        self.assertEqual(len(set(ports)), 8)
        import socket
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", ports[0]))
        # Never a port the kernel may give an outgoing connection meanwhile.
        self.assertFalse(set(ports) & set(harness.ephemeral_ports()))

    def test_a_token_is_read_from_the_link_not_from_its_text(self):
        self.assertEqual(harness.token_of("https://a.example/attestation.pdf?offset=-20&t=AbC_d-9&reasons=x"), "AbC_d-9")
        with self.assertRaises(harness.HarnessError):
            harness.token_of("https://a.example/attestation.pdf?offset=-20")


def built():
    return all(os.access(os.path.join(harness.bin_dir(), program), os.X_OK) for program in harness.PROGRAMS)


@unittest.skipUnless(built(), f"attestation-server and attestation-admin are not built in {harness.bin_dir()}")
class ServerTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.site = harness.Site(prefix="harness-tests", server={"reloadOnChange": False})
        cls.link = cls.site.mint(harness.CAMILLE, ["travail"])

    @classmethod
    def tearDownClass(cls):
        cls.site.remove()

    def test_a_started_server_serves_the_link_logs_the_request_and_stops_with_0(self):
        with harness.Server.start(self.site.config) as server:
            self.assertEqual(server.ready["pid"], server.pid)
            status, content_type, body = harness.fetch(server.url("/attestation.pdf", self.link.token))
            self.assertEqual((status, content_type, body[:5]), (200, "application/pdf", b"%PDF-"))
            record = server.wait_for_record("request", {"route": "/attestation.pdf", "status": 200})
            self.assertIsNotNone(record, server.log_text())
            self.assertEqual(harness.answer_counts(server.base, "/attestation.pdf"), {200: 1})
            self.assertEqual(server.stop(), 0)
            self.assertEqual(server.log_problems(secrets=self.site.secrets), [])

    def test_reload_tells_a_reload_from_a_refusal(self):
        with harness.Server.start(self.site.config) as server:
            self.assertTrue(server.reload())
            revoked = os.path.join(self.site.directory, "revoked.txt")
            with open(revoked, encoding="utf-8") as file:
                kept = file.read()
            try:
                os.remove(revoked)  # a missing revocation list is refused, never loosened
                self.assertFalse(server.reload())
            finally:
                write(self.site.directory, "revoked.txt", kept)
            self.assertTrue(server.reload())
            self.assertEqual(server.stop(), 0)

    def test_a_server_that_cannot_start_is_a_clear_failure(self):
        broken = write(self.site.directory, "broken.json", "{}\n")
        with self.assertRaises(harness.HarnessError) as raised:
            harness.Server.start(broken)
        self.assertIn("s’est arrêté sans écouter", str(raised.exception))

    def test_the_command_line_waits_for_the_server_a_bash_script_started(self):
        directory = self.site.directory
        out, log = os.path.join(directory, "cli.out"), os.path.join(directory, "cli.log")
        with open(out, "w") as stdout, open(log, "w") as stderr:
            process = subprocess.Popen(harness.server_command(self.site.config), stdout=stdout, stderr=stderr)
        try:
            result = subprocess.run([sys.executable, HERE, "wait-ready", out, "--pid", str(process.pid), "--log", log,
                                     "--print", "port,base"], capture_output=True, text=True, timeout=60)
            port, base = result.stdout.split()
            self.assertEqual(base, f"http://127.0.0.1:{port}")
            reload = subprocess.run([sys.executable, HERE, "reload", log, "--pid", str(process.pid)],
                                    capture_output=True, text=True, timeout=60)
            self.assertEqual(reload.returncode, 0, reload.stderr)
            self.assertEqual(json.loads(reload.stdout)["message"], harness.RELOADED)
        finally:
            process.send_signal(signal.SIGTERM)
            self.assertEqual(process.wait(30), 0)


if __name__ == "__main__":
    unittest.main()
