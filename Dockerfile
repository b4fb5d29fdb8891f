# Two images from one build:
#   target `app`  - the service: API, worker and migrations (node:24)
#   target `edge` - nginx with the site's assets and deploy/nginx/agent-knowledge.conf
# docker-compose.yml builds both.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Exactly the lock file: it holds every platform's optional bindings
# (esbuild, rolldown, swc, Astro's compiler), so this resolves the ones of
# the image's platform (linux x64 or arm64) without touching the lock.
RUN npm ci --no-fund --no-audit
COPY . .
RUN npm run build && npm prune --omit=dev --no-fund --no-audit

FROM node:24-bookworm-slim AS app
WORKDIR /app
# tini as PID 1: it forwards SIGTERM to node (which then drains, see
# core/shutdown.ts) and reaps zombies; node itself, not npm, is its child.
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4321 PROJECTIONS_DIR=/app/data/projections
COPY --from=build --chown=node:node /app /app
# A named volume mounted here starts with this directory's owner: the worker
# (user node) can write projections into it.
RUN mkdir -p /app/data/projections && chown -R node:node /app/data
USER node
EXPOSE 4321
# The API's index by default; worker containers set HEALTHCHECK_URL to their /metrics.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "cli/healthcheck.ts"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "api/server.ts"]

FROM nginx:1.27-bookworm AS edge
COPY --from=build /app/dist/client /srv/agent-knowledge/client
# The image fills ${AK_*} from the environment into conf.d/default.conf at start.
COPY deploy/nginx/agent-knowledge.conf /etc/nginx/templates/default.conf.template
ENV NGINX_ENVSUBST_FILTER=^AK_
