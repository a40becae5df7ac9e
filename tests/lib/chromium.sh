# Debian's Chromium for the tests that drive a page: sets `browser` to its
# path, installing the package when it is missing and this is root. The
# sourcing script defines fail (prints a line and exits).
find_chromium() {
  browser="$(command -v chromium || command -v chromium-browser || true)"
  if [ -z "$browser" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 ||
      fail "Debian's chromium is needed (apt-get install chromium)"
    browser="$(command -v chromium)"
  fi
}
