"""The page as a triage tool, in the real browser (test_web.py's headless Chromium): reviews set
on the page and kept by `saturn check`, detection status across runs, filters in the URL, the
pictures, and the review API's protection against cross-site requests."""
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from werkzeug.serving import make_server

from summaries.web.app import create_app
from test_cli import ROOT, saturn
from test_web import _navigates, browser  # noqa: F401  (a fixture)

LOCKS = "#include <pthread.h>\npthread_mutex_t m;\n"
ONE = "void one(void) {\n  pthread_mutex_lock(&m);\n  if (m.__align)\n    pthread_mutex_lock(&m);\n}\n"
CALLER = "void top(void) { one(); }\n"
GOOD_B = "void two(void) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); }\n"
BAD_B = "void two(void) { pthread_mutex_lock(&m); pthread_mutex_lock(&m); }\n"
IGNORED = "void three(void) {\n  pthread_mutex_lock(&m);\n" \
          "  pthread_mutex_lock(&m); // saturn-ignore[lock.double-lock]\n}\n"
MARKUP = '<script>alert(1)</script><b id="bold">recursive</b>'


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("triage")
    (root / "src").mkdir()
    (root / "src" / "a.c").write_text(LOCKS + ONE + CALLER + IGNORED)
    (root / "b.c").write_text(LOCKS + GOOD_B)
    return root


def check(tree):
    return saturn("check", "--db", str(tree / "s.db"), "-j", "1", ".", cwd=str(tree))


