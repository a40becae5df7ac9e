#!/usr/bin/env bash
# Regenerates docs/studio/*.png, the README's pictures of lbt studio: the
# browser test's own screenshots (tests/studio/studio_browser.mjs) of its
# sample tables, taken in headless Chromium. Builds lbt first if needed.
# Usage: ./scripts/studio-screenshots.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LBT_FOR_TESTS=1
# shellcheck source=setup.sh
source "$root/scripts/setup.sh"
mkdir -p "$root/docs/studio"
LBT_STUDIO_SHOTS="$root/docs/studio" "$root/tests/studio/studio_browser_test.sh" "$LBT_BUILD_DIR/lbt" "$LBT_BUILD_DIR"
ls "$root/docs/studio"
