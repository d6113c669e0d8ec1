# syntax=docker/dockerfile:1

# Node 24 LTS, pinned to the release CI runs on (.ci/run NODE_VERSION); package.json engines: >=24.
# ---- build: compile TypeScript (src/ and migrations/) to dist/ ----
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
# Peer ranges that lag behind Nest 12 are widened by `overrides` in package.json.
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
RUN npm run build

# ---- runtime: production dependencies and the compiled output only ----
FROM node:24.21.0-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
# The embedded PGlite database (used only when DATABASE_URL is unset) lives in ./data.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/main.js"]
