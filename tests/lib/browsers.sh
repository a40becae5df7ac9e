# Debian's browsers for the tests that drive a page: find_chromium and
# find_firefox set `browser` to the path of one, installing its package
# when it is missing and this is root. The sourcing script defines fail
# (prints a line and exits).

# find_browser PACKAGE COMMAND...: the first COMMAND on the PATH, else
# PACKAGE installed.
find_browser() {
  local package="$1" name
  shift
  browser=""
  for name in "$@"; do browser="$(command -v "$name" || true)" && [ -n "$browser" ] && return; done
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" >/dev/null 2>&1 ||
    fail "Debian's $package is needed (apt-get install $package)"
  browser="$(command -v "$1")"
}
find_chromium() { find_browser chromium chromium chromium-browser; }
find_firefox() { find_browser firefox-esr firefox-esr firefox; }
