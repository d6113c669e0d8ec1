# syntax=docker/dockerfile:1

# ---- build: compile TypeScript (src/ and migrations/) to dist/ ----
FROM node:20-bookworm-slim AS build
WORKDIR /app
# .npmrc carries legacy-peer-deps (a dependency declares Nest peers up to 11 only).
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
RUN npm run build

# ---- runtime: production dependencies and the compiled output only ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
# The embedded PGlite database (used only when DATABASE_URL is unset) lives in ./data.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/main.js"]
