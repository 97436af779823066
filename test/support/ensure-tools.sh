#!/usr/bin/env bash
# Installs the system tools the test suite drives for real: Debian's nats-server (JetStream tests),
# chromium (the demo's browser test) and postgresql (the test run starts a private cluster of its
# own with initdb, unless INTERLUDE_POSTGRES_URL names a database), and python3 (the gateway's
# standard-library client). Runs before `pnpm test`; does
# nothing when all of them exist. It never starts or configures the machine's own PostgreSQL.
set -euo pipefail

has_postgres_binaries() {
  local folder
  for folder in /usr/lib/postgresql/*/bin; do
    [ -x "$folder/initdb" ] && [ -x "$folder/postgres" ] && return 0
  done
  command -v initdb >/dev/null 2>&1 && command -v postgres >/dev/null 2>&1
}

missing=()
command -v nats-server >/dev/null 2>&1 || missing+=(nats-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ -z "${INTERLUDE_POSTGRES_URL:-}" ] && ! has_postgres_binaries; then missing+=(postgresql); fi

sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"

if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} (Debian packages the tests need)"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
  command -v nats-server >/dev/null 2>&1 || { echo "could not install nats-server" >&2; exit 1; }
  command -v chromium >/dev/null 2>&1 || { echo "could not install chromium" >&2; exit 1; }
  command -v python3 >/dev/null 2>&1 || { echo "could not install python3" >&2; exit 1; }
  if [ -z "${INTERLUDE_POSTGRES_URL:-}" ] && ! has_postgres_binaries; then
    echo "could not install postgresql (initdb and postgres not found)" >&2
    exit 1
  fi
fi

# initdb refuses to run as root: as root the tests run it as the `postgres` user, which Debian's
# package creates; make one when the binaries came from elsewhere.
if [ -z "${INTERLUDE_POSTGRES_URL:-}" ] && [ "$(id -u)" -eq 0 ] && ! getent passwd postgres >/dev/null; then
  echo "creating the system user postgres (initdb does not run as root)"
  useradd --system --user-group --no-create-home --shell /usr/sbin/nologin postgres
fi
