# Builds the single executable and runs it with DATA_DIR on a volume.
FROM oven/bun:1.4.5 AS build
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY tsconfig.json ./
COPY src ./src
RUN bun run build

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home-dir /data commerce && mkdir -p /data && chown commerce /data
COPY --from=build /app/dist/commerce /usr/local/bin/commerce
USER commerce
ENV DATA_DIR=/data PORT=3000 HOST=0.0.0.0 NODE_ENV=production
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD ["commerce", "healthcheck"]
ENTRYPOINT ["commerce"]
