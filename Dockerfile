# The reference server in one image: the embedded SQLite default with its file on a volume, or
# Postgres through DATABASE_URL (compose.yaml). Built and probed by scripts/container-check.sh.
FROM node:20-bookworm-slim
# better-sqlite3 compiles from source against Node's headers.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN npx -y pnpm@10.34.8 install --frozen-lockfile && node scripts/build-server.mjs
RUN mkdir /data && chown node:node /data
ENV HOST=0.0.0.0 PORT=3000 DATABASE_URL=/data/workgraph.db
VOLUME /data
EXPOSE 3000
USER node
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# The bundle with the V8 code cache the build recorded (scripts/run-server.cjs; any other V8 flag on
# this line would make V8 refuse that cache); stacks name the TypeScript sources, mapped when printed.
CMD ["node", "scripts/run-server.cjs"]
