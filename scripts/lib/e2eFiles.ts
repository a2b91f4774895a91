/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Which end-to-end files each n8n version runs. n8n 2.41.0 runs the whole suite (test/e2e/). n8n 1.123.81 runs the
 * files whose behaviour differs by n8n version, each listed here with the reason; the others exercise the package's own
 * code through the same n8n paths on both versions. Queue mode (scripts/queue.ts) runs test/queue/ only. LANES splits
 * them for `npm run test:e2e`.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { ROOT, type RuntimeName } from './runtime';

export const COMPAT_FILES: Readonly<Record<string, string>> = {
	'bounds.e2e.test.ts':
		"TLS failures and aborted reads reach the node in the shape of each n8n's HTTP helper (1.123 hands a self-signed certificate on as 'no response'); the credential Test runs in each n8n's tester",
	'credential.e2e.test.ts':
		"n8n's credential tester: 2.x shows the credential's own messages, 1.123 its generic text for the status",
	'examples.e2e.test.ts':
		"the examples use n8n-nodes-base nodes, n8n's own code in each version; the README promises they run on both",
	'key-rotation.e2e.test.ts':
		'after a restart, 1.x re-activates the trigger at start-up (checkExists) and 2.41 does not: the subscription is replaced by different paths',
	'mapper.e2e.test.ts':
		"the fields come through n8n's own resource-mapper endpoint, and n8n checks the mapped values' types",
	'mcp.e2e.test.ts':
		"n8n's MCP Server Trigger and its wrapping of the node as a tool ($fromAI, the schema the model gets) are n8n's code; docs/operations.md states both versions",
	'polling.e2e.test.ts':
		'n8n schedules the polls (2.41 through its scheduler, with its own time budget) and polls at start-up after a restart',
	'safety.e2e.test.ts':
		"redirects are followed or refused inside each n8n's HTTP helper; the credential Test's redirect message is 2.x's only",
	'subscription-ownership.e2e.test.ts':
		'a CRM that stores URLs in normal form meets the start-up check that 1.x runs (checkExists) and 2.41 does not',
	'subscription-repair.e2e.test.ts':
		"each version's rule for a lost subscription: a restart repairs it on 1.x, re-publishing on 2.41 (its publication service)",
	'trigger.e2e.test.ts':
		"a restart runs the trigger's checkExists on 1.x only: no duplicate subscription, a retried delivery runs once",
	'trigger-invariants.e2e.test.ts':
		"a restored copy of n8n started with another WEBHOOK_URL: 1.x runs checkExists at the copy's start-up",
	'trigger-lifecycle.e2e.test.ts':
		'an activation error comes back in the activate answer on 1.x, asynchronously on 2.41',
	'trigger-trust.e2e.test.ts':
		'a restart with another WEBHOOK_URL moves subscriptions at start-up on 1.x; the delivery-during-restart case is 2.x only',
	'upgrade.e2e.test.ts':
		"0.3.0's stored trigger state read at 1.x's start-up check after the package is replaced",
};

const E2E_DIR = path.join('test', 'e2e');

/** What a lane's n8n is: a pinned runtime, or 2.41.0 again with its durable poll scheduler on (scripts/e2e.ts). */
export type Variant = RuntimeName | 'scheduler';

export const runtimeOf = (variant: Variant): RuntimeName =>
	variant === 'scheduler' ? 'current' : variant;

export interface LaneSpec {
	variant: Variant;
	/** n8n's port; lanes are ten apart (a test may use n8n's port + 2, + 4, + 6, + 10,000 and + 10,004). */
	port: number;
	/** The files it runs. Without a list: its version's files that no other lane of that version lists. */
	files?: readonly string[];
}

/**
 * `npm run test:e2e` runs these lanes side by side, each with its own n8n and sandbox: the tests mostly wait (for polls,
 * restarts and the CRM's retries), so five lanes take about a fifth of the suite's summed time. n8n 2.41.0 runs the
 * whole suite over its three lanes, 1.123.81 COMPAT_FILES over its two. The scheduler lane's n8n has its durable poll
 * scheduler on: it runs the polling files a second time (with the scheduler off they run in "current 2") and
 * webhook-trigger files, which the poll scheduler does not touch. The lists keep the lanes about equal by the per-file
 * durations in CI's log. Any other choice of runtimes runs each one's files in one lane.
 */
