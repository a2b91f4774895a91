/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

import { parseArgs } from './cli';

jest.setTimeout(30_000);

describe('sandbox CLI arguments', () => {
	it('uses the documented defaults', () => {
		expect(parseArgs([], {})).toEqual({
			port: 5680,
			host: '127.0.0.1',
			rateLimit: { limit: 60, windowMs: 60_000 },
			seedLeads: 0,
			timeScale: 1,
			deliveryTimeoutMs: 20_000,
			personality: 'standard',
		});
	});

	it('reads flags, --flag=value and environment variables, flags winning', () => {
		expect(
			parseArgs(
				[
					'--rate-limit',
					'5',
					'--rate-window-ms=1000',
					'--seed-leads',
					'10000',
					'--time-scale',
					'0.001',
					'--port',
					'0',
				],
				{ SANDBOX_PORT: '7000', SANDBOX_SEED_LEADS: '3' },
			),
		).toMatchObject({
			port: 0,
			rateLimit: { limit: 5, windowMs: 1_000 },
			seedLeads: 10_000,
			timeScale: 0.001,
		});
		expect(parseArgs([], { SANDBOX_PORT: '7000' }).port).toBe(7000);
		expect(parseArgs(['--rate-limit', 'off'], {}).rateLimit).toBe(false);
		expect(parseArgs(['--personality', 'alternate'], {}).personality).toBe('alternate');
		expect(parseArgs([], { SANDBOX_PERSONALITY: 'alternate' }).personality).toBe('alternate');
	});

	it('rejects unknown flags and bad values', () => {
		expect(() => parseArgs(['--nope'], {})).toThrow('Unknown argument: --nope');
		expect(() => parseArgs(['--port'], {})).toThrow('Missing value for --port');
		expect(() => parseArgs(['--port', 'x'], {})).toThrow('--port must be a number');
		expect(() => parseArgs(['--seed-leads', '1.5'], {})).toThrow('--seed-leads must be an integer');
		expect(() => parseArgs(['--personality', 'strict'], {})).toThrow(
			'--personality must be one of standard, alternate, got strict',
		);
	});
});

describe('sandbox CLI process', () => {
	it('prints its URL and keys, serves the API, and stops on SIGINT', async () => {
		const root = path.resolve(__dirname, '../..');
		const child = spawn(
			process.execPath,
			[
				path.join(root, 'node_modules/tsx/dist/cli.mjs'),
				path.join(__dirname, 'cli.ts'),
				'--port',
				'0',
				'--seed-leads',
				'5',
			],
			{
				cwd: root,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		const exited = new Promise<number | null>((resolve) =>
			child.on('exit', (code) => resolve(code)),
		);
		try {
			let output = '';
			child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
			child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
			const url = await new Promise<string>((resolve, reject) => {
				const timer = setTimeout(
					() => reject(new Error(`No URL printed within 20 s:\n${output}`)),
					20_000,
				);
				const check = (): void => {
					const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
					if (match && output.includes('Press Ctrl-C')) {
						clearTimeout(timer);
						resolve(match[1]);
					}
				};
				child.stdout.on('data', check);
				child.on('exit', () => {
					clearTimeout(timer);
					reject(new Error(`CLI exited early:\n${output}`));
				});
			});
			expect(output).toContain('sk_sandbox_admin_0123456789abcdef');
			expect(output).toContain('sk_sandbox_readonly_0123456789abcdef');
			expect(output).toContain(`${url}/__sandbox/requests`);
			const response = await fetch(`${url}/api/v1/leads?limit=100`, {
				headers: { 'x-api-key': 'sk_sandbox_admin_0123456789abcdef' },
			});
			expect(response.status).toBe(200);
			expect(((await response.json()) as { items: unknown[] }).items).toHaveLength(8);
			child.kill('SIGINT');
			expect(await exited).toBe(0);
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
		}
	});
});
