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
# The over-the-link table: pgwarden's row against the tool it is compared with.
# print_link_table WIDTH VS_HEADER RATIO_DECIMALS DELAY_MS RUNS \
#     PGWARDEN_LABEL PGWARDEN_ROUND_TRIPS PGWARDEN_US OTHER_LABEL OTHER_ROUND_TRIPS OTHER_US
print_link_table() {
    echo
    printf 'Over TCP with %s ms added each way (bench/delay-proxy.py), median of %d run(s)\n\n' "$4" "$5"
    printf "%-${1}s %12s %11s %12s\n" "tool" "round trips" "median ms" "$2"
    awk -v w="$1" -v d="$3" -v la="$6" -v ra="$7" -v ua="$8" -v lb="$9" -v rb="${10}" -v ub="${11}" 'BEGIN {
        f = "%-" w "s %12d %11.0f %11." d "fx\n"
        printf f, la, ra, ua / 1000, ub / ua
        printf f, lb, rb, ub / 1000, 1
    }'
}
proxy_round_trips() { perl -MJSON::PP -0777 -ne 'print decode_json($_)->{round_trips}' "$WORK/proxy.json"; }

# The pgwarden binary to measure: PGWARDEN, else a release build (SCRATCH: its
# --scratch-path). Sets PGWARDEN.
ensure_pgwarden() {
    if [ -n "${PGWARDEN:-}" ]; then
        [ -x "$PGWARDEN" ] || die "PGWARDEN=$PGWARDEN is not an executable"
        return 0
    fi
    # SwiftPM keeps its build locks (and some empty TemporaryDirectory.* folders)
    # in TMPDIR; that is the toolchain's doing and shared with other builds.
    # Built as scripts/release.sh builds what ships (the Swift libraries linked in,
    # which starts about 4.5 ms sooner than a dynamically linked build), in its
    # scratch folder unless SCRATCH names another.
    local build=(swift build -c release --static-swift-stdlib --product pgwarden --scratch-path "${SCRATCH:-.build-release}")
    say "building pgwarden (release, as scripts/release.sh builds it)"
    "${build[@]}" >&2
    PGWARDEN="$("${build[@]}" --show-bin-path)/pgwarden"
    [ -x "$PGWARDEN" ] || die "no pgwarden binary at $PGWARDEN after the build"
}

# ---------------------------------------------------------------- pgTAP comparisons
# access-plan.sh and pgtap-suite.sh: one kept `pgwarden dev` server holding Electric
# Ride (bootstrapped, migrated, seeded) with pgTAP in `extensions`, pg_prove at hand.

WORK=""
DEV_PID=""
SERVER_DIR=""
# pgwarden dev stops its server and deletes its directory on SIGTERM. Should any
# of it survive (once, in our trials, part of a data directory did), finish the
# job: stop that server's postmaster, if still running, and remove the directory.
remove_server_leftovers() {
    case "$SERVER_DIR" in "${TMPDIR:-/tmp}"/pgwarden-* | /tmp/pgwarden-*) ;; *) return 0 ;; esac
    [ -d "$SERVER_DIR" ] || return 0
    local pid
    pid="$(head -n 1 "$SERVER_DIR/data/postmaster.pid" 2>/dev/null || true)"
    if [[ "$pid" =~ ^[0-9]+$ ]] && [ "$(ps -o comm= -p "$pid" 2>/dev/null)" = "postgres" ]; then
        kill -QUIT "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -rf "$SERVER_DIR"
}
kept_server_cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ -n "$DEV_PID" ] && kill -0 "$DEV_PID" 2>/dev/null; then
        kill -TERM "$DEV_PID" 2>/dev/null || true
        wait "$DEV_PID" 2>/dev/null || true
    fi
    if [ -n "${PROXY_PID:-}" ]; then kill -TERM "$PROXY_PID" 2>/dev/null || true; fi
    remove_server_leftovers
    if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
    exit "$status"
}

# Installs pgTAP and pg_prove when missing, finds or builds pgwarden, starts the kept
# server in a new WORK folder ($1: its name) and prepares the database electric_ride.
# Sets BINDIR, PGWARDEN, WORK, ADMIN_URL, SERVER_VERSION, SERVER_DIR, DB_URL, and
# exports PGHOST, PGPORT, PGUSER, PGDATABASE (pg_prove connects through them).
# Everything it starts is stopped and removed on exit, Ctrl-C (130) or SIGTERM (143).
start_electric_ride_with_pgtap() {
    trap kept_server_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM

    BINDIR="$(pg_bindir)"
    local major sharedir missing=()
    major="$("$BINDIR/postgres" --version | sed -E 's/.* ([0-9]+)(\.[0-9]+)?.*/\1/')"
    sharedir="$("$BINDIR/pg_config" --sharedir 2>/dev/null || echo "/usr/share/postgresql/$major")"
    [ -f "$sharedir/extension/pgtap.control" ] || missing+=("postgresql-$major-pgtap")
    command -v pg_prove >/dev/null 2>&1 || missing+=("libtap-parser-sourcehandler-pgtap-perl")
    command -v psql >/dev/null 2>&1 || missing+=("postgresql-client")
    if [ "${#missing[@]}" -gt 0 ]; then
        say "installing (apt) ${missing[*]}"
        as_root apt-get update -q >&2
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
    fi
    command -v pg_prove >/dev/null 2>&1 || die "pg_prove not found after installing it"
    ensure_pgwarden

    WORK="$(mktemp -d "${TMPDIR:-/tmp}/pgwarden-bench-$1.XXXXXX")"
    say "starting one ephemeral PostgreSQL server (pgwarden dev --keep)"
    start_kept_dev
    SERVER_VERSION="$(sed -n 's/ ready in .*//p' "$WORK/dev.out")"

    # postgresql://supabase_admin@/postgres?host=/tmp/pgwarden-XXXX&port=5432 -> its parts.
    query_param() { printf '%s\n' "$ADMIN_URL" | sed -n "s/.*[?&]$1=\([^&]*\).*/\1/p"; }
    PGHOST="$(query_param host)"
    PGPORT="$(query_param port)"
    PGUSER="$(printf '%s\n' "$ADMIN_URL" | sed -n 's|^postgresql://\([^@:/]*\).*|\1|p')"
    PGDATABASE="electric_ride"
    export PGHOST PGPORT PGUSER PGDATABASE
    [ -n "$PGHOST" ] && [ -n "$PGPORT" ] && [ -n "$PGUSER" ] || die "cannot read host, port and user from $ADMIN_URL"
    SERVER_DIR="$PGHOST"  # pgwarden dev keeps data, socket and log in one temporary directory
    DB_URL="postgresql://$PGUSER@/$PGDATABASE?host=$PGHOST&port=$PGPORT"

    say "preparing database $PGDATABASE: bootstrap, migrations, seeds, pgTAP"
    psql -X -q -v ON_ERROR_STOP=1 -d "$ADMIN_URL" -c "create database $PGDATABASE" >/dev/null
    "$PGWARDEN" bootstrap --database-url "$DB_URL" >&2
    "$PGWARDEN" up --database-url "$DB_URL" >&2
    "$PGWARDEN" seed --database-url "$DB_URL" >&2
    # pgTAP where Supabase keeps it: in the `extensions` schema, usable by the API roles.
    psql -X -q -v ON_ERROR_STOP=1 -d "$DB_URL" >/dev/null <<'SQL'
create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;
create extension if not exists pgtap with schema extensions;
SQL
}
