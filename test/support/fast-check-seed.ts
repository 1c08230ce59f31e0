import fc from 'fast-check'

// Every property run draws a fresh seed; a failure prints it with its path ("seed: 1234, path: …").
// FC_SEED (and FC_PATH) replay that run: FC_SEED=1234 FC_PATH=… pnpm vitest run <file> -t <name>.
if (process.env.FC_SEED)
  fc.configureGlobal({
    seed: Number(process.env.FC_SEED),
    ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
  })
