/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `.ci/run`'s background step, while the builds, lint and unit tests run: installs from Debian what the later suites
 * need (PostgreSQL and Redis for `test:queue`, chromium and ffmpeg for `test:ui` and its demo video) in one apt-get
 * run, so that they need not wait for it. Each suite still checks, and installs what is missing, on its own.
 */
import { ensureSuitePackages } from './lib/services';

try {
	ensureSuitePackages();
	console.log('[ci-prepare] PostgreSQL, Redis, chromium and ffmpeg are installed');
} catch (error) {
	console.error('[ci-prepare]', error instanceof Error ? error.message : error);
	process.exit(1);
}
