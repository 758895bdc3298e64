# Builds the single executable and runs it with DATA_DIR on a volume.
FROM oven/bun:1.4.5 AS build
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY tsconfig.json ./
COPY src ./src
COPY scripts/build.ts ./scripts/build.ts
RUN bun run build

FROM debian:bookworm-slim
# A fixed uid and gid (10001), so a host directory mounted on /data can be given to it:
# `chown -R 10001:10001 DIR` (see "Build and deploy" in the README).
RUN groupadd --system --gid 10001 commerce \
  && useradd --system --uid 10001 --gid 10001 --home-dir /data --no-create-home commerce \
  && mkdir -p /data && chown 10001:10001 /data && chmod 700 /data
COPY --from=build /app/dist/commerce /usr/local/bin/commerce
USER 10001:10001
# Production defaults: PLATFORM_DOMAIN and INTEGRATION_ENCRYPTION_KEY(_FILE) must be given at run time.
ENV DATA_DIR=/data PORT=3000 HOST=0.0.0.0 NODE_ENV=production
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD ["commerce", "healthcheck"]
ENTRYPOINT ["commerce"]
