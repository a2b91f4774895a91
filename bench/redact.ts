/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npx tsx bench/redact.ts`: node time of the key's redaction where an answer is read (transport/redact.ts), on the
 * largest answers the transport reads (READ.maxAnswerBytes, 16 MB): a JSON page walked after JSON.parse (every string
 * and key), the same answer scanned as text (an answer that is not JSON), and texts built to be the worst case of the
 * text scan (16 MB of near misses of the key, of `&`, `%` and `\`, each of which starts a spelling to decode). Median
 * of 5 runs. The scan is meant to be linear: 16 MB of any of them takes about as long as 16 MB of plain text.
 * Prints the table and writes it, with date, machine and Node.js version, to bench/REDACT-RESULTS.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';

import { redactValue } from '../nodes/CrmInvoicing/shared/transport/redact';
import { medianTimeMs as time } from './lib/stats';

/** A text (an answer that is not JSON) is redacted as a text. */
const redactSecrets = (text: string, secrets: string[]): string => redactValue(text, secrets);

const KEY = 'sk_live_R3dact/Me9+Pl3ase==';
const SIZE = 16_000_000;

/** A page of leads whose fields hold `%`, `&` and `\` (each a spelling the text scan decodes), about `bytes` long. */
function page(bytes: number): string {
	const record = (i: number) => ({
		id: `lead_${i}`,
		name: `Name ${i}`,
		email: `x${i}@example.com`,
		website: 'https://example.com/a%20b?x=1&y=2',
		customFields: { note: 'text with % and & and \\', list: [1, 2, 3] },
	});
	const one = Buffer.byteLength(JSON.stringify(record(0))) + 1;
	return JSON.stringify({
		items: Array.from({ length: Math.floor(bytes / one) }, (_, i) => record(i)),
		hasMore: false,
	});
}

const json = page(SIZE);
const rows: Array<[string, number, number]> = [
	['JSON page: JSON.parse (for comparison)', Buffer.byteLength(json), time(() => JSON.parse(json))],
	[
		'JSON page: JSON.parse and the walk of every string and key',
		Buffer.byteLength(json),
		time(() => redactValue(JSON.parse(json), [KEY])),
	],
	[
		'the same page scanned as text',
		Buffer.byteLength(json),
		time(() => redactSecrets(json, [KEY])),
	],
	['plain text, no spelling to decode', SIZE, time(() => redactSecrets('x'.repeat(SIZE), [KEY]))],
];
for (const [name, unit] of [
	[
		'near misses of the key, JSON-escaped (`sk_live_R3dact\\/Me9+Pl3ase=`, one `=` short)',
		'sk_live_R3dact\\/Me9+Pl3ase=',
	],
	['`&` (each may start an HTML reference)', '&'],
	['`%` (each may start a percent-encoded byte)', '%'],
	['`\\` (each may start a JSON escape)', '\\'],
] as const) {
	const text = unit.repeat(Math.floor(SIZE / unit.length));
	rows.push([`text of ${name}`, Buffer.byteLength(text), time(() => redactSecrets(text, [KEY]))]);
}

const lines = [
	'# Redaction of the API key, on the largest answers',
	'',
	`\`npx tsx bench/redact.ts\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} cores, load average ${loadavg()
		.map((load) => load.toFixed(1))
		.join(' ')}). Median of 5 runs; the key holds \`/\`, \`+\` and \`=\`.`,
	'',
	'| Answer | Size | Node time |',
	'|---|---|---|',
	...rows.map(
		([name, bytes, ms]) =>
			`| ${name} | ${(bytes / 1024 / 1024).toFixed(1)} MB | ${ms.toFixed(0)} ms |`,
	),
	'',
	'Every answer the transport reads is redacted: a JSON answer by the walk after JSON.parse, one that is not JSON by',
	'the text scan. The scan is one regular expression per key (each character in any of its spellings): the texts built',
	'to make it try a spelling at every character take about as long per MB as any other, and a text of near misses costs',
	"at most the key's length per character. (A first version looked for the `;` of an HTML reference to the end of the",
	'text, which made 10 MB with many `&` take 4.5 s; the pattern bounds every reference.)',
	'',
];
writeFileSync(path.join(__dirname, 'REDACT-RESULTS.md'), lines.join('\n'));
console.log(lines.join('\n'));
