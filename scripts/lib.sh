# Shared set-up for scripts/start and scripts/test. Idempotent: a second run only checks.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

# Debian packages: WeasyPrint's libraries (libharfbuzz-subset0 makes font subsetting ~80x
# faster), a Japanese font for PDFs, gettext for the translation catalogues, Chromium for the
# browser tests, nginx and openssl for the test of the shipped nginx site (nginx -t with a
# throwaway certificate; on a machine running systemd, Debian's package also starts its default
# site on port 80: `systemctl disable --now nginx` if that is not wanted).
DEBS_RUN="libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-ipaexfont-gothic gettext"
DEBS_TEST="chromium postgresql nginx openssl"

install_debs() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "efuda: installing Debian packages: ${missing[*]}"
  local SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then SUDO="sudo"; else
      echo "efuda: please install as root: apt-get install ${missing[*]}" >&2; return 1
    fi
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Python packages: exactly the versions in uv.lock (every dependency, the tests' and the shared
# cache's included, each file with its hash), so a fresh clone installs next month what it
# installs today. scripts/lock upgrades the lock. A second run only checks the stamp. A fresh
# venv gets the locked uv from pip (checked against the lock's hashes); `uv sync --frozen` then
# installs the lock as it is, never re-resolving it, and removes what it does not name.
install_python() {
  if [ ! -x "$PY" ]; then
    python3.11 -m venv "$VENV" 2>/dev/null || python3 -m venv "$VENV"
  fi
  local stamp="$VENV/.efuda-lock-$(sha1sum uv.lock | cut -c1-12)"
  if [ ! -f "$stamp" ]; then
    echo "efuda: installing the locked Python packages (uv.lock)"
    if [ ! -x "$VENV/bin/uv" ]; then
      "$PY" -m pip install -q --require-hashes --no-deps -r <("$PY" scripts/lockfile.py uv)
    fi
    # Python 3.11's venv seeds setuptools, which uv sync leaves alone as a seed package: it goes
    # first (and comes back only if the lock names it)
    "$VENV/bin/uv" pip uninstall -q --python "$PY" setuptools wheel 2>/dev/null || true
    UV_PROJECT_ENVIRONMENT="$VENV" UV_PYTHON_DOWNLOADS=never "$VENV/bin/uv" sync -q --frozen \
      --all-extras --python "$PY"
    rm -f "$VENV"/.efuda-*
    touch "$stamp"
  fi
}

compile_catalogues() {
  "$PY" manage.py compilemessages --ignore=.venv -v 0
}

# The browser code's checks (static/js/): ESLint and the outbox's tests in Node (tests/js/,
# node's own test runner with fast-check). Node and npm come from Debian's packages when the
# machine has none; the npm packages are the ones pinned in package-lock.json (npm ci, again
# only when the lock file changed). Nothing here builds what is served.
check_javascript() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    install_debs nodejs npm
  fi
  local stamp="node_modules/.efuda-$(sha1sum package-lock.json | cut -c1-12)"
  if [ ! -f "$stamp" ]; then
    echo "efuda: installing the pinned npm packages (npm ci)"
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
    touch "$stamp"
  fi
  echo "== efuda JavaScript: ESLint on static/js, the outbox's tests in Node ($(node --version))"
  npx --no-install eslint static/js tests/js eslint.config.js \
    || { echo "efuda: ESLint found problems in static/js (npx eslint --fix static/js)" >&2; exit 1; }
  node --test tests/js/*.test.js \
    || { echo "efuda: the outbox's Node tests failed (tests/js/; the seed to replay is above)" >&2; exit 1; }
}

# The shared parts of a multi-server set-up, for their fault tests (pytest marker shared_parts):
# Debian's redis-server, which the tests start themselves on a free port (the standby PostgreSQL
# cluster needs nothing more than the PostgreSQL server already installed, and root).
DEBS_SHARED_PARTS="redis-server"

install_shared_parts() {
  install_debs $DEBS_SHARED_PARTS || echo "efuda: redis-server missing: its tests are skipped" >&2
}

# The machine's own PostgreSQL server (Debian's cluster "main" of the newest installed version)
# started, with the role efuda (password efuda, may create databases) and its database efuda;
# PG_PORT is its port. Needs root (pg_ctlcluster, su postgres); returns 1 otherwise.
start_local_postgres() {
  [ "$(id -u)" -eq 0 ] || return 1
  command -v pg_ctlcluster >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 \
    || return 1
  local ver
  ver="$(ls /usr/lib/postgresql | sort -V | tail -1)"
  pg_lsclusters -h 2>/dev/null | grep -q "^$ver main" || pg_createcluster "$ver" main >/dev/null
  pg_ctlcluster "$ver" main start 2>/dev/null || true
  PG_PORT="$(pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" {print $3}')"
  PG_VERSION="$ver"
  su postgres -c "psql -p $PG_PORT -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='efuda'\"" | grep -q 1 \
    || su postgres -c "psql -p $PG_PORT -qc \"CREATE ROLE efuda LOGIN CREATEDB PASSWORD 'efuda'\""
  su postgres -c "psql -p $PG_PORT -qtAc \"SELECT 1 FROM pg_database WHERE datname='efuda'\"" | grep -q 1 \
    || su postgres -c "createdb -p $PG_PORT -O efuda efuda"
}

# The load tests (loadtest/): everything a run needs on a clean machine. ApacheBench (ab) reads
# the pages of loadtest/ratio and loadtest/multi.py, redis is the shared cache of loadtest/evening
# and loadtest/multi.py; each run (re)creates its own database
# (LOAD_DATABASE_URL, default efuda_load on the local PostgreSQL server, started here).
DEBS_LOAD="apache2-utils postgresql redis-server"

prepare_load() {
  install_debs $DEBS_RUN $DEBS_LOAD
  install_python
  compile_catalogues
  if [ -z "${LOAD_DATABASE_URL:-}" ]; then
    start_local_postgres \
      || { echo "efuda: run as root to start the local PostgreSQL, or set LOAD_DATABASE_URL" >&2; exit 1; }
    export LOAD_DATABASE_URL="postgres://efuda:efuda@127.0.0.1:$PG_PORT/efuda_load"
  fi
}

