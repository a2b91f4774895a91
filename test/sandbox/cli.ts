/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** `npm run sandbox`: starts the sandbox CRM and runs until Ctrl-C. Its flags and their variables: FLAGS, USAGE. */
import { seedSummaryLines } from './seedSummary';
import { DEFAULT_RATE_LIMIT, startSandbox } from './server';
import {
	LIST_ORDERS,
	PERSONALITIES,
	type ListOrder,
	type SandboxOptions,
	type SandboxPersonality,
} from './types';

const FLAGS: Record<string, string> = {
	port: 'SANDBOX_PORT',
	host: 'SANDBOX_HOST',
	'rate-limit': 'SANDBOX_RATE_LIMIT',
	'rate-window-ms': 'SANDBOX_RATE_WINDOW_MS',
	'seed-leads': 'SANDBOX_SEED_LEADS',
	'time-scale': 'SANDBOX_TIME_SCALE',
	personality: 'SANDBOX_PERSONALITY',
	'list-order': 'SANDBOX_LIST_ORDER',
	'activity-ms': 'SANDBOX_ACTIVITY_MS',
};

const USAGE = `Usage: npm run sandbox -- [--port 5680] [--host 127.0.0.1] [--rate-limit 60|off] [--rate-window-ms 60000] [--seed-leads N] [--time-scale 1] [--personality standard|alternate] [--list-order oldest|newest] [--activity-ms N|off]`;

/** The flags' values: from their variables, then from the arguments. */
function readFlags(argv: string[], env: NodeJS.ProcessEnv): Record<string, string> {
	const values: Record<string, string> = {};
	for (const [flag, name] of Object.entries(FLAGS)) {
		const value = env[name];
		if (value !== undefined && value !== '') values[flag] = value;
	}
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--help' || arg === '-h') throw new UsageError('');
		const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
		if (!match || !(match[1] in FLAGS)) throw new UsageError(`Unknown argument: ${arg}`);
		const value = match[2] ?? argv[++i];
		if (value === undefined) throw new UsageError(`Missing value for --${match[1]}`);
		values[match[1]] = value;
	}
	return values;
}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): SandboxOptions {
	const values = readFlags(argv, env);

	const number = (flag: string, fallback: number, min: number): number => {
		const raw = values[flag];
		if (raw === undefined) return fallback;
		const value = Number(raw);
		if (raw.trim() === '' || !Number.isFinite(value) || value < min)
			throw new UsageError(`--${flag} must be a number >= ${min}, got ${raw}`);
		return value;
	};
	const integer = (flag: string, fallback: number, min: number): number => {
		const value = number(flag, fallback, min);
		if (!Number.isInteger(value))
			throw new UsageError(`--${flag} must be an integer, got ${values[flag]}`);
		return value;
	};

	const personality = values.personality ?? 'standard';
	if (!(PERSONALITIES as readonly string[]).includes(personality))
		throw new UsageError(
			`--personality must be one of ${PERSONALITIES.join(', ')}, got ${personality}`,
		);

	const listOrder = values['list-order'] ?? 'oldest';
	if (!(LIST_ORDERS as readonly string[]).includes(listOrder))
		throw new UsageError(`--list-order must be one of ${LIST_ORDERS.join(', ')}, got ${listOrder}`);
	const off = (flag: string): boolean =>
		['off', 'false', 'none', '0'].includes((values[flag] ?? '').toLowerCase());
	const activityOff = values['activity-ms'] === undefined || off('activity-ms');
	const activity = activityOff ? false : { everyMs: integer('activity-ms', 0, 100) };
	const unlimited = off('rate-limit');
	return {
		port: integer('port', 5680, 0),
		host: values.host ?? '127.0.0.1',
		rateLimit: unlimited
			? false
			: {
					limit: integer('rate-limit', DEFAULT_RATE_LIMIT.limit, 1),
					windowMs: integer('rate-window-ms', DEFAULT_RATE_LIMIT.windowMs, 1),
				},
		seedLeads: integer('seed-leads', 0, 0),
		timeScale: number('time-scale', 1, 0),
		personality: personality as SandboxPersonality,
		...(values['list-order'] !== undefined ? { listOrder: listOrder as ListOrder } : {}),
		...(activity ? { activity } : {}),
	};
}

class UsageError extends Error {}

async function main(): Promise<void> {
	let options: SandboxOptions;
	try {
		options = parseArgs(process.argv.slice(2), process.env);
	} catch (err) {
		if (!(err instanceof UsageError)) throw err;
		if (err.message) console.error(err.message);
		console.error(USAGE);
		process.exit(err.message ? 2 : 0);
	}
	const sandbox = await startSandbox(options);
	const control = `${sandbox.url}/__sandbox`;
	const rateLimit = sandbox.config.rateLimit;
	console.log(
		[
			`CRM sandbox listening on ${sandbox.url}`,
			`  API v1:   ${sandbox.url}/api/v1`,
			`  API v2:   ${sandbox.url}/api/v2`,
			`  Admin key:     ${sandbox.keys.admin}`,
			`  Read-only key: ${sandbox.keys.readOnly}`,
			`  Rate limit: ${rateLimit ? `${rateLimit.limit} requests per ${rateLimit.windowMs} ms per key` : 'off'}; time scale ${sandbox.config.timeScale}; leads ${sandbox.state.leads.size}; personality ${sandbox.config.personality}; list order ${sandbox.config.listOrder}; activity ${sandbox.config.activity ? `every ${sandbox.config.activity.everyMs} ms` : 'off'}`,
			`Seeded ids (the same on every start; the examples in examples/ use them):`,
			...seedSummaryLines(sandbox.state),
			`Control endpoints (no auth):`,
			`  GET    ${control}/health`,
			`  GET    ${control}/requests                DELETE ${control}/requests`,
			`  GET    ${control}/webhooks                (subscriptions with secrets)`,
			`  GET    ${control}/deliveries`,
			`  POST   ${control}/reset`,
			`  POST   ${control}/config {"rateLimit":{"limit":60,"windowMs":60000}|false,"timeScale":1,"personality":"standard"|"alternate"}`,
			`  POST   ${control}/seed {"leads":N}`,
			`  POST   ${control}/config {"listOrder":"newest","activity":{"everyMs":30000}|false}`,
			`  POST   ${control}/faults {"status":502,"count":1,"html":true,"pathPrefix":"/api/v1/leads"}    GET|DELETE ${control}/faults`,
			`  POST   ${control}/emit {"event":"lead.created","payload":{}}`,
			`Press Ctrl-C to stop.`,
		].join('\n'),
	);
	let stopping = false;
	const stop = (): void => {
		if (stopping) return;
		stopping = true;
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
