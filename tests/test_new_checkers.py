"""The free and resource checkers from the command line: the users' own release functions and
resource pairs in saturn.toml, bad values refused in one line, and a database an older Saturn
made refused with what to do."""
import json
import sqlite3

from test_cli import saturn

PROGRAM = """\
#include <stdlib.h>
typedef struct handle handle_t;
handle_t *hopen(const char *name);
void hclose(handle_t *h);
void my_release(void *p);

void unclosed(void) {
    handle_t *h = hopen("x");
    (void)h;
}
void ok_closed(void) {
    handle_t *h = hopen("x");
    if (h) hclose(h);
}
void twice(void) {
    char *p = malloc(4);
    my_release(p);
    my_release(p);
}
"""


def _reports(proc):
    return sorted((r["line"], r["kind"]) for r in json.loads(proc.stdout)["reports"])


def test_users_resource_pairs_and_release_functions(tmp_path):
    (tmp_path / "t.c").write_text(PROGRAM)
    proc = saturn("check", "--no-db", "--format", "json", "--checkers", "free,resource", "t.c",
                  cwd=str(tmp_path))
    assert proc.returncode == 0 and _reports(proc) == [], proc.stderr   # not known yet
    (tmp_path / "saturn.toml").write_text(
        'free = ["my_release"]\n[[resource]]\nacquire = "hopen"\nrelease = "hclose"\n')
    proc = saturn("check", "--no-db", "--format", "json", "--checkers", "free,resource", "t.c",
                  cwd=str(tmp_path))
    assert proc.returncode == 1, proc.stderr
    assert _reports(proc) == [(8, "resource.leak"), (18, "memory.double-free")]


def test_bad_resource_entries(tmp_path):
    (tmp_path / "t.c").write_text(PROGRAM)
    (tmp_path / "saturn.toml").write_text('[[resource]]\nacquire = 3\n')
    proc = saturn("check", "--no-db", "t.c", cwd=str(tmp_path))
    assert proc.returncode == 2 and proc.stderr.strip() == (
        "saturn: error: saturn.toml: resource entry 1: 'acquire' must be a function's name, "
        "not 3")
    (tmp_path / "saturn.toml").write_text('[[resource]]\nrelease = "hclose"\narg = -1\n'
                                          '[[resource]]\nacquire = "hopen"\nclose = "x"\n')
    proc = saturn("check", "--no-db", "--checkers", "resource", "t.c", cwd=str(tmp_path))
    assert proc.stderr.splitlines()[:2] == [
        "saturn.toml: warning: resource entry 1 ignored: arg = -1 is not an argument",
        "saturn.toml: warning: resource entry 2: unknown key 'close' ignored (known: acquire, "
        "arg, release)"]
    assert proc.returncode == 1   # the second entry still applies: `unclosed` leaks


def test_a_database_of_an_older_saturn_is_refused(tmp_path):
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.execute("INSERT INTO meta VALUES ('schema', '4')")
    con.commit()
    con.close()
    (tmp_path / "t.c").write_text(PROGRAM)
    for args in (("check", "--db", str(db), "t.c"), ("summary", "twice", "--db", str(db))):
        proc = saturn(*args, cwd=str(tmp_path))
        assert proc.returncode == 2 and proc.stderr.strip() == (
            f"saturn: error: {db}: made by an older Saturn (schema version 4, this one reads 5); "
            "delete it to start again, or give another --db")
    tables = sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type='table'")
    assert [t for (t,) in tables] == ["meta"]   # left as it was
