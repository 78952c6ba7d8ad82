#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so `npx touchline` works on a fresh clone with no build.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli.ts')