export const LANES: Readonly<Record<string, LaneSpec>> = {
	current: { variant: 'current', port: 5691 },
	'current 2': {
		variant: 'current',
		port: 5721,
		files: [
			'polling.e2e.test.ts',
			'polling-reads.e2e.test.ts',
			'key-rotation.e2e.test.ts',
			'bounds.e2e.test.ts',
			'trigger-lifecycle.e2e.test.ts',
		],
	},
	scheduler: {
		variant: 'scheduler',
		port: 5711,
		files: [
			'polling.e2e.test.ts',
			'polling-reads.e2e.test.ts',
			'trigger-trust.e2e.test.ts',
			'trigger-rotation.e2e.test.ts',
			'subscription-ownership.e2e.test.ts',
		],
	},
	compat: { variant: 'compat', port: 5701 },
	'compat 2': {
		variant: 'compat',
		port: 5731,
		files: [
			'key-rotation.e2e.test.ts',
			'trigger-invariants.e2e.test.ts',
			'upgrade.e2e.test.ts',
			'subscription-repair.e2e.test.ts',
			'trigger.e2e.test.ts',
			'mcp.e2e.test.ts',
			'trigger-lifecycle.e2e.test.ts',
		],
	},
};

/** The runtimes `npm run test:e2e` runs, each split into its lanes. */
export const ALL_VARIANTS: readonly Variant[] = ['current', 'compat', 'scheduler'];

/** The listed files' paths (relative to the checkout); throws when one is missing, so none is dropped unnoticed. */
function existing(list: string, names: readonly string[], root: string): string[] {
	const missing = names.filter((name) => !existsSync(path.join(root, E2E_DIR, name)));
	if (missing.length > 0)
		throw new Error(`${list} names files that do not exist: ${missing.join(', ')}`);
	return names.map((name) => path.join(E2E_DIR, name));
}

/** The files n8n 1.123.81 runs (COMPAT_FILES). */
export function compatFiles(root: string = ROOT): string[] {
	return existing('COMPAT_FILES', Object.keys(COMPAT_FILES), root);
}

/** A version's files: n8n 2.41.0 the whole suite, 1.123.81 COMPAT_FILES. */
function versionFiles(variant: Variant, root: string): string[] {
	if (runtimeOf(variant) === 'compat') return compatFiles(root);
	const all = readdirSync(path.join(root, E2E_DIR)).filter((file) => file.endsWith('.e2e.test.ts'));
	return all.map((file) => path.join(E2E_DIR, file));
}

/** The files of one lane of LANES; throws when a lane lists a file that does not exist. */
export function laneFiles(name: string, root: string = ROOT): string[] {
	const lane = LANES[name];
	if (lane.files !== undefined) return existing(`Lane "${name}"`, lane.files, root);
	const version = runtimeOf(lane.variant);
	const others = Object.entries(LANES).filter(
		([other, spec]) => other !== name && runtimeOf(spec.variant) === version,
	);
	const listed = new Set(others.flatMap(([other]) => laneFiles(other, root)));
	return versionFiles(lane.variant, root).filter((file) => !listed.has(file));
}

/** Whether the command line names end-to-end files (a path under test/e2e/ or a file name). */
export function asksForFiles(args: string[]): boolean {
	return args.some((arg) => /(^|\/)test\/e2e\/|\.e2e\.test\.ts$/.test(arg));
}

/**
 * The arguments jest gets for one run. Files asked for on the command line run as asked (any file, on either
 * version); else a lane runs its files, and a runtime alone its version's files (the scheduler: the polling files).
 */
export function e2eJestArgs(variant: Variant, args: string[], lane?: string): string[] {
	if (asksForFiles(args)) return args;
	if (lane !== undefined) return [...args, ...laneFiles(lane)];
	if (variant === 'compat') return [...args, ...compatFiles()];
	if (variant === 'scheduler') return [...args, path.join(E2E_DIR, 'polling')];
	return args;
}
