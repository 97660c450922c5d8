"""The systemd units are kept twice, and must stay one unit: the Debian package's,
debian/attestation-links.attestation-server.service and its template
attestation-server@.service, which dh_installsystemd installs with the programs in /usr/bin,
and docs/deploy/'s, for a hand install (docs/deployment.md, section 4), whose programs go to
/usr/local/bin since /usr/bin is the package manager's. From [Unit] on, each pair is the same but
for that folder: a hardening line changed in one only, or a path left behind, fails here. Their
headers differ (each says how it is installed). scripts/check-deploy.sh checks docs/deploy's
(verify, exposure, seccomp, sandbox), scripts/check-deb.sh the package's in each Debian release.

    python3 -m unittest discover -s Tests/Layout      (make check, make test)

Standard library only."""

import difflib
import os
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
UNITS = ("attestation-server.service", "attestation-server@.service")


def from_unit_section(path):
    with open(os.path.join(REPO, path), encoding="utf-8") as handle:
        text = handle.read()
    return text[text.index("\n[Unit]\n") + 1:]


class UnitCopyTests(unittest.TestCase):
    def test_the_package_units_are_docs_deploys_but_for_usr_bin(self):
        for unit in UNITS:
            with self.subTest(unit=unit):
                package = from_unit_section(f"debian/attestation-links.{unit}")
                by_hand = from_unit_section(f"docs/deploy/{unit}").replace("/usr/local/bin/", "/usr/bin/")
                self.maxDiff = None
                difference = "".join(difflib.unified_diff(by_hand.splitlines(True), package.splitlines(True),
                                                          f"docs/deploy/{unit} (/usr/bin)",
                                                          f"debian/attestation-links.{unit}"))
                self.assertEqual(difference, "", f"the two copies of {unit} differ:\n{difference}")

    def test_each_copy_names_its_own_folder(self):
        for unit in UNITS:
            with self.subTest(unit=unit):
                package = from_unit_section(f"debian/attestation-links.{unit}")
                by_hand = from_unit_section(f"docs/deploy/{unit}")
                self.assertNotIn("/usr/local/", package, f"debian/attestation-links.{unit}")
                self.assertIn("ExecStart=/usr/bin/attestation-server ", package)
                self.assertNotIn("/usr/bin/attestation-", by_hand, f"docs/deploy/{unit}")
                self.assertIn("ExecStart=/usr/local/bin/attestation-server ", by_hand)


if __name__ == "__main__":
    unittest.main()
