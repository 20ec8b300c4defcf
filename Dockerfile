# One small image: the compiled server binary, Litestream and the entrypoint that restores and replicates.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx bun run build

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /src/dist/svc-server /app/svc-server
COPY --from=build /src/node_modules/@flydotio/litestream-linux-x64/litestream /app/litestream
COPY db/litestream.yml /app/litestream.yml
COPY deploy/entrypoint.sh /app/entrypoint.sh
ENV DATABASE_PATH=/data/svc.db PORT=8080
EXPOSE 8080
CMD ["/app/entrypoint.sh"]
