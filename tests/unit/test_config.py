"""The configuration file (saturn/config.py): saturn.toml, or [tool.saturn] in pyproject.toml."""
import pytest

from saturn.config import ConfigError, load_config


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