@pytest.fixture(scope="module")
def server(tree):
    assert check(tree).returncode == 1
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = make_server("127.0.0.1", port, create_app(str(tree / "s.db")), threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{port}"
    srv.shutdown()


def _rows(browser):
    return {r.find_element(By.CSS_SELECTOR, "a.fn").text: r
            for r in browser.find_elements(By.CSS_SELECTOR, "#reports tr.report-row")}


def _filter(browser, name, text):
    Select(browser.find_element(By.ID, f"filter-{name}")).select_by_visible_text(text)
    _navigates(browser, browser.find_element(By.ID, "apply").click, f"{name}=")


def test_review_on_the_page_then_runs_find_new_and_resolved(tree, server, browser):
    browser.get(server + "/reports")
    row = _rows(browser)["one"]
    assert row.find_element(By.CSS_SELECTOR, ".det").text == "new"
    form = row.find_element(By.CSS_SELECTOR, "form.review-form")
    Select(form.find_element(By.NAME, "status")).select_by_visible_text("false-positive")
    form.find_element(By.NAME, "comment").send_keys(MARKUP)
    form.find_element(By.NAME, "author").send_keys("ann")
    form.find_element(By.CSS_SELECTOR, "button").click()
    WebDriverWait(browser, 20).until(lambda b: form.get_attribute("data-saved"))
    browser.get(server + "/reports?review=false-positive")
    row = _rows(browser)["one"]
    assert row.find_element(By.CSS_SELECTOR, ".review").text == "false-positive"
    assert row.find_element(By.CSS_SELECTOR, ".review-comment").text == MARKUP   # as text
    assert not browser.find_elements(By.ID, "bold") and "ann" in row.text
    # saturn check: known by its review, hidden, CI passes
    proc = check(tree)
    assert proc.returncode == 0, proc.stdout
    assert "one" not in proc.stdout and "1 reviewed as false positive" in proc.stdout
    # a new bug: `new`, picked with the detection filter (which lands in the URL)
    (tree / "b.c").write_text(LOCKS + BAD_B)
    assert check(tree).returncode == 1
    browser.get(server + "/reports")
    _filter(browser, "status", "new (1)")
    assert "status=new" in browser.current_url and list(_rows(browser)) == ["two"]
    # fixed: `resolved`, and the other report stays unresolved and reviewed
    (tree / "b.c").write_text(LOCKS + GOOD_B)
    assert check(tree).returncode == 0
    browser.get(server + "/reports")
    rows = _rows(browser)
    assert rows["two"].find_element(By.CSS_SELECTOR, ".det").text == "resolved"
    assert rows["one"].find_element(By.CSS_SELECTOR, ".det").text == "unresolved"
    assert rows["three"].find_element(By.CSS_SELECTOR, ".review").text == \
        "intentional (in source)"
    runs = [r["id"] for r in json.loads(saturn("runs", "--db", str(tree / "s.db"),
                                               "--format", "json").stdout)]
    browser.get(server + f"/reports?run={runs[1]}&path=b.c")   # a shared view of run 3
    assert list(_rows(browser)) == ["two"] and "new" in browser.find_element(
        By.CSS_SELECTOR, ".det").text
    assert Select(browser.find_element(By.ID, "filter-run")).first_selected_option \
        .get_attribute("value") == str(runs[1])


def test_filters_show_counts_and_directories(server, browser):
    browser.get(server + "/reports")
    options = [o.text for o in Select(browser.find_element(By.ID, "filter-kind")).options]
    assert any(re.fullmatch(r"lock\.double-lock \(\d+\)", o) for o in options)
    _navigates(browser, [a for a in browser.find_elements(By.CSS_SELECTOR, "a.dir")
                         if a.text == "src/"][0].click, "path=src")
    assert {r.find_element(By.CSS_SELECTOR, ".file").text.split(":")[0]
            for r in browser.find_elements(By.CSS_SELECTOR, "tr.report-row")} == {"src/a.c"}


def test_bug_path_on_the_source_and_call_graph(server, browser):
    browser.get(server + "/f/one")
    steps = browser.find_elements(By.CSS_SELECTOR, ".report-box ol.notes li")
    assert [s.find_element(By.CSS_SELECTOR, ".step").text for s in steps] == ["1", "2", "3", "4"]
    marks = browser.find_elements(By.CSS_SELECTOR, "#source .step-mark")
    where = {m.find_element(By.CSS_SELECTOR, ".step").text:
             (m.find_element(By.XPATH, "..").get_attribute("id"), m.text) for m in marks}
    assert where["3"] == ("L5", "3 'm.__align' is true")   # the branch taken, beside its line
    assert where["4"][0] == "L6" and "acquires m" in where["4"][1]
    steps[3].find_element(By.CSS_SELECTOR, "a.to-source").click()
    assert browser.current_url.endswith("#src-r1-s4")
    marks[0].click()
    assert browser.current_url.endswith("#r1-s1")   # and back
    nodes = browser.find_elements(By.CSS_SELECTOR, "#callgraph svg g.node")
    assert sorted(n.find_element(By.CSS_SELECTOR, "text").text for n in nodes) == \
        ["one (1)", "pthread_mutex_lock", "top"]
    linked = browser.find_elements(By.CSS_SELECTOR, "#callgraph svg g.node a[*|href]")
    assert len(linked) == 2   # pthread_mutex_lock has no body here: no page
    link = browser.find_element(By.CSS_SELECTOR, "#callgraph svg a[*|title='top']")
    _navigates(browser, link.click, "/f/top")
    assert browser.find_element(By.ID, "name").text == "top"


def test_overview_charts(server, browser):
    browser.get(server + "/overview")
    kinds = browser.find_element(By.ID, "per-kind").text
    assert "lock.double-lock" in kinds
    assert browser.find_elements(By.CSS_SELECTOR, "#runs-chart rect.new")
    assert "§" not in browser.page_source
    assert "functions analysed" in browser.find_element(By.ID, "overview").text


def _token(client):
    page = client.get("/reports").get_data(as_text=True)
    return re.search(r'name="saturn-token" content="([^"]+)"', page).group(1)


def test_review_api_refuses_cross_site_requests(tree, server):
    app = create_app(str(tree / "s.db"))
    client = app.test_client()
    fp = client.get("/api/reports").get_json()["reports"][0]["fingerprint"]
    body = json.dumps({"fingerprint": fp, "status": "confirmed", "comment": "x"})
    good = {"Origin": "http://localhost", "X-Saturn-Token": _token(client),
            "Content-Type": "application/json"}
    for headers, status in ((dict(good, **{"X-Saturn-Token": "forged"}), 403),
                            ({k: v for k, v in good.items() if k != "X-Saturn-Token"}, 403),
                            (dict(good, Origin="http://evil.example"), 403),
                            ({k: v for k, v in good.items() if k != "Origin"}, 403),
                            (dict(good, **{"Content-Type": "text/plain"}), 400)):
        resp = client.post("/api/review", data=body, headers=headers)
        assert resp.status_code == status and resp.is_json, headers
        assert resp.get_json()["status"] == status
    assert client.get("/api/reports?review=confirmed").get_json()["total"] == 0
    resp = client.post("/api/review", data=body, headers=good)
    assert resp.status_code == 200 and resp.get_json()["review"]["status"] == "confirmed"
    assert [r["fingerprint"] for r in
            client.get("/api/reports?review=confirmed").get_json()["reports"]] == [fp]
    bad = client.post("/api/review", headers=good,
                      data=json.dumps({"fingerprint": fp, "status": "<i>wontfix</i>"}))
    assert bad.status_code == 400 and "status must be one of" in bad.get_json()["error"]
    client.post("/api/review", data=json.dumps({"fingerprint": fp, "status": "unreviewed"}),
                headers=good)
    read_only = create_app(str(tree / "s.db"), read_only=True).test_client()
    resp = read_only.post("/api/review", data=body,
                          headers=dict(good, **{"X-Saturn-Token": _token(read_only)}))
    assert resp.status_code == 403 and "read-only" in resp.get_json()["error"]
    assert b"review-form" not in read_only.get("/reports").data
    assert client.get("/api/reports?run=x").get_json()["status"] == 400


def test_markup_in_function_keys_stays_text_in_the_call_graph(tmp_path):
    from summaries.store import Store
    store = Store(str(tmp_path / "s.db"))
    evil = '<img src=x onerror=alert(1)>".c:f'
    store.put([(key, "lock", key.rsplit(":", 1)[-1], key.rsplit(":", 1)[0], 1, "", "t", {},
                "ok", [], [], 0.0) for key in (evil, "g")])
    store.record_run(str(tmp_path), [("g", evil)])
    store.close()
    page = create_app(str(tmp_path / "s.db")).test_client().get("/f/g").get_data(as_text=True)
    graph = page[page.index('id="callgraph"'):page.index("</svg>")]
    assert "<img" not in graph and "&lt;img src=x onerror=alert(1)&gt;" in graph
    assert 'href="/f/%3Cimg' in graph


def test_saturn_serve_read_only_refuses_reviews(tree, server):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "saturn", "serve", "--read-only", "--db",
                             str(tree / "s.db"), "--port", str(port)], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=ROOT), stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                page = urllib.request.urlopen(base + "/reports").read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
        token = re.search(r'name="saturn-token" content="([^"]+)"', page).group(1)
        request = urllib.request.Request(
            base + "/api/review", method="POST",
            data=json.dumps({"fingerprint": "f", "status": "confirmed"}).encode(),
            headers={"Origin": base, "X-Saturn-Token": token,
                     "Content-Type": "application/json"})
        try:
            urllib.request.urlopen(request)
            raise AssertionError("a read-only server took a review")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403 and "read-only" in json.load(exc)["error"]
        assert "review-form" not in page
    finally:
        proc.terminate()
        proc.wait(timeout=30)
