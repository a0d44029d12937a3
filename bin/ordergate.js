#!/usr/bin/env node
// The CLI entry point; the code lives in dist/bin/ (built by `npm ci`/`npm run build`: the
// compiled modules of dist/, linked into a few files by scripts/bundle.mjs).
import { main } from '../dist/bin/main.js';

const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
