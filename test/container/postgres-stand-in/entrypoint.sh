#!/bin/sh
# The official postgres image's first run, in short: a cluster owned by POSTGRES_USER with its
# password, reachable over TCP with it, and the database POSTGRES_DB; then the server.
set -e
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pw
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/tmp/pw --auth-host=scram-sha-256 --auth-local=trust
  rm /tmp/pw
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -w start -o "-c listen_addresses=''"
  [ "$POSTGRES_DB" = postgres ] || createdb -U "$POSTGRES_USER" "$POSTGRES_DB"
  pg_ctl -D "$PGDATA" -w stop
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
