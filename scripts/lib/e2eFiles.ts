/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Which end-to-end files each n8n version runs. n8n 2.41.0 runs the whole suite (test/e2e/). n8n 1.123.81 runs the
 * files whose behaviour differs by n8n version, each listed here with the reason; the others exercise the package's own
 * code through the same n8n paths on both versions. Queue mode (scripts/queue.ts) runs test/queue/ only.
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
		"each version's rule for a lost subscription and a new WEBHOOK_URL: restart on 1.x, re-publish on 2.41 (its publication service)",
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

/**
 * n8n 2.41.0's whole suite runs as two lanes side by side, each with its own n8n and sandbox, so that it takes half the
 * wall-clock time (the tests mostly wait: for polls, restarts and the CRM's retries). The second lane runs these files,
 * about half of the suite's time by the per-file durations in CI's log; the first lane runs every other file.
 */
export const SECOND_LANE_FILES: readonly string[] = [
	'polling.e2e.test.ts',
	'polling-reads.e2e.test.ts',
	'key-rotation.e2e.test.ts',
	'upgrade.e2e.test.ts',
	'bounds.e2e.test.ts',
	'trigger-lifecycle.e2e.test.ts',
];

/** Which part of n8n 2.41.0's suite a run takes: all of it (one lane), or one of the two lanes. */
export type Lane = 'whole' | 'first' | 'second';

/** The listed files' paths (relative to the checkout); throws when one is missing, so none is dropped unnoticed. */
export function compatFiles(root: string = ROOT): string[] {
	const files = Object.keys(COMPAT_FILES).map((file) => path.join(E2E_DIR, file));
	const missing = files.filter((file) => !existsSync(path.join(root, file)));
	if (missing.length > 0)
		throw new Error(`COMPAT_FILES names files that do not exist: ${missing.join(', ')}`);
	return files;
}

/** The files of one lane of n8n 2.41.0's suite; throws when a SECOND_LANE_FILES entry is missing. */
export function laneFiles(lane: 'first' | 'second', root: string = ROOT): string[] {
	const all = readdirSync(path.join(root, E2E_DIR)).filter((file) => file.endsWith('.e2e.test.ts'));
	const missing = SECOND_LANE_FILES.filter((file) => !all.includes(file));
	if (missing.length > 0)
		throw new Error(`SECOND_LANE_FILES names files that do not exist: ${missing.join(', ')}`);
	const inSecond = (file: string) => SECOND_LANE_FILES.includes(file);
	const files = all.filter((file) => inSecond(file) === (lane === 'second'));
	return files.map((file) => path.join(E2E_DIR, file));
}

/** Whether the command line names end-to-end files (a path under test/e2e/ or a file name). */
export function asksForFiles(args: string[]): boolean {
	return args.some((arg) => /(^|\/)test\/e2e\/|\.e2e\.test\.ts$/.test(arg));
}

/**
 * The arguments jest gets for one version's run. Files asked for on the command line run as asked (any file, on either
 * version); without any, 2.41.0 runs the whole suite (or one lane of it) and 1.123.81 the listed files.
 */
export function e2eJestArgs(runtime: RuntimeName, args: string[], lane: Lane = 'whole'): string[] {
	if (asksForFiles(args)) return args;
	if (runtime === 'compat') return [...args, ...compatFiles()];
	if (lane === 'whole') return args;
	return [...args, ...laneFiles(lane)];
}
