#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (`playwright install` cannot
# download here), and their Chinese screenshots need a CJK font. Installs what is missing;
# fails loudly when it cannot.
set -euo pipefail
CHROMIUM=${NB_AUTOGRAD_CHROMIUM:-/usr/bin/chromium}
missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium)
fc-list 2>/dev/null | grep -qi "wenquanyi\|noto sans cjk" || missing+=(fonts-wqy-microhei)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]} (apt)"
if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
elif command -v sudo >/dev/null; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
    echo "setup: ${missing[*]} missing and cannot be installed without root; set NB_AUTOGRAD_CHROMIUM" >&2
    exit 1
fi
[ -x "$CHROMIUM" ] || { echo "setup: chromium still missing at $CHROMIUM" >&2; exit 1; }
