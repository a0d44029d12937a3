#!/usr/bin/env bash
# A throwaway PostgreSQL primary and its streaming replica for the read-replica tests, on this
# machine's Debian PostgreSQL (pg_createcluster): created on first use, started when stopped, reused
# otherwise. Prints "<primary port> <replica port>". Touches no other cluster.
#
#   replica-cluster.sh [<primary port> <replica port>]   ports used only when creating
#   replica-cluster.sh drop                              stops and removes both clusters
#
# Run as root (the clusters belong to postgres) or as postgres. Serialized with flock: test files
# running at once share the result.
set -euo pipefail

LOCK=${TMPDIR:-/tmp}/ordergate-replica-cluster.lock
if [ "${ORDERGATE_REPLICA_LOCKED:-}" != "$LOCK" ]; then
  exec env ORDERGATE_REPLICA_LOCKED="$LOCK" flock -o -w 120 "$LOCK" "$0" "$@"
fi
# Only the last line, the ports, goes to stdout (fd 3): whatever the PostgreSQL tools print goes to
# stderr. Servers started here get no fd 3: they would hold the caller's pipe open for ever.
exec 3>&1 1>&2

PRIMARY=og_test_primary
REPLICA=og_test_replica
VERSION=${ORDERGATE_PG_VERSION:-$(ls /usr/lib/postgresql | sort -n | tail -n 1)}
BIN=/usr/lib/postgresql/$VERSION/bin
# Test clusters: durability is not their point; speed and room for several test processes are.
SETTINGS="listen_addresses = '127.0.0.1'
fsync = off
max_connections = 300
wal_keep_size = '512MB'
hot_standby = on
hot_standby_feedback = on
ssl = off
log_min_messages = warning"

say() { echo "replica-cluster: $*" >&2; }
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
# field <cluster> <column>: a column of pg_lsclusters (3 port, 4 status, 6 data directory).
field() { pg_lsclusters -h | awk -v v="$VERSION" -v c="$1" -v f="$2" '$1 == v && $2 == c { print $f }'; }
psql_at() { as_postgres "$BIN/psql" -X -q -At -h 127.0.0.1 -p "$1" -U postgres -d postgres -c "$2"; }
start() { [[ "$(field "$1" 4)" == online* ]] || pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$1" start 3>&-; }

trust_all() { # the cluster's pg_hba.conf: trust on the socket and loopback, replication included
  cat > "/etc/postgresql/$VERSION/$1/pg_hba.conf" <<'HBA'
local   all          all                 trust
host    all          all   127.0.0.1/32  trust
local   replication  all                 trust
host    replication  all   127.0.0.1/32  trust
HBA
}

create() { # create <cluster> <port> [pg_createcluster options]
  say "creating cluster $VERSION/$1 on port $2"
  pg_createcluster "$VERSION" "$1" -p "$2" "${@:3}" >/dev/null
  configure "$1" || true
  trust_all "$1"
}

configure() { # the test settings; answers whether they changed
  local file=/etc/postgresql/$VERSION/$1/conf.d/ordergate-test.conf
  [ "$(cat "$file" 2>/dev/null)" != "$SETTINGS" ] || return 1
  mkdir -p "$(dirname "$file")"
  echo "$SETTINGS" > "$file"
  chown -R postgres:postgres "$(dirname "$file")"
}
settle() { # a cluster made by an older version of this script: its settings now, a restart if they changed
  if configure "$1"; then
    say "settings of $VERSION/$1 changed: restarting it"
    pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$1" restart 3>&-
  fi
}

drop() { # also what pg_dropcluster leaves of our own configuration
  [ -z "$(field "$1" 3)" ] || pg_dropcluster --stop "$VERSION" "$1"
  rm -rf "/etc/postgresql/$VERSION/$1"
}

if [ "${1:-}" = drop ]; then
  drop "$REPLICA"
  drop "$PRIMARY"
  exit 0
fi

if [ -z "$(field "$PRIMARY" 3)" ]; then
  drop "$REPLICA" # a replica of a primary that is gone cannot follow a new one
  create "$PRIMARY" "${1:-55432}"
fi
settle "$PRIMARY"
start "$PRIMARY"
primary_port=$(field "$PRIMARY" 3)

standby_ok() { [ "$(psql_at "$(field "$REPLICA" 3)" 'select pg_is_in_recovery()' 2>/dev/null)" = t ]; }
if [ -n "$(field "$REPLICA" 3)" ]; then
  settle "$REPLICA" || true
  start "$REPLICA" || true
  if ! standby_ok; then
    say "the replica does not run as a standby; making it again"
    drop "$REPLICA"
  fi
fi
if [ -z "$(field "$REPLICA" 3)" ]; then
  say "copying the primary into cluster $VERSION/$REPLICA on port ${2:-55433}"
  data=/var/lib/postgresql/$VERSION/$REPLICA
  rm -rf "$data"
  mkdir -m 700 "$data"
  [ "$(id -u)" -ne 0 ] || chown postgres:postgres "$data"
  # A copy of the primary (-R: standby.signal and primary_conninfo), then made a cluster around it.
  as_postgres "$BIN/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$data" -R -X stream -c fast
  # pg_createcluster moves a cluster's configuration from its data directory to /etc.
  echo "include_dir = 'conf.d'" > "$data/postgresql.conf"
  : > "$data/pg_hba.conf"
  : > "$data/pg_ident.conf"
  [ "$(id -u)" -ne 0 ] || chown postgres:postgres "$data"/*.conf
  create "$REPLICA" "${2:-55433}" -d "$data"
  start "$REPLICA"
fi
replica_port=$(field "$REPLICA" 3)

for _ in $(seq 1 100); do
  [ "$(psql_at "$replica_port" "select status from pg_stat_wal_receiver" 2>/dev/null)" = streaming ] && break
  sleep 0.1
done
[ "$(psql_at "$replica_port" "select status from pg_stat_wal_receiver")" = streaming ] || { say "the replica does not stream from the primary"; exit 1; }
[[ "$primary_port" =~ ^[0-9]+$ && "$replica_port" =~ ^[0-9]+$ ]] || { say "no ports to tell (primary '$primary_port', replica '$replica_port')"; pg_lsclusters; exit 1; }
echo "$primary_port $replica_port" >&3
