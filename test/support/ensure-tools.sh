#!/usr/bin/env bash
# Installs the system tools the test suite drives for real: Debian's nats-server (JetStream tests)
# and chromium (the demo's browser test). Runs before `pnpm test`; does nothing when both exist.
set -euo pipefail
missing=()
command -v nats-server >/dev/null 2>&1 || missing+=(nats-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing ${missing[*]} (Debian packages the tests need)"
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
for tool in "${missing[@]}"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "could not install $tool" >&2; exit 1; }
done
