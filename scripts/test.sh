#!/usr/bin/env bash
# The project's one test command (README "Install and first run"): makes .venv if needed, installs Saturn with its
# test extra, and runs the whole test suite. .ci/run calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cc >/dev/null 2>&1 && ! command -v gcc >/dev/null 2>&1; then
  # Saturn preprocesses with the system compiler and the real glibc headers.
  apt-get update -qq && apt-get install -y -qq gcc libc6-dev >/dev/null
fi
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  # The web page is tested in a real headless browser: Debian's chromium and its driver.
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if ! command -v dot >/dev/null 2>&1; then
  # The web page's call graph is laid out by Graphviz's dot (docs/WEB.md "Pictures").
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null
fi
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# compat: a path entry, not setuptools' import hook (~12 ms of every Python start; README "Install and first run").
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]' \
  --config-settings editable_mode=compat
exec .venv/bin/python -m pytest -q "$@"
