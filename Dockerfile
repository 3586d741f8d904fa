# Skiff: `docker build -t skiff .` then see compose.yaml (Skiff + PostgreSQL), deploy/ (Kubernetes) or the README's
# "Deploying".
# Node 24 runs the TypeScript sources directly (type stripping); the only build is the dashboard's (Vite), done in
# its own stage with the dev dependencies; the image keeps production dependencies and the built pages.

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The install's postinstall (patch-package) applies patches/graphile-worker+0.18.0.patch: without it the image would
# run the unpatched graphile-worker (see the README's "Background jobs").
COPY patches ./patches
# `npm install` rather than `npm ci`: the lock file may lack other platforms' optional packages (see .ci/run).
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:24-bookworm-slim AS web
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm install --no-audit --no-fund
COPY web ./web
RUN npm run build:web

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000 SKIFF_DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY schema ./schema
COPY migrations ./migrations
COPY src ./src
COPY scripts ./scripts
COPY --from=web /app/web/dist ./web/dist
# The sources' types stripped ahead of time with the image's Node (scripts/strip-sources.mjs): the server loads no
# TypeScript stripper (about 19 MB less RSS; README "Memory" in docs/operations.md).
RUN node --no-warnings scripts/strip-sources.mjs
# The image's `node` user (uid 1000) owns only the data directory (generated secret; embedded PostgreSQL
# when DATABASE_URL is unset).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm start`'s malloc settings and Node flags, without npm: its prestart would only find the prebuilt dashboard
# (README "Running Skiff on Kubernetes"; deploy/base/deployment.yaml runs the same command and
# `node scripts/migrate.ts` before it). Two malloc arenas, and blocks of 256 KiB and more mapped and returned on
# free: less memory kept after large answers (docs/operations.md "Memory"); `docker run -e` overrides them.
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=262144
CMD ["node", "--import", "./scripts/stripped-sources.mjs", "--max-semi-space-size=8", "--heap-growing-percent=50", "src/main.ts"]
