/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * A CPU profile of the n8n process during case 1 (Return All over 10,000 leads): ours, then the floor's Code node,
 * each run `--runs` times in a block of its own, and the profile's samples split by those blocks (the profile's clock
 * and process.hrtime are both CLOCK_MONOTONIC). Prints, per run of each block, where n8n's CPU went: by category
 * (our node's code, n8n's request helper, the save of the execution, …) and the top functions by self time.
 *
 *     BENCH_N8N_PORT=5971 npx tsx bench/profileReturnAll.ts --runs 15 [--keep DIR]
 *
 * (after `npm run build`). The profile is left in `.tmp/bench/profile/` for Chrome DevTools. Then, with n8n idle, the
 * floor's 100 page requests (fetch, as case 1 sends them) against the same 100 through n8n's own request helper (the
 * `httpRequest` of @n8n/backend-network that httpRequestWithAuthentication ends in, with the options ours passes),
 * alternating in this process: what n8n's helper costs per Return All beside the floor's fetch. Last, in this process
 * and with no network, our whole path (dist/'s readList: pacing, deadline, stream read, redaction's first look, the
 * list reader's checks, and the router's output items) against a bare read + JSON.parse of the same 100 pages, both
 * handed the pages by a fake helper: what our own code adds per Return All.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { ROOT } from '../scripts/lib/runtime';
import { startStack } from '../scripts/lib/stack';
import { createActionWorkflow, runActionWorkflow, type BenchContext } from './lib/harness';
import { codeNodeLeads, oursGetMany } from './lib/nodes';
import { fakeListContext, routerItems } from './lib/pages';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}
interface Profile {
	nodes: ProfileNode[];
	startTime: number;
	samples: number[];
	timeDeltas: number[];
}

/** Categories, first match wins, tested against each frame of a sample's stack from the leaf up. */
const CATEGORIES: Array<[string, (url: string, name: string) => boolean]> = [
	['GC', (_url, name) => name === '(garbage collector)'],
	[
		'save: flatted / execution repository',
		(url) => /flatted|executions?[-.]repository|execution-persistence|execution-data/i.test(url),
	],
	['our node (dist/)', (url) => url.includes('n8n-nodes-crm-invoicing')],
	[
		'Code node / task runner',
		(url) => /nodes-base\/dist\/nodes\/Code|task-runner|JsTaskRunner|vm2|@n8n\/task/i.test(url),
	],
	[
		'request helper (axios, http)',
		(url) =>
			/axios|request-helper|node:_http|node:http|follow-redirects|node:net|node:stream|node:zlib/.test(
				url,
			),
	],
	[
		'JSON (parse/stringify)',
		(_url, name) => /^(JSON\.parse|JSON\.stringify|parse|stringify)$/.test(name),
	],
	['n8n-core / workflow', (url) => /n8n-core|n8n-workflow|@n8n\/core/.test(url)],
	[
		'n8n cli (db, hooks, push)',
		(url) => /packages\/cli|n8n\/dist|typeorm|sqlite|@n8n\/db/.test(url),
	],
	['idle', (_url, name) => name === '(idle)'],
	['program / other', () => true],
];

function categorize(profile: Profile): (sample: number) => string {
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const cache = new Map<number, string>();
	return (id) => {
		const known = cache.get(id);
		if (known) return known;
		let found = 'program / other';
		// The deepest frame that names a category other than "other" decides, except that a save or our node anywhere
		// up the stack claims the sample (their JSON, GC-free work and helpers count to them).
		const stack: ProfileNode[] = [];
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
			stack.push(byId.get(at)!);
		const claim = stack.find((n) => /flatted|n8n-nodes-crm-invoicing/.test(n.callFrame.url));
		const leaf = stack[0]!.callFrame;
		if (leaf.functionName === '(garbage collector)' || leaf.functionName === '(idle)')
			found = CATEGORIES.find(([, test]) => test(leaf.url, leaf.functionName))![0];
		else if (claim)
			found = CATEGORIES.find(([, test]) =>
				test(claim.callFrame.url, claim.callFrame.functionName),
			)![0];
		else
			for (const node of stack) {
				const hit = CATEGORIES.find(([, test]) =>
					test(node.callFrame.url, node.callFrame.functionName),
				)![0];
				if (hit !== 'program / other') {
					found = hit;
					break;
				}
			}
		cache.set(id, found);
		return found;
	};
}

