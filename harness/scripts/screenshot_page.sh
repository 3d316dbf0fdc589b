#!/usr/bin/env bash
# The top of a page as a PNG, as people first see it (headless Chromium, 1280x1000):
#   harness/scripts/screenshot_page.sh reports/audit-cuda13.0.html reports/audit-cuda13.0.png
set -euo pipefail
page=$(realpath "$1"); png=$(realpath -m "$2")
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome) ||
  { echo "screenshot_page: no chromium (harness/scripts/bootstrap.sh --tests installs it)" >&2; exit 77; }
# --no-sandbox: CI and containers run as root, where Chromium's sandbox refuses to start.
"$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000 \
  --screenshot="$png" "file://$page" 2>/dev/null
echo "$png"
