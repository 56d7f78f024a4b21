# SPDX-License-Identifier: GPL-3.0-or-later
"""Open the reports in headless Chromium (Debian's chromium and chromium-driver, driven by
selenium) and check what a reader would see: no console error, every image and link there,
every reproduced cell shown, the table views switching, a report's claims table without an empty
column and within the page at its width, no page wider than a narrow screen, nothing fetched from
the network. Saves full-page screenshots."""
from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")


def have_browser() -> bool:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return False
    return CHROMIUM is not None and DRIVER is not None


def _driver(width: int, height: int):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                f"--window-size={width},{height}", "--allow-file-access-from-files"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def screenshot(driver, path: Path, width: int) -> None:
    """The whole page at ``width`` px: the window grown to the document's height first."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(max(height, 600), 20000))
    driver.save_screenshot(str(path))


def check_page(driver, page: Path) -> list[str]:
    """Problems a reader would meet on ``page`` (empty: none)."""
    from selenium.webdriver.common.by import By

    problems = []
    name = f"{page.parent.name}/{page.name}"
    driver.get(page.resolve().as_uri())
    for entry in driver.get_log("browser"):
        if entry.get("level") == "SEVERE":
            problems.append(f"{name}: console: {entry.get('message')}")
    for img in driver.find_elements(By.TAG_NAME, "img"):
        if not driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", img):
            problems.append(f"{name}: image not shown: {img.get_attribute('src')}")
    for tag, attr in (("a", "href"), ("img", "src"), ("link", "href"), ("script", "src")):
        for el in driver.find_elements(By.TAG_NAME, tag):
            url = el.get_attribute(attr)
            if not url:
                continue
            parsed = urlparse(url)
            if parsed.scheme in ("http", "https"):
                if tag != "a":  # a link to a web page is fine; loading a resource from one is not
                    problems.append(f"{name}: loads from the network: {url}")
            elif parsed.scheme == "file" and not Path(unquote(parsed.path)).exists():
                problems.append(f"{name}: broken {tag}: {url}")
            elif parsed.scheme == "file" and parsed.fragment:
                target = (
                    driver.find_elements(By.ID, parsed.fragment)
                    if Path(unquote(parsed.path)) == page.resolve()
                    else [1]
                )
                if not target:
                    problems.append(f"{name}: no anchor #{parsed.fragment}")
    # a report's claims table: no empty column, and at the page's width it fits its box (no sideways scroll)
    for table in driver.find_elements(By.CSS_SELECTOR, "table.claims"):
        empty = driver.execute_script(
            "const rows = [...arguments[0].rows].slice(1);"
            "return [...arguments[0].rows[0].cells].map((h, i) => rows.every(r => !r.cells[i] ||"
            " r.cells[i].innerText.trim() === '') ? h.innerText : null).filter(x => x !== null);", table)
        if empty:
            problems.append(f"{name}: the claims table has empty columns {empty}")
        box = driver.execute_script("const b = arguments[0].parentElement; return [b.scrollWidth, b.clientWidth]",
                                    table)
        if box[0] > box[1] + 1:
            problems.append(f"{name}: the claims table is {box[0]} px wide in a {box[1]} px box")
    for table in driver.find_elements(By.CSS_SELECTOR, "table.cells"):
        shown = [s.text for s in table.find_elements(By.CSS_SELECTOR, ".ours")]
        if not shown or all(t in ("", "not computed") for t in shown):
            problems.append(f"{name}: a table with no reproduced cell")
    # every table's views switch: (view, shown, hidden) for the first cell of each table
    expected = {
        "v-ours": ({"ours"}, {"pub", "diff"}),
        "v-pub": ({"pub"}, {"ours", "diff"}),
        "v-diff": ({"diff"}, {"ours", "pub"}),
        "v-both": ({"ours", "pub"}, {"diff"}),
    }
    for k, view in enumerate(driver.find_elements(By.CSS_SELECTOR, ".view")):
        driver.execute_script("arguments[0].scrollIntoView()", view)
        spans = {c: view.find_element(By.CSS_SELECTOR, f".{c}") for c in ("ours", "pub", "diff")}
        for button, (shown, hidden) in expected.items():
            view.find_element(By.CSS_SELECTOR, f"input.{button}").click()
            if (not all(spans[c].is_displayed() for c in shown)) or any(spans[c].is_displayed() for c in hidden):
                problems.append(f"{name}: table {k + 1}: the {button[2:]!r} view does not switch")
    return problems


def check_pages(results: Path, shots: Path, narrow: int = 400, wide: int = 1280) -> list[str]:
    """Every page under ``results`` (the index, the claims page, each report and run page) at ``wide`` px, then
    at ``narrow`` px; screenshots ``shots/{paper}_{page}.png`` of each at ``wide`` px."""
    shots.mkdir(parents=True, exist_ok=True)
    pages = sorted(results.glob("*.html")) + sorted(
        results.glob("*/*.html")
    )  # the index, the claims page, each paper's
    problems = []
    driver = _driver(wide, 900)
    try:
        for page in pages:
            problems += check_page(driver, page)
            name = page.stem if page.parent == results else f"{page.parent.name}_{page.stem}"
            screenshot(driver, shots / f"{name}.png", wide)
            driver.set_window_size(wide, 900)
        driver.set_window_size(narrow, 900)
        for page in pages:
            driver.get(page.resolve().as_uri())
            width, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            if width > inner + 1:
                problems.append(f"{page.parent.name}/{page.name}: {width} px wide on a {inner} px screen")
    finally:
        driver.quit()
    return problems


if __name__ == "__main__":
    # check a real run's pages: python tests/browser_check.py results/ [screenshots/]
    import sys

    found = check_pages(Path(sys.argv[1]), Path(sys.argv[2] if len(sys.argv) > 2 else "browser-screenshots"))
    print("\n".join(found) or "no problems")
    sys.exit(1 if found else 0)
