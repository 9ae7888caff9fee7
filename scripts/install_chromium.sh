#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (`playwright install` cannot
# download here). Installs it when missing; fails loudly when it cannot.
set -euo pipefail
CHROMIUM=${NB_AUTOGRAD_CHROMIUM:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = 0 ]; then
    echo "setup: installing chromium (apt)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
elif command -v sudo >/dev/null; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
    echo "setup: chromium is missing and cannot be installed without root; set NB_AUTOGRAD_CHROMIUM" >&2
    exit 1
fi
