# Throw-away services for the tests and benchmarks, sourced by scripts/test
# and scripts/bench-web: a PostgreSQL cluster in a temporary directory, a
# Redis server (the live-play bus), and nginx in front of several tessera
# instances. Each starts on a free port, installs its Debian package when
# missing, and is stopped by `services_stop`.

services_work="$(mktemp -d)"
chmod 755 "$services_work"
services_pids=()

# Installs Debian packages that are missing (by the command they provide).
need() { # command package [command package ...]
    local missing=()
    while [ $# -gt 0 ]; do
        command -v "$1" >/dev/null 2>&1 || [ -x "$1" ] || missing+=("$2")
        shift 2
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

# Waits until a server on 127.0.0.1:PORT answers /healthz (10 s at most);
# python, so no curl is needed.
wait_healthy() { # port
    python3 - "$1" <<'PY'
import sys, time, urllib.request
for _ in range(200):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz")
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)
PY
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts PostgreSQL in a fresh cluster owned by the `postgres` user (the
# server refuses to run as root) and exports POSTGRES_URL, a superuser URL
# without a database name: postgres://tessera@127.0.0.1:PORT, with
# POSTGRES_DATA (the cluster's directory) and POSTGRES_PG_CTL (its pg_ctl),
# for the tests that stop and restart it.
# POSTGRES_DURABILITY: `tests` (default; no fsync, nothing to keep) or
# `bench` (fsync on, commits not waited for: the durability of SQLite's WAL
# with synchronous=NORMAL that the server uses, so the two compare fairly).
postgres_start() {
    local durability="-c fsync=off -c synchronous_commit=off"
    [ "${POSTGRES_DURABILITY:-tests}" = bench ] && durability="-c synchronous_commit=off"
    local bin
    bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
    if [ -z "$bin" ]; then
        need /usr/lib/postgresql/none postgresql
        bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    fi
    local data="$services_work/pgdata" port
    port="$(free_port)"
    local as=()
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
        mkdir -p "$data" && chown postgres "$data"
        as=(runuser -u postgres --)
    fi
    "${as[@]}" "$bin/initdb" -D "$data" -U tessera -A trust -E UTF8 --no-sync >"$services_work/initdb.log" 2>&1 \
        || { cat "$services_work/initdb.log" >&2; return 1; }
    "${as[@]}" "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
        -o "-p $port -k $data -c listen_addresses=127.0.0.1 -c max_connections=200 $durability" \
        start >/dev/null || { cat "$data/server.log" >&2; return 1; }
    postgres_stop_cmd=("${as[@]}" "$bin/pg_ctl" -D "$data" -m fast -w stop)
    export POSTGRES_URL="postgres://tessera@127.0.0.1:$port"
    export POSTGRES_DATA="$data" POSTGRES_PG_CTL="$bin/pg_ctl"
    echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($data)"
}

postgres_stop() {
    if [ -n "${postgres_stop_cmd+x}" ]; then
        "${postgres_stop_cmd[@]}" >/dev/null 2>&1 || true
        unset postgres_stop_cmd
    fi
}

# Starts a throw-away Redis server (the live-play bus) on a free port and
# exports REDIS_URL (redis://127.0.0.1:PORT), with REDIS_PORT and REDIS_DIR
# (its directory) for the tests that stop and restart it. No snapshots;
# every write is appended to its AOF and synced before it is answered
# (`appendfsync always`), so a restarted server keeps every step it
# acknowledged.
redis_start() {
    need redis-server redis-server
    local dir="$services_work/redis" port
    port="$(free_port)"
    mkdir -p "$dir"
    redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save '' \
        --appendonly yes --appendfsync always --daemonize yes \
        --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" \
        || { cat "$dir/redis.log" >&2; return 1; }
    local tries=0
    until redis-cli -p "$port" ping >/dev/null 2>&1; do
        tries=$((tries + 1))
        [ "$tries" -lt 100 ] || { cat "$dir/redis.log" >&2; return 1; }
        sleep 0.05
    done
    export REDIS_URL="redis://127.0.0.1:$port" REDIS_PORT="$port" REDIS_DIR="$dir"
    echo "Redis $(redis-server --version | awk '{print $3}' | cut -d= -f2) on 127.0.0.1:$port ($dir)"
}

redis_stop() {
    if [ -n "${REDIS_PORT+x}" ]; then
        redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
        unset REDIS_URL REDIS_PORT REDIS_DIR
    fi
}

# Writes an nginx configuration from deploy/nginx.conf that balances
# 127.0.0.1:$1 over the given upstream ports, starts nginx with it, and
# exports NGINX_URL.
nginx_start() { # listen-port upstream-port...
    need nginx nginx
    local listen="$1" conf="$services_work/nginx.conf" servers=""
    shift
    for port in "$@"; do servers+="        server 127.0.0.1:$port max_fails=1 fail_timeout=2s;\n"; done
    mkdir -p "$services_work/nginx"
    # Workers may run as another user: let them write their temp files.
    chmod 777 "$services_work/nginx"
    sed -e "s|listen 80;|listen 127.0.0.1:$listen;|" \
        -e "s|^ *server 127.0.0.1:8080.*|$servers|" \
        -e "/^ *server 127.0.0.1:8081.*/d" \
        -e "s|^pid .*|pid $services_work/nginx/nginx.pid;|" \
        -e "s|/var/log/nginx|$services_work/nginx|g" \
        deploy/nginx.conf >"$conf"
    local nginx_bin
    nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
    "$nginx_bin" -c "$conf" -p "$services_work/nginx" \
        || { cat "$services_work/nginx/tessera-error.log" >&2; return 1; }
    nginx_stop_cmd=("$nginx_bin" -c "$conf" -p "$services_work/nginx" -s stop)
    export NGINX_URL="http://127.0.0.1:$listen"
}

nginx_stop() {
    if [ -n "${nginx_stop_cmd+x}" ]; then
        "${nginx_stop_cmd[@]}" >/dev/null 2>&1 || true
        unset nginx_stop_cmd
    fi
}

services_stop() {
    nginx_stop
    redis_stop
    postgres_stop
    for pid in "${services_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$services_work"
}
