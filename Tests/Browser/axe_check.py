"""axe-core on the page the browser shows, light and dark: the serious and critical violations,
for tests that check a state reached on the way (offline, an error page) rather than a page
test_accessibility.py opens."""

from axe_selenium_python import Axe


def axe_results(driver):
    """axe-core's results on the page the driver shows. axe-core gets 300 s, not the driver's
    30: on /licenses (51 licence texts) it takes about 5 s on an idle machine, and a loaded make
    test once ran it past 30 s ("script timeout"); a scan that hangs still ends."""
    axe = Axe(driver)
    axe.inject()
    driver.set_script_timeout(300)
    try:
        return axe.run()
    finally:
        driver.set_script_timeout(30)


def serious_violations(browser):
    """A readable list of axe-core's serious and critical violations, in both colour schemes
    (the browser is left in the scheme it had)."""
    found = []
    dark = browser.dark
    for scheme in (dark, not dark):
        browser.set_dark(scheme)
        # The buttons' colours ease into the new scheme (CSS transitions): axe-core measured
        # mid-way contrasts (all the secondary buttons in dark mode, once in two runs).
        browser.wait(lambda: browser.driver.execute_script(
            "return document.getAnimations().every(a => a.playState !== 'running')"),
            message="transitions still running after the colour scheme changed")
        results = axe_results(browser.driver)
        if not results["passes"]:
            found.append("axe-core checked nothing")
        for violation in results["violations"]:
            if violation.get("impact") in ("serious", "critical"):
                targets = "; ".join(" ".join(map(str, node["target"])) for node in violation["nodes"])
                found.append(f"{'dark' if scheme else 'light'}: {violation['id']} ({violation['impact']}): "
                             f"{violation['help']} [{targets}]")
    browser.set_dark(dark)
    return found
