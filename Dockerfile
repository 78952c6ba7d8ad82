# syntax=docker/dockerfile:1
# Multi-stage build: dependencies and a type-checked build in one stage, a slim non-root runtime in the next.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspace packages (core, client, upstream-contract, provider), installed with the rest; built below,
# once the sources are in (so a change to src/ reuses the installed dependencies).
COPY packages ./packages
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The packages' builds, the pages' bundle (dist/lib, esbuild: a build tool only) and the gateway's build.
RUN npm run build:packages && npm run build:pages && npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# The workspace packages' builds: the gateway uses them, and bundles core and client for browsers at
# /lib/core.js and /lib/client.js.
COPY --from=build --chown=node:node /app/packages/core/package.json ./packages/core/
COPY --from=build --chown=node:node /app/packages/core/dist ./packages/core/dist
COPY --from=build --chown=node:node /app/packages/client/package.json ./packages/client/
COPY --from=build --chown=node:node /app/packages/client/dist ./packages/client/dist
COPY --from=build --chown=node:node /app/packages/upstream-contract/package.json ./packages/upstream-contract/
COPY --from=build --chown=node:node /app/packages/upstream-contract/dist ./packages/upstream-contract/dist
COPY --from=build --chown=node:node /app/packages/provider/package.json ./packages/provider/
COPY --from=build --chown=node:node /app/packages/provider/dist ./packages/provider/dist
COPY --chown=node:node package.json ./
USER node
EXPOSE 8080 8081
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.TOUCHLINE_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "dist/cli.js"]
CMD ["serve"]
