/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npx tsx bench/errorBody.ts`: node time to turn a large non-JSON error body into the node's error, with the
 * package's error handling (nodes/CrmInvoicing/shared/transport/errors.ts: cut to READ.maxErrorBodyBytes, linear scan) and with
 * 0.1's regular expressions over the whole body (kept here as the reference). Median of 5 runs per body; the reference
 * runs only on bodies up to 160 KB, since it grows quadratically (issue 11: 160 KB of "<" took 8 s).
 * Prints the table and writes it, with date, machine and Node.js version, to bench/ERROR-BODY-RESULTS.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { apiErrorFromResponse } from '../nodes/CrmInvoicing/shared/transport/errors';
import type { INode } from 'n8n-workflow';

import { medianTimeMs as time } from './lib/stats';

const node = {
	id: 'bench',
	name: 'CRM Invoicing',
	type: 'crmInvoicing',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const request = { method: 'GET', path: '/api/v1/leads/lead_1' };

/** 0.1's textOf, over the whole body. */
function referenceTextOf(html: string): string {
	const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
	const text = (title ?? html)
		.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

const bodies: Array<[string, string]> = [
	['16 KB of "<"', '<'.repeat(16_384)],
	['160 KB of "<"', '<'.repeat(160_000)],
	['2 MB of "<"', '<'.repeat(2_000_000)],
	[
		'2 MB HTML page (title + 400,000 tags)',
		`<html><head><title>502 Bad Gateway</title></head><body>${'<div>'.repeat(400_000)}</body></html>`,
	],
	['2 MB of "<title" without an end', '<title'.repeat(350_000)],
];

const lines = ['| Body | Package (ms) | 0.1 regexes (ms) |', '|---|---|---|'];
for (const line of lines) console.log(line);
for (const [name, body] of bodies) {
	const ours = time(() => apiErrorFromResponse(node, 502, body, request));
	const reference =
		body.length <= 160_000
			? time(() => referenceTextOf(body), body.length > 20_000 ? 1 : 5).toFixed(1)
			: 'not run';
	const line = `| ${name} | ${ours.toFixed(2)} | ${reference} |`;
	lines.push(line);
	console.log(line);
}

const header = [
	'# Error body handling: node time',
	'',
	`\`npx tsx bench/errorBody.ts\` on ${new Date().toISOString()}: Node.js ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'},`,
	`load average ${loadavg()[0].toFixed(1)} when it started. Median of 5 runs (the 0.1 reference: 1 run above 20 KB).`,
	'',
];
writeFileSync(
	path.join(__dirname, 'ERROR-BODY-RESULTS.md'),
	`${[...header, ...lines].join('\n')}\n`,
);