function analyse(
	profile: Profile,
	windows: Record<string, Array<[number, number]>>,
	runs: number,
): void {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const category = categorize(profile);
	const times: number[] = [];
	let t = profile.startTime;
	for (const delta of profile.timeDeltas) times.push((t += delta));
	for (const [name, spans] of Object.entries(windows)) {
		const cats = new Map<string, number>();
		const self = new Map<string, number>();
		for (let i = 1; i < profile.samples.length; i++) {
			if (!spans.some(([from, to]) => times[i]! >= from && times[i]! < to)) continue;
			const ms = (times[i]! - times[i - 1]!) / 1000;
			const node = byId.get(profile.samples[i]!)!;
			const { functionName, url, lineNumber } = node.callFrame;
			const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1}`;
			cats.set(category(profile.samples[i]!), (cats.get(category(profile.samples[i]!)) ?? 0) + ms);
			self.set(key, (self.get(key) ?? 0) + ms);
		}
		const per = (ms: number) => `${(ms / runs).toFixed(1)} ms`;
		console.log(`\n== ${name}: CPU per run (${runs} runs), by category`);
		for (const [cat, ms] of [...cats].sort((a, b) => b[1] - a[1]))
			console.log(`  ${per(ms).padStart(10)}  ${cat}`);
		console.log(`-- top self time per run`);
		for (const [fn, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40))
			console.log(`  ${per(ms).padStart(10)}  ${fn}`);
	}
}

/** n8n 2.41's request helper, loaded from the pinned runtime (a file path: the package exports only its index). */
function n8nHttpRequest(): (
	options: Record<string, unknown>,
) => Promise<{ body: AsyncIterable<Buffer> }> {
	const pnpm = path.join(ROOT, 'runtime', 'current', '.install', 'node_modules', '.pnpm');
	const dir = readdirSync(pnpm).find((name) => name.startsWith('@n8n+backend-network@'));
	if (!dir) throw new Error(`No @n8n/backend-network in ${pnpm}`);
	const file = path.join(pnpm, dir, 'node_modules/@n8n/backend-network/dist/http/axios/request.js');
	return createRequire(__filename)(file).httpRequest;
}

async function helperAgainstFetch(
	base: string,
	key: string,
	runs: number,
	log: (m: string) => void,
) {
	const httpRequest = n8nHttpRequest();
	const loops: Record<
		string,
		(cursor?: string) => Promise<{ hasMore: boolean; nextCursor: string }>
	> = {
		fetch: async (cursor) => {
			const url = new URL(`${base}/api/v1/leads`);
			url.searchParams.set('limit', '100');
			if (cursor) url.searchParams.set('cursor', cursor);
			return (await (await fetch(url, { headers: { 'x-api-key': key } })).json()) as never;
		},
		"n8n's helper": async (cursor) => {
			const { body } = await httpRequest({
				...{ method: 'GET', url: `${base}/api/v1/leads`, headers: { 'x-api-key': key } },
				qs: cursor ? { limit: 100, cursor } : { limit: 100 },
				...{
					json: true,
					encoding: 'stream',
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				},
				...{
					disableFollowRedirect: true,
					timeout: 30_000,
					abortSignal: AbortSignal.timeout(30_000),
				},
			});
			const chunks: Buffer[] = [];
			for await (const chunk of body) chunks.push(chunk);
			return JSON.parse(Buffer.concat(chunks).toString('utf8'));
		},
	};
	const times: Record<string, number[]> = { fetch: [], "n8n's helper": [] };
	for (let round = 0; round < runs + 2; round++)
		for (const name of round % 2 ? ['fetch', "n8n's helper"] : ["n8n's helper", 'fetch']) {
			const started = performance.now();
			let page = await loops[name]!();
			while (page.hasMore) page = await loops[name]!(page.nextCursor);
			if (round >= 2) times[name]!.push(performance.now() - started);
		}
	for (const [name, list] of Object.entries(times)) {
		list.sort((a, b) => a - b);
		log(
			`100 page requests by ${name}: median ${list[list.length >> 1]!.toFixed(0)} ms (${list[0]!.toFixed(0)}–${list.at(-1)!.toFixed(0)})`,
		);
	}
}

/** Our path against a bare read + JSON.parse, both fed the same pages as streams by a fake n8n helper. */
async function pathAgainstBare(base: string, key: string, runs: number, log: (m: string) => void) {
	const { send, context: contextOf } = await fakeListContext(base, key);
	const load = createRequire(__filename);
	const { readList } = load(
		path.join(ROOT, 'dist/nodes/CrmInvoicing/shared/transport/pagination.js'),
	);
	const variants: Record<string, () => Promise<unknown[]>> = {
		ours: async () => {
			const context = contextOf(); // its getNode() deep-copies the node, as n8n's does
			const records = (await readList.call(context, { path: '/leads', qs: {} })) as object[];
			return routerItems(records);
		},
		bare: async () => {
			const records: unknown[] = [];
			for (let cursor: string | undefined, first = true; first || cursor; first = false) {
				const chunks: Buffer[] = [];
				for await (const chunk of (await send('', { qs: { cursor } })).body) chunks.push(chunk);
				const page = JSON.parse(Buffer.concat(chunks).toString('utf8'));
				for (const item of page.items) records.push(item);
				cursor = page.hasMore ? page.nextCursor : undefined;
			}
			return routerItems(records);
		},
	};
	const times: Record<string, number[]> = { ours: [], bare: [] };
	for (let round = 0; round < 4 * runs + 5; round++)
		for (const name of round % 2 ? ['ours', 'bare'] : ['bare', 'ours']) {
			const started = performance.now();
			if ((await variants[name]!()).length !== 10_000)
				throw new Error(`${name}: not 10,000 records`);
			if (round >= 5) times[name]!.push(performance.now() - started);
		}
	for (const [name, list] of Object.entries(times)) {
		list.sort((a, b) => a - b);
		log(
			`in-process, 100 pages handed over as streams, ${name}: median ${list[list.length >> 1]!.toFixed(1)} ms (${list[0]!.toFixed(1)}–${list.at(-1)!.toFixed(1)})`,
		);
	}
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const runs = Number(args[args.indexOf('--runs') + 1] ?? 15) || 15;
	const workDir = path.join(ROOT, '.tmp', 'bench');
	const profileDir = path.join(workDir, 'profile');
	rmSync(profileDir, { recursive: true, force: true });
	mkdirSync(profileDir, { recursive: true });
	const stack = await startStack({
		runtime: 'current',
		userFolder: path.join(workDir, 'n8n'),
		fresh: true,
		n8nPort: Number(process.env.BENCH_N8N_PORT ?? 5678),
		sandbox: { port: 0, rateLimit: false },
		tarball: process.env.BENCH_TARBALL, // as run.ts
		n8nEnv: {
			N8N_RUNNERS_BROKER_PORT: String(Number(process.env.BENCH_N8N_PORT ?? 5678) + 20_000),
			NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir} --cpu-prof-interval=250`,
		},
	});
	const log = (message: string) => console.log(`[profile] ${message}`);
	const ctx: BenchContext = { stack, runs, log };
	const windows: Record<string, Array<[number, number]>> = { ours: [], floor: [] };
	try {
		const { sandbox } = stack;
		sandbox.reset();
		sandbox.setRateLimit(false);
		sandbox.seedLeads(10_000 - sandbox.state.leads.size);
		const first = await fetch(`${sandbox.url}/api/v1/leads?limit=100`, {
			headers: { 'x-api-key': sandbox.keys.admin },
		});
		const sample = ((await first.json()) as { items: Array<Record<string, unknown>> }).items;
		const ours = await createActionWorkflow(ctx, 'ours', oursGetMany(ctx, { returnAll: true }));
		const floor = await createActionWorkflow(ctx, 'floor', codeNodeLeads(sample, 10_000));
		const now = () => Number(process.hrtime.bigint() / 1000n);
		for (const [name, workflow] of [
			['ours', ours],
			['floor', floor],
		] as const) {
			for (let i = 0; i < 2; i++) await runActionWorkflow(ctx, workflow);
			const walls: number[] = [];
			for (let i = 0; i < runs; i++) {
				const from = now();
				const run = await runActionWorkflow(ctx, workflow);
				// Webhook call → its answer (the last node done): what the bench's wall time measures.
				windows[name]!.push([from, from + run.wallMs * 1000]);
				walls.push(run.wallMs);
				if (run.items !== 10_000)
					throw new Error(`${name}: ${run.items} items (${run.error ?? run.status})`);
			}
			walls.sort((a, b) => a - b);
			log(
				`${name}: wall median ${walls[Math.floor(runs / 2)]!.toFixed(0)} ms (${walls[0]!.toFixed(0)}–${walls.at(-1)!.toFixed(0)})`,
			);
		}
		await helperAgainstFetch(stack.sandbox.url, stack.sandbox.keys.admin, runs, log);
		await pathAgainstBare(stack.sandbox.url, stack.sandbox.keys.admin, runs, log);
	} finally {
		await stack.stop();
	}
	// n8n's main thread writes the largest (a worker thread writes its own, nearly empty).
	const [file] = readdirSync(profileDir)
		.filter((name) => name.endsWith('.cpuprofile'))
		.sort(
			(a, b) => statSync(path.join(profileDir, b)).size - statSync(path.join(profileDir, a)).size,
		);
	if (!file) throw new Error(`n8n wrote no profile in ${profileDir}`);
	analyse(JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')) as Profile, windows, runs);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
