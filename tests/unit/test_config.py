"""The configuration file (saturn/app/config.py): saturn.toml, or [tool.saturn] in pyproject.toml."""
import pytest

from saturn.app.config import ConfigError, load_config


def test_another_tools_pyproject_is_not_read(tmp_path, monkeypatch):
    """A pyproject.toml that never names Saturn is not parsed: not even a broken one stops the
    run; one that does is read, and its errors are reported."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.black\n')
    assert load_config() == {}
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.saturn]\n'
                                             'alloc = ["get"]\n')
    assert load_config() == {"alloc": ["get"]}
    (tmp_path / "pyproject.toml").write_text('[tool . saturn]\nalloc = ["get"\n')
    with pytest.raises(ConfigError, match="pyproject.toml"):
        load_config()
    # a project named saturn, with another tool's broken table: not read
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "saturn-c"\n[tool.black\n')
    assert load_config() == {}
    # ours as dotted keys, or inside a [tool] table: read
    (tmp_path / "pyproject.toml").write_text('tool.saturn.free = ["put"]\n')
    assert load_config() == {"free": ["put"]}
    (tmp_path / "pyproject.toml").write_text('[tool]\nsaturn = { alloc = ["get"] }\n')
    assert load_config() == {"alloc": ["get"]}


def test_saturn_toml_first_and_an_explicit_file_must_exist(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.saturn]\nalloc = ["a"]\n')
    (tmp_path / "saturn.toml").write_text('free = ["f"]\n')
    assert load_config() == {"free": ["f"]}
    with pytest.raises(ConfigError, match="no such file"):
        load_config(str(tmp_path / "gone.toml"))
    (tmp_path / "bad.toml").write_bytes(b'alloc = ["\xff"]\n')
    with pytest.raises(ConfigError, match="bad.toml"):
        load_config(str(tmp_path / "bad.toml"))


def test_spec_entries_in_the_library_format(tmp_path, monkeypatch):
    """`[[spec]]`: the C library's format (checkers/library/libc.toml) for the users' own
    functions; a wrong type is an error, a value out of range leaves the entry out, said."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saturn.toml").write_text(
        '[[spec]]\nfunction = "xfree"\nop = "free"\narg = 1\n\n'
        '[[spec]]\nfunctions = ["pool_get", "pool_dup"]\nop = "alloc"\n\n'
        '[[spec]]\nfunction = "odd"\nop = "try"\nsuccess = "sometimes"\n\n'
        '[[spec]]\nfunction = "hopen"\nop = "open"\nwhat = "handle"\ncolour = 1\n')
    warnings = []
    got = load_config(warn=warnings.append)["spec"]
    assert [(e["function"], e["op"]) for e in got] == \
        [("xfree", "free"), ("pool_get", "alloc"), ("pool_dup", "alloc"), ("hopen", "open")]
    assert any("'odd') ignored: success" in w for w in warnings)
    assert any("unknown key 'colour'" in w for w in warnings)
    (tmp_path / "saturn.toml").write_text('[[spec]]\nfunction = "x"\nop = "steal"\n')
    with pytest.raises(ConfigError, match="'op' must be one of"):
        load_config()
    (tmp_path / "saturn.toml").write_text('[[spec]]\nfunction = "x"\nop = "free"\narg = "p"\n')
    with pytest.raises(ConfigError, match="arg must be an argument's number"):
        load_config()
