# One small image: the compiled server binary, Litestream and the entrypoint that restores and
# replicates (README, Operations).
#
# linux/amd64 only: Litestream comes from the npm package @flydotio/litestream-linux-x64, the one
# Litestream build on the registry, and the server binary is compiled for the build machine.
# The platform is pinned so that `fly deploy` and `docker build` on an arm64 machine (an Apple
# silicon Mac) still make an amd64 image (Fly's builders are amd64; Docker Desktop emulates).
FROM --platform=linux/amd64 node:20-bookworm-slim AS build
RUN [ "$(uname -m)" = x86_64 ] || { echo "svc: this image builds for linux/amd64 only (Litestream ships as @flydotio/litestream-linux-x64); build with --platform linux/amd64" >&2; exit 1; }
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx bun run build && test -x node_modules/@flydotio/litestream-linux-x64/litestream

FROM --platform=linux/amd64 debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/* \
  && groupadd --system --gid 10001 svc && useradd --system --uid 10001 --gid svc --home-dir /data --no-create-home svc \
  && mkdir -p /data && chown svc:svc /data && chmod 700 /data
WORKDIR /app
COPY --from=build /src/dist/svc-server /app/svc-server
COPY --from=build /src/node_modules/@flydotio/litestream-linux-x64/litestream /app/litestream
COPY db/litestream.yml /app/litestream.yml
COPY deploy/entrypoint.sh /app/entrypoint.sh
# The entrypoint starts as root only to hand the volume to svc (Fly mounts volumes owned by
# root), then runs Litestream and the server as svc (SVC_RUN_AS).
ENV DATABASE_PATH=/data/svc.db PORT=8080 SVC_RUN_AS=svc
EXPOSE 8080
CMD ["/app/entrypoint.sh"]
