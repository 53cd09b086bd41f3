"""`saturn serve` in a real headless browser (Debian's chromium + chromedriver, installed by
scripts/test.sh), plus the security properties: escaping and no paths outside the database."""
import os
import shutil
import socket
import threading

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from werkzeug.serving import make_server

from test_cli import HERE, saturn
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
    path = str(tree / "s.db")
    proc = saturn("check", "--db", path, ".", cwd=str(tree))
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
