/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npm run build && npx tsx bench/pathAgainstRelease.ts [tarball] [rounds]`: our whole path for a Return All of 10,000
 * leads (dist/'s readList: pacing, deadline, stream read, redaction's first look, the list reader's checks, then the
 * router's output items) against a packed release's (default: 0.3.0 from test/fixtures/releases/), in this process,
 * alternating, both handed the same 100 pages as streams by one fake n8n helper (whose getNode() deep-copies as n8n's
 * does). No n8n and no network: what the transport's own code costs per Return All, apart from n8n's noise.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { ROOT } from '../scripts/lib/runtime';
import { startSandbox } from '../test/sandbox/server';
import { fakeListContext, routerItems } from './lib/pages';

type ReadList = (this: object, spec: object) => Promise<object[]>;

/** Removed at the end: `npm run lint` would lint the release's declaration files under .tmp/. */
const RELEASE_DIR = path.join(ROOT, '.tmp', 'bench', 'release');
const cleanUp = () => rmSync(RELEASE_DIR, { recursive: true, force: true });

async function main(): Promise<void> {
	const tarball = path.resolve(
		process.argv[2] ?? path.join(ROOT, 'test/fixtures/releases/n8n-nodes-crm-invoicing-0.3.0.tgz'),
	);
	const rounds = Number(process.argv[3] ?? 60);
	cleanUp();
	mkdirSync(RELEASE_DIR, { recursive: true });
	execFileSync('tar', ['xzf', tarball, '-C', RELEASE_DIR]);
	symlinkSync(path.join(ROOT, 'node_modules'), path.join(RELEASE_DIR, 'node_modules'));
	const load = createRequire(__filename);
	// 0.3.0 kept its transport in nodes/CrmInvoicing/transport/, this checkout in shared/transport/.
	const candidates = ['shared/transport/pagination.js', 'transport/pagination.js'];
	const find = (root: string): ReadList => {
		const base = path.join(root, 'dist/nodes/CrmInvoicing');
		const file = candidates.find((one) => existsSync(path.join(base, one)));
		if (!file) throw new Error(`no readList under ${root}`);
		return load(path.join(base, file)).readList as ReadList;
	};
	const lists: Record<string, ReadList> = {
		release: find(path.join(RELEASE_DIR, 'package')),
		checkout: find(ROOT),
	};

	const sandbox = await startSandbox({ port: 0, rateLimit: false });
	sandbox.seedLeads(10_000 - sandbox.state.leads.size);
	const { pages, context: contextOf } = await fakeListContext(sandbox.url, sandbox.keys.admin);
	await sandbox.close();
	const times: Record<string, number[]> = { release: [], checkout: [] };
	for (let round = 0; round < rounds + 5; round++)
		for (const name of round % 2 ? ['release', 'checkout'] : ['checkout', 'release']) {
			const context = contextOf();
			const started = performance.now();
			const records = await lists[name]!.call(context, { path: '/leads', qs: {} });
			const items = routerItems(records);
			if (items.length !== 10_000) throw new Error(`${name}: ${items.length} items, not 10,000`);
			if (round >= 5) times[name]!.push(performance.now() - started);
		}
	const bytes = pages.reduce((sum, page) => sum + page.length, 0);
	console.log(
		`${pages.length} pages, ${bytes} bytes; ${path.basename(tarball)} against this checkout`,
	);
	for (const [name, list] of Object.entries(times)) {
		list.sort((a, b) => a - b);
		const [median, low, high] = [list[list.length >> 1]!, list[0]!, list.at(-1)!];
		console.log(`${name}: median ${median.toFixed(1)} ms (${low.toFixed(1)}–${high.toFixed(1)})`);
	}
}

main().then(
	() => {
		cleanUp();
		process.exit(0);
	},
	(error: unknown) => {
		console.error(error);
		cleanUp();
		process.exit(1);
	},
);
