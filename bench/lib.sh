# Shared by the bench scripts (sourced, not run): messages, the PostgreSQL programs,
# timing and medians, the kept `pgwarden dev` server, and the delayed-link proxy.
# Each script keeps its own cleanup trap and calls what it needs from here.

say() { printf 'bench: %s\n' "$*" >&2; }
die() { printf 'bench: error: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# The folder of the PostgreSQL server programs: PGWARDEN_PG_BINDIR, else pg_config's,
# else the newest /usr/lib/postgresql/*/bin.
pg_bindir() {
    if [ -n "${PGWARDEN_PG_BINDIR:-}" ]; then echo "$PGWARDEN_PG_BINDIR"; return; fi
    if command -v pg_config >/dev/null 2>&1; then
        local dir; dir="$(pg_config --bindir)"
        if [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
    fi
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    [ -n "$dir" ] && [ -x "$dir/postgres" ] || die "PostgreSQL server programs not found (apt-get install postgresql)"
    echo "$dir"
}

# Microseconds since the epoch, from bash itself (no process started).
now_us() { local t="${EPOCHREALTIME//[.,]/}"; echo "$((10#$t))"; }
median_us() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
    if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
min_us() { printf '%s\n' "$@" | sort -n | head -n 1; }
max_us() { printf '%s\n' "$@" | sort -n | tail -n 1; }

# Starts `pgwarden dev --keep` in the background (its output in $WORK/dev.out) and
# waits for the superuser's URL: sets DEV_PID and ADMIN_URL. The caller's cleanup
# sends DEV_PID SIGTERM, on which dev stops its server and removes its directory.
start_kept_dev() {
    "$PGWARDEN" dev --keep >"$WORK/dev.out" 2>&1 &
    DEV_PID=$!
    ADMIN_URL=""
    for _ in $(seq 1 600); do
        # The superuser's URL (dev's "URL:" line is postgres's, not a superuser; pgTAP
        # and bootstrap need one).
        ADMIN_URL="$(sed -n 's/^superuser URL (as supabase_admin): //p' "$WORK/dev.out")"
        [ -n "$ADMIN_URL" ] && return 0
        kill -0 "$DEV_PID" 2>/dev/null || { cat "$WORK/dev.out" >&2; die "pgwarden dev exited"; }
        sleep 0.1
    done
    cat "$WORK/dev.out" >&2
    die "no server URL from pgwarden dev after 60 s"
}

# The delayed link: delay-proxy.py on a free loopback port in front of the kept
# server's socket ($PGHOST/.s.PGSQL.$PGPORT), LINK_DELAY_MS each way, its counts to
# $WORK/proxy.json when stopped. Sets PROXY_PID and PROXY_PORT. $1: --trace FILE or empty.
PROXY_PID=""
start_proxy() {
    PROXY_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    rm -f "$WORK/proxy.json"
    python3 bench/delay-proxy.py "$PROXY_PORT" "$PGHOST/.s.PGSQL.$PGPORT" --delay-ms "$LINK_DELAY_MS" \
        --lifetime 900 --report "$WORK/proxy.json" "$@" >"$WORK/proxy.out" 2>&1 &
    PROXY_PID=$!
    for _ in $(seq 1 100); do grep -q ready "$WORK/proxy.out" 2>/dev/null && return 0; sleep 0.05; done
    die "the delay proxy did not start: $(cat "$WORK/proxy.out")"
}
# Stops the proxy (it writes its counts) and prints the round trips it counted.
stop_proxy() {
    if [ -n "$PROXY_PID" ]; then kill -TERM "$PROXY_PID" 2>/dev/null || true; wait "$PROXY_PID" 2>/dev/null || true; fi
    PROXY_PID=""
}
proxy_round_trips() { perl -MJSON::PP -0777 -ne 'print decode_json($_)->{round_trips}' "$WORK/proxy.json"; }
