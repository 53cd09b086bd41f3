"""`saturn serve` in a real headless browser (Debian's chromium + chromedriver, installed by
scripts/test.sh), plus the security properties: escaping and no paths outside the database."""
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from werkzeug.serving import make_server

from test_cli import HERE, ROOT, saturn
from summaries import queries
from summaries.web.app import create_app

XSS = "<img src=x onerror=alert(1)>"
SHOTS = os.path.join(os.path.dirname(HERE), "tests", "artifacts")


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    tree = tmp_path_factory.mktemp("web")
    shutil.copytree(os.path.join(HERE, "c", "lock"), tree / "lock")
    (tree / "xss.c").write_text(
        "#include <pthread.h>\npthread_mutex_t m;\n"
        f'void shout(void) {{ const char *s = "{XSS}"; (void)s;\n'
        "  pthread_mutex_lock(&m);\n  pthread_mutex_lock(&m);\n}\n")
    # A static function in a header outside the root: its key (and URL) starts with '/'.
    outside = tmp_path_factory.mktemp("outside")
    (outside / "guard.h").write_text(
        "#include <pthread.h>\n"
        "static inline void guard_take(pthread_mutex_t *l) { pthread_mutex_lock(l); }\n")
    (tree / "guarded.c").write_text(
        '#include "guard.h"\npthread_mutex_t gm;\nvoid guarded_entry(void) { guard_take(&gm); }\n')
    # A function analysed from another --root first: its page still shows its source.
    older = tmp_path_factory.mktemp("older")
    (older / "legacy.c").write_text("int legacy_only(int x) { return x * 7; }\n")
    path = str(tree / "s.db")
    proc = saturn("check", "--db", path, ".", cwd=str(older))
    assert proc.returncode == 0, proc.stderr
    proc = saturn("check", "--db", path, "-I", str(outside), ".", cwd=str(tree))
    assert proc.returncode == 1, proc.stderr
    return path


