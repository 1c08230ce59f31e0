#!/usr/bin/env node
import { runMain } from 'citty'
import { main } from '../main.ts'

await runMain(main)
