/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npx tsx bench/firstLook.ts`: node time of the redactor's first look (`mayHoldSecret`, transport/redact.ts) at one
 * page of 100 leads without the key, plain and with JSON escapes in every record (`\u00eb`, `\"`, `\/`: a server that
 * escapes every non-ASCII letter). The first look runs on every answer Return All reads. Prints ms per page.
 */
import { mayHoldSecret, secretSpellings } from '../nodes/CrmInvoicing/shared/transport/redact';

const secrets = secretSpellings('sk_live_abcdefghijklmnop');
const lead = (i: number, escaped: boolean) => ({
	id: `lead_${i}`,
	name: escaped ? `Zoë "Q" O'Brien ${i}` : `Lead Name ${i}`,
	email: `lead${i}@example.com`,
	website: 'https://x.example/a',
	value: i,
	createdAt: '2026-01-01T00:00:00Z',
	customFields: { tier: 'gold' },
});
for (const escaped of [false, true]) {
	const items = Array.from({ length: 100 }, (_, i) => lead(i, escaped));
	let text = JSON.stringify({ items, hasMore: true, nextCursor: 'c' });
	if (escaped) text = text.replace(/ë/g, '\\u00eb').replace(/\//g, '\\/');
	for (let i = 0; i < 200; i++) mayHoldSecret(text, secrets);
	const started = process.hrtime.bigint();
	for (let i = 0; i < 1000; i++) mayHoldSecret(text, secrets);
	const ms = Number(process.hrtime.bigint() - started) / 1e9;
	console.log(`${escaped ? 'escaped' : 'plain'} page (${text.length} bytes): ${ms.toFixed(3)} ms`);
}
