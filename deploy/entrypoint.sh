#!/bin/sh
# Starts svc under Litestream when a replica is configured (README, Operations): restores the
# database first when the file is missing (a new VM or volume; an empty replica is not an
# error, so a first start does not crash-loop), then runs the server as Litestream's child so
# that Litestream replicates every commit, forwards SIGTERM to the server and makes a last sync
# once the server has exited.
#
# The exit code is the server's: Litestream 0.3.13 exits 1 after a clean stop whenever its
# closing checkpoint runs on a context it has already canceled ("error closing db ...
# context canceled", after the last WAL segment is written), which would make every stop
# under write load look like a failure to systemd or Fly.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${DATABASE_PATH:=/data/svc.db}"

# In the image (SVC_RUN_AS=svc): started as root only to give the database folder to svc (Fly
# mounts a volume owned by root; an older image wrote its files as root), then everything runs
# as svc.
if [ -n "${SVC_RUN_AS:-}" ] && [ "$(id -u)" = 0 ]; then
  data=$(dirname "$DATABASE_PATH")
  mkdir -p "$data"
  chown -R "$SVC_RUN_AS:$(id -gn "$SVC_RUN_AS")" "$data"
  chmod 700 "$data"
  exec setpriv --reuid="$SVC_RUN_AS" --regid="$(id -g "$SVC_RUN_AS")" --init-groups -- "$0" "$@"
fi
: "${LITESTREAM_FORCE_PATH_STYLE:=false}"
: "${LITESTREAM_SYNC_INTERVAL:=1s}"
export DATABASE_PATH LITESTREAM_FORCE_PATH_STYLE LITESTREAM_SYNC_INTERVAL
server=${SVC_SERVER_CMD:-"$here/svc-server"}
litestream=${LITESTREAM_BIN:-"$here/litestream"}
config=${LITESTREAM_CONFIG:-"$here/litestream.yml"}

# Forwards TERM and INT to child $1 and waits for it; sets $status to its exit code.
run_forwarding() {
  trap 'kill -TERM "$1" 2>/dev/null || true' TERM INT
  status=0
  wait "$1" || status=$?
  # A trapped signal interrupts wait (status > 128): wait again for the real exit.
  while kill -0 "$1" 2>/dev/null; do
    status=0
    wait "$1" || status=$?
  done
}

# Litestream's child: runs the server, keeps its exit code for the entrypoint.
if [ "${1:-}" = "--serve" ]; then
  $server &
  run_forwarding $!
  echo "$status" > "$SVC_SERVER_STATUS_FILE"
  exit "$status"
fi

fail() {
  echo "svc: configuration error: $1" >&2
  exit 2
}

if [ -z "${LITESTREAM_REPLICA_URL:-}" ]; then
  echo "svc: LITESTREAM_REPLICA_URL is not set; running without replication" >&2
  exec $server
fi
case "$LITESTREAM_REPLICA_URL" in
  *\?*) fail "LITESTREAM_REPLICA_URL must not carry a query (Litestream 0.3.13 ignores it): set LITESTREAM_ENDPOINT and LITESTREAM_REGION instead" ;;
  s3://?*/?* | file:///?*) ;;
  *) fail "LITESTREAM_REPLICA_URL must be s3://BUCKET/PATH or file:///PATH, got \"$LITESTREAM_REPLICA_URL\"" ;;
esac
case "$LITESTREAM_FORCE_PATH_STYLE" in
  true | false) ;;
  *) fail "LITESTREAM_FORCE_PATH_STYLE must be true or false, got \"$LITESTREAM_FORCE_PATH_STYLE\"" ;;
esac
case "${LITESTREAM_ENDPOINT:-}" in
  '' | http://?* | https://?*) ;;
  *) fail "LITESTREAM_ENDPOINT must be an http:// or https:// URL, got \"$LITESTREAM_ENDPOINT\"" ;;
esac
[ -x "$litestream" ] || fail "the Litestream binary $litestream is missing or not executable (linux x64 only: see README, Operations)"

(umask 077 && mkdir -p "$(dirname "$DATABASE_PATH")")
if [ ! -f "$DATABASE_PATH" ]; then
  echo "svc: $DATABASE_PATH is missing; restoring from $LITESTREAM_REPLICA_URL if a replica exists" >&2
  "$litestream" restore -config "$config" -if-db-not-exists -if-replica-exists "$DATABASE_PATH"
fi
SVC_SERVER_STATUS_FILE=$(mktemp)
export SVC_SERVER_STATUS_FILE
"$litestream" replicate -config "$config" -exec "sh $here/entrypoint.sh --serve" &
run_forwarding $!
server_status=$(cat "$SVC_SERVER_STATUS_FILE")
rm -f "$SVC_SERVER_STATUS_FILE"
if [ -n "$server_status" ]; then
  [ "$status" -eq 0 ] || echo "svc: litestream exited $status after the server stopped (exit $server_status); see its log above" >&2
  exit "$server_status"
fi
exit "$status"
