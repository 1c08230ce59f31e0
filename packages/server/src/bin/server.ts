#!/usr/bin/env node
// The reference server (main.ts).
import { main } from '../main.ts'

await main()
