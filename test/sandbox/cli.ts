/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** `npm run sandbox`: starts the sandbox CRM and runs until Ctrl-C. Its flags: USAGE. */
import { parseArgs as readFlags } from 'node:util';

import { ApiError } from './api';
import { seedSummaryLines } from './seedSummary';
import { DEFAULT_RATE_LIMIT, startSandbox } from './server';
import type { ListOrder, Sandbox, SandboxOptions, SandboxPersonality } from './types';

const FLAGS =
	'port host rate-limit rate-window-ms seed-leads time-scale personality list-order activity-ms'.split(
		' ',
	);

const USAGE = `Usage: npm run sandbox -- [--port 5680] [--host 127.0.0.1] [--rate-limit 60|off] [--rate-window-ms 60000] [--seed-leads N] [--time-scale 1] [--personality standard|alternate] [--list-order oldest|newest|newestCreated] [--activity-ms N|off]`;

class UsageError extends Error {}

/** The sandbox's options from the flags; the sandbox itself refuses a personality or list order it does not know. */
export function parseArgs(argv: string[]): SandboxOptions {
	let values: Record<string, string | boolean | undefined>;
	try {
		const options = Object.fromEntries(FLAGS.map((flag) => [flag, { type: 'string' as const }]));
		const help = { type: 'boolean' as const, short: 'h' };
		values = readFlags({ args: argv, options: { ...options, help } }).values;
	} catch (err) {
		throw new UsageError((err as Error).message);
	}
	if (values.help) throw new UsageError('');
	const number = (flag: string, fallback: number, min: number, integer = true): number => {
		const raw = values[flag];
		if (typeof raw !== 'string') return fallback;
		const value = Number(raw);
		const whole = integer ? Number.isInteger(value) : Number.isFinite(value);
		if (raw.trim() === '' || !whole || value < min)
			throw new UsageError(
				`--${flag} must be ${integer ? 'an integer' : 'a number'} >= ${min}, got ${raw}`,
			);
		return value;
	};
	const off = (flag: string): boolean => /^(off|false|none|0)$/i.test(String(values[flag]));
	const options: SandboxOptions = {
		port: number('port', 5680, 0),
		host: (values.host as string | undefined) ?? '127.0.0.1',
		rateLimit: off('rate-limit')
			? false
			: {
					limit: number('rate-limit', DEFAULT_RATE_LIMIT.limit, 1),
					windowMs: number('rate-window-ms', DEFAULT_RATE_LIMIT.windowMs, 1),
				},
		seedLeads: number('seed-leads', 0, 0),
		timeScale: number('time-scale', 1, 0, false),
		personality: (values.personality ?? 'standard') as SandboxPersonality,
	};
	if (values['list-order'] !== undefined) options.listOrder = values['list-order'] as ListOrder;
	if (values['activity-ms'] !== undefined && !off('activity-ms'))
		options.activity = { everyMs: number('activity-ms', 0, 100) };
	return options;
}

async function main(): Promise<void> {
	let sandbox: Sandbox;
	try {
		sandbox = await startSandbox(parseArgs(process.argv.slice(2)));
	} catch (err) {
		if (!(err instanceof UsageError) && !(err instanceof ApiError)) throw err;
		if (err.message) console.error(err.message);
		console.error(USAGE);
		process.exit(err.message ? 2 : 0);
	}
	const { rateLimit, timeScale, personality, listOrder, activity } = sandbox.config;
	const limit = rateLimit
		? `${rateLimit.limit} requests per ${rateLimit.windowMs} ms per key`
		: 'off';
	console.log(
		[
			`CRM sandbox listening on ${sandbox.url}`,
			`  API v1:   ${sandbox.url}/api/v1`,
			`  API v2:   ${sandbox.url}/api/v2`,
			`  Admin key:     ${sandbox.keys.admin}`,
			`  Read-only key: ${sandbox.keys.readOnly}`,
			`  Rate limit: ${limit}; time scale ${timeScale}; leads ${sandbox.state.leads.size}; personality ${personality}; list order ${listOrder}; activity ${activity ? `every ${activity.everyMs} ms` : 'off'}`,
			`Seeded ids (the same on every start; the examples in examples/ use them):`,
			...seedSummaryLines(sandbox.state),
			`Control endpoints (no auth) under ${sandbox.url}/__sandbox/: see test/sandbox/README.md`,
			`Press Ctrl-C to stop.`,
		].join('\n'),
	);
	const stop = (): void => {
		console.log('\nStopping the sandbox.');
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

if (require.main === module) {
	main().catch((err: Error) => {
		console.error(err.stack ?? err.message);
		process.exit(1);
	});
}
