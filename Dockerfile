# syntax=docker/dockerfile:1
# Lectern: one container serving every organization. Data lives in the /data volume.
# Build: docker build -t lectern .   Run: docker run -p 3000:3000 -v lectern-data:/data lectern

ARG NODE_VERSION=20.20

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 and argon2 build from source against the image's Node headers (docs/decisions/001-stack-and-layout.md, trap 1).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local \
    PUPPETEER_SKIP_DOWNLOAD=true
COPY package.json package-lock.json .npmrc .puppeteerrc.cjs ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# Debian's Chromium renders certificate PDFs; tini forwards SIGTERM for a graceful stop.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium tini fonts-dejavu-core fonts-wqy-zenhei \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    CHROME_PATH=/usr/bin/chromium
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--heap-growing-percent=30", "--no-allocation-site-pretenuring", "build/server.js"]