@pytest.fixture(scope="module")
def server(db):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = make_server("127.0.0.1", port, create_app(db), threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    srv.shutdown()


@pytest.fixture(scope="module")
def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,1600"):
        opts.add_argument(flag)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    drv = webdriver.Chrome(service=service, options=opts)
    yield drv
    drv.quit()


def _navigates(browser, action, url_part):
    """Do something that loads a page, then wait until the new page is there."""
    action()
    WebDriverWait(browser, 20).until(lambda b: url_part in b.current_url and
                                     b.execute_script("return document.readyState") == "complete")


def test_search_open_follow_callee_and_read_notes(server, browser):
    browser.get(server + "/")
    box = browser.find_element(By.ID, "q")
    box.send_keys("sscape_coproc")
    _navigates(browser, browser.find_element(By.ID, "go").click, "q=sscape_coproc")
    links = browser.find_elements(By.CSS_SELECTOR, "#results a.fn")
    assert [a.text for a in links] == ["sscape_coproc_close"]
    _navigates(browser, links[0].click, "/f/")
    assert browser.find_element(By.ID, "name").text == "sscape_coproc_close"
    notes = [li.text for li in browser.find_elements(By.CSS_SELECTOR, ".report-box li")]
    assert any("acquires devc->lock" in n for n in notes)
    assert browser.find_elements(By.CSS_SELECTOR, "#source .report")
    os.makedirs(SHOTS, exist_ok=True)
    assert browser.save_screenshot(os.path.join(SHOTS, "function-page.png"))
    callee = browser.find_element(By.CSS_SELECTOR, "#callees a.callee")
    _navigates(browser, callee.click, "sscape_write")
    assert browser.find_element(By.ID, "name").text == "sscape_write"
    assert "[locked -> error (acquire)]" in browser.find_element(By.ID, "summary").text


def test_filters_reports_and_overview_pages(server, browser):
    browser.get(server + "/?lock_wrapper=1")
    names = {a.text for a in browser.find_elements(By.CSS_SELECTOR, "#results a.fn")}
    assert "my_lock" in names and "ok_correlated" not in names
    browser.get(server + "/reports")
    assert "lock.double-lock" in browser.page_source
    browser.get(server + "/overview")
    assert "lock wrapper" in browser.find_element(By.ID, "overview").text


def test_source_is_escaped_in_the_browser(server, browser):
    browser.get(server + "/?q=shout")
    _navigates(browser, browser.find_element(By.CSS_SELECTOR, "#results a.fn").click, "shout")
    assert XSS in browser.find_element(By.ID, "source").text
    assert not browser.find_elements(By.CSS_SELECTOR, "#source img")


def test_paths_outside_the_database_get_nothing(db):
    client = create_app(db).test_client()
    for url in ("/f/../../etc/passwd", "/api/source/../../etc/passwd",
                "/api/source/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/static/../../../etc/passwd"):
        resp = client.get(url)
        assert resp.status_code == 404 and b"root:" not in resp.data
    assert client.get("/api/search?q=my_lock").get_json()[0]["name"] == "my_lock"


def test_serve_binds_loopback_by_default():
    out = saturn("serve", "--help").stdout
    assert "default 127.0.0.1" in out


def test_a_static_function_of_a_header_outside_the_root_opens(server, browser):
    browser.get(server + "/?q=guarded_entry")
    _navigates(browser, browser.find_element(By.CSS_SELECTOR, "#results a.fn").click, "/f/")
    callee = browser.find_element(By.CSS_SELECTOR, "#callees a.callee")
    assert callee.text.startswith("/") and callee.text.endswith("guard.h:guard_take")
    _navigates(browser, callee.click, "guard_take")
    assert browser.find_element(By.ID, "name").text == "guard_take"
    assert "[unlocked -> locked]" in browser.find_element(By.ID, "summary").text


def test_a_function_from_a_run_at_another_root_shows_its_source(server, browser):
    browser.get(server + "/?q=legacy_only")
    _navigates(browser, browser.find_element(By.CSS_SELECTOR, "#results a.fn").click, "/f/")
    assert "return x * 7;" in browser.find_element(By.ID, "source").text


def _names(browser):
    return {a.text for a in browser.find_elements(By.CSS_SELECTOR, "#results a.fn")}


def test_has_reports_yes_and_no_are_opposite_filters(server, browser):
    from selenium.webdriver.support.ui import Select
    browser.get(server + "/")
    everything = _names(browser)
    complete = len(browser.find_elements(By.CSS_SELECTOR, "#results a.fn")) < queries.LIMIT
    for choice in ("yes", "no"):
        browser.get(server + "/")
        Select(browser.find_element(By.ID, "filter-has_reports")).select_by_visible_text(choice)
        _navigates(browser, browser.find_element(By.ID, "go").click, "has_reports=")
        assert Select(browser.find_element(By.ID, "filter-has_reports")) \
            .first_selected_option.text == choice
        shown = _names(browser)
        links = {a.get_attribute("href")
                 for a in browser.find_elements(By.CSS_SELECTOR, "#results a.fn")}
        counts = {int(td.text) for td in
                  browser.find_elements(By.CSS_SELECTOR, "#results tr td:nth-child(3)")}
        assert shown and (counts == {0} if choice == "no" else 0 not in counts)
        if choice == "yes":
            with_reports, linked_with_reports = shown, links
    assert "shout" in with_reports and "legacy_only" in shown
    # (by page: the test programs define some names twice, NOTE [linking])
    assert linked_with_reports.isdisjoint(links)
    if complete:   # the unfiltered page lists every function
        assert with_reports | shown <= everything
    for name in sorted(with_reports | shown)[:40]:   # else: each is a function the search finds
        with urllib.request.urlopen(f"{server}/api/search?q={name}") as resp:
            assert name in {r["name"] for r in json.load(resp)}


def test_every_api_error_is_json_with_its_status(db):
    client = create_app(db).test_client()
    for url, status in (("/api/nosuch", 404), ("/api/function/no_such_function", 404),
                        ("/api/source/no_such_function", 404),
                        ("/api/search?has_reports=maybe", 400)):
        resp = client.get(url)
        assert resp.status_code == status and resp.is_json, url
        assert resp.get_json()["status"] == status and resp.get_json()["error"]
    resp = client.post("/api/search")
    assert resp.status_code == 405 and resp.get_json()["status"] == 405
    assert client.get("/api/search?has_reports=0&q=shout").get_json() == []
    assert [r["name"] for r in client.get("/api/search?has_reports=1&q=shout").get_json()] \
        == ["shout"]
    assert client.get("/nosuch").status_code == 404   # a page: HTML
    assert not client.get("/nosuch").is_json


def test_saturn_serve_runs_a_production_server(db):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "saturn", "serve", "--db", db, "--port",
                             str(port)], cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/overview") as resp:
                    assert json.load(resp)["functions"] > 0
                    assert resp.headers["Server"] == "waitress"
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
    finally:
        proc.terminate()
        err = proc.communicate(timeout=30)[1]
    assert "development server" not in err and "Traceback" not in err
    with socket.socket() as busy:   # a port already taken: one line, exit 2
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        proc = saturn("serve", "--db", db, "--port", str(busy.getsockname()[1]))
    assert proc.returncode == 2 and "cannot serve on" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert "--port must be between 1 and 65535" in saturn("serve", "--db", db, "--port",
                                                           "70000").stderr
