# Two images from one build:
#   target `app`  - the service: API, worker and migrations (node:24)
#   target `edge` - nginx with the site's assets and deploy/nginx/agent-knowledge.conf
# docker-compose.yml builds both.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `npm install`, not `npm ci`: see .ci/run.
RUN npm install --no-fund --no-audit
COPY . .
RUN npm run build && npm prune --omit=dev --no-fund --no-audit

FROM node:24-bookworm-slim AS app
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4321 PROJECTIONS_DIR=/app/data/projections
COPY --from=build --chown=node:node /app /app
# A named volume mounted here starts with this directory's owner: the worker
# (user node) can write projections into it.
RUN mkdir -p /app/data/projections && chown -R node:node /app/data
USER node
EXPOSE 4321
CMD ["npm", "run", "start:api"]

FROM nginx:1.27-bookworm AS edge
COPY --from=build /app/dist/client /srv/agent-knowledge/client
# The image fills ${AK_*} from the environment into conf.d/default.conf at start.
COPY deploy/nginx/agent-knowledge.conf /etc/nginx/templates/default.conf.template
ENV NGINX_ENVSUBST_FILTER=^AK_
