#!/bin/sh
# Starts svc under Litestream when a replica is configured: restores the database first if the
# file is missing (a new VM or volume), then runs the server as Litestream's child so that
# Litestream replicates every commit and stops with the server.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${DATABASE_PATH:=/data/svc.db}"
export DATABASE_PATH
server=${SVC_SERVER_CMD:-"$here/svc-server"}
litestream=${LITESTREAM_BIN:-"$here/litestream"}
config=${LITESTREAM_CONFIG:-"$here/litestream.yml"}

if [ -z "${LITESTREAM_REPLICA_URL:-}" ]; then
  echo "svc: LITESTREAM_REPLICA_URL is not set; running without replication" >&2
  exec $server
fi
mkdir -p "$(dirname "$DATABASE_PATH")"
if [ ! -f "$DATABASE_PATH" ]; then
  echo "svc: $DATABASE_PATH is missing; restoring from $LITESTREAM_REPLICA_URL if a replica exists" >&2
  "$litestream" restore -config "$config" -if-replica-exists "$DATABASE_PATH"
fi
exec "$litestream" replicate -config "$config" -exec "$server"
