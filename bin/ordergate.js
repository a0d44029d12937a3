#!/usr/bin/env node
// The CLI entry point; the code lives in dist/ (built by `npm ci`/`npm run build`).
import { main } from '../dist/cli/main.js';

const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
