#!/usr/bin/env bash
# A real PostgreSQL server for the tests that need one (CTest fixture `postgres`): Debian's
# `postgresql` package (/usr/lib/postgresql/*/bin: initdb, pg_ctl, postgres), with its own data
# folder, port and unix socket folder in a temporary folder of its own, no system service touched.
#   postgres_fixture.sh start STATE   initdb + pg_ctl start; STATE gets the server's URL (or why not)
#   postgres_fixture.sh url STATE     prints the URL; exits 77 with the reason where none started
#   postgres_fixture.sh stop STATE    pg_ctl stop, the temporary folder and STATE removed
#   postgres_fixture.sh with STATE COMMAND...
#                                     runs COMMAND with POSTGRES_TEST_URL the URL (exit 77 where none)
# `start` always exits 0 once it has written STATE: where no server can start (package missing,
# no unprivileged user to run it as root) STATE says why, and every test that asks `url` skips
# (exit 77) saying so; a CTest fixture whose setup failed would mark them failed without a word.
# initdb and postgres refuse to run as root: as root they run as `nobody` (setpriv), which owns the
# data folder; as a normal user, as that user. The server listens on 127.0.0.1 only, at a free port,
# and on a socket in the temporary folder (under /tmp: a socket path must fit 107 bytes), trusting
# local connections (the test machine's own); the database is `ptxcts`, its owner `ptxcts`.
set -uo pipefail
if [ $# -lt 2 ] || { [ $# -gt 2 ] && [ "$1" != with ]; }; then
  echo "usage: $0 start|url|stop STATE | with STATE COMMAND..." >&2
  exit 2
fi
action=$1 state=$2
shift 2

state_get() { sed -n "s/^$1=//p" "$state" 2>/dev/null | head -n 1; }

case "$action" in
  url | with)
    url=$(state_get url)
    if [ -z "$url" ]; then
      reason=$(state_get skip)
      echo "SKIPPED: no PostgreSQL server for this test: ${reason:-the fixture postgres.start has not run ($state)}"
      exit 77
    fi
    [ "$action" = url ] && { echo "$url"; exit 0; }
    [ $# -gt 0 ] || { echo "usage: $0 with STATE COMMAND..." >&2; exit 2; }
    POSTGRES_TEST_URL=$url exec "$@"
    ;;
  stop)
    dir=$(state_get dir) user=$(state_get user) bin=$(state_get bin)
    if [ -n "$dir" ] && [ -d "$dir" ]; then
      as_user=()
      [ "$(id -u)" = 0 ] && [ -n "$user" ] && as_user=(setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups)
      if [ -f "$dir/data/postmaster.pid" ]; then
        "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 20 stop >/dev/null 2>&1 ||
          echo "postgres.stop: pg_ctl stop failed; killing the server" >&2
        pid=$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null)
        [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
      fi
      rm -rf "$dir"
    fi
    rm -f "$state"
    exit 0
    ;;
  start) ;;
  *) echo "usage: $0 start|url|stop STATE | with STATE COMMAND..." >&2; exit 2 ;;
esac

mkdir -p "$(dirname "$state")"
skip() { printf 'skip=%s\n' "$*" >"$state"; echo "postgres.start: no server: $*"; exit 0; }

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] && [ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] ||
  skip "no PostgreSQL server programs in /usr/lib/postgresql/*/bin (apt-get install postgresql; harness/scripts/bootstrap.sh --tests installs it)"

as_user=() user=$(id -un)
if [ "$(id -u)" = 0 ]; then
  # initdb refuses root: the server runs as an unprivileged user that owns its folder.
  user=nobody
  getent passwd "$user" >/dev/null || skip "running as root and there is no user 'nobody' to run initdb as"
  command -v setpriv >/dev/null || skip "running as root and no setpriv to run initdb as '$user'"
  as_user=(setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups)
fi

dir=$(mktemp -d /tmp/ptxcts-pg.XXXXXX) || skip "cannot make a temporary folder in /tmp"
# The state first, so that `stop` removes the folder whatever happens below.
printf 'dir=%s\nuser=%s\nbin=%s\n' "$dir" "$user" "$bin" >"$state"
fail_start() {
  local why=$1
  { printf 'skip=%s\n' "$why"; printf 'dir=%s\nuser=%s\nbin=%s\n' "$dir" "$user" "$bin"; } >"$state"
  echo "postgres.start: no server: $why"
  exit 0
}
[ "$(id -u)" = 0 ] && chown "$user" "$dir"
chmod 700 "$dir"

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=""
for ((i = 0; i < 20; i++)); do
  p=$((20000 + RANDOM % 30000))
  port_free "$p" && { port=$p; break; }
done
[ -n "$port" ] || fail_start "no free port found"

# HOME, PGDATA and friends of the caller must not leak into the server (nobody's home is /nonexistent).
env_clean=(env -u PGDATA -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE -u PGPASSWORD HOME="$dir" LC_ALL=C)
if ! "${as_user[@]}" "${env_clean[@]}" "$bin/initdb" -D "$dir/data" -U ptxcts --auth=trust -E UTF8 --no-locale \
     >"$dir/initdb.log" 2>&1; then
  fail_start "initdb failed: $(tail -n 3 "$dir/initdb.log" | tr '\n' ' ')"
fi
if ! "${as_user[@]}" "${env_clean[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
     -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=100 -c fsync=off" start \
     >"$dir/pg_ctl.log" 2>&1; then
  fail_start "the server did not start: $(tail -n 3 "$dir/server.log" "$dir/pg_ctl.log" 2>/dev/null | tr '\n' ' ')"
fi
if ! "${as_user[@]}" "${env_clean[@]}" "$bin/createdb" -h "$dir" -p "$port" -U ptxcts ptxcts >"$dir/createdb.log" 2>&1; then
  fail_start "createdb failed: $(tail -n 3 "$dir/createdb.log" | tr '\n' ' ')"
fi
url="postgresql://ptxcts@127.0.0.1:$port/ptxcts"
printf 'url=%s\nsocket=%s\nport=%s\n' "$url" "$dir" "$port" >>"$state"
echo "postgres.start: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') at $url (folder $dir, as $user)"
