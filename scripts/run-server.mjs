// The container's command before run-server.cjs, kept so that a deployment still running
// `node scripts/run-server.mjs` starts: the same server, plus Node's ES module loader at every start.
import './run-server.cjs'
