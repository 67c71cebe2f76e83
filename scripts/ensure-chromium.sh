#!/usr/bin/env bash
# Debian's Chromium drives the browser tests (no browser downloads here).
# Installs it when missing and we are root; otherwise says why it is skipped.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "installing Debian's chromium for the browser tests"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "Chromium is not installed (apt-get install chromium as root); browser tests skipped" >&2
exit 1
