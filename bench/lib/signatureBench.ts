/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Cost of verifying one delivery's signature: this package's verifyWebhookSignature against the reference
 * implementation, the `standardwebhooks` library's Webhook.verify. In-process, same message, interleaved rounds.
 *
 * Run directly (`tsx bench/lib/signatureBench.ts`) it prints its result as JSON, so the benchmark can also measure
 * it under the Node.js that runs n8n.
 */
import { randomBytes } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

import { verifyWebhookSignature } from '../../nodes/CrmInvoicing/trigger/signature';
import { sign } from '../../test/sandbox/webhooks';
import { median } from './stats';

export interface SignatureVariant {
	key: string;
	label: string;
	/** Nanoseconds per verification, one value per measured round. */
	nsPerOp: number[];
	medianNs: number;
}

export interface SignatureBenchResult {
	node: string;
	iterations: number;
	rounds: number;
	bodyBytes: number;
	variants: SignatureVariant[];
}

/** The body of a lead.created delivery, shaped as the sandbox sends it (spec §6). */
export function leadCreatedBody(leadId: string, customFields: Record<string, unknown>): Buffer {
	const now = new Date().toISOString();
	return Buffer.from(
		JSON.stringify({
			event: 'lead.created',
			timestamp: now,
			payload: {
				id: leadId,
				name: 'Jane Doe',
				email: 'jane.doe@example.com',
				mobile: '+15550001234',
				title: 'Head of Operations',
				value: 12000,
				source: 'Website',
				stage: 'New',
				stageId: 1,
				archived: false,
				createdAt: now,
				customFields,
				ownerId: 1,
				ownerName: 'Dev Owner',
			},
		}),
		'utf8',
	);
}

/** A lead.created delivery as the sandbox sends it. */
export function sampleDelivery(): {
	secret: string;
	body: Buffer;
	headers: Record<string, string>;
} {
	const secret = 'whsec_' + randomBytes(24).toString('base64');
	const body = leadCreatedBody('lead_8f14e45fceea167a5a36dedd4bea2543', {
		industry: 'Logistics',
		employees: 120,
	});
	const id = 'msg_' + randomBytes(12).toString('hex');
	const timestamp = Math.floor(Date.now() / 1000);
	return {
		secret,
		body,
		headers: {
			'content-type': 'application/json',
			'user-agent': 'CRM-Sandbox-Webhooks/1.0',
			'webhook-id': id,
			'webhook-timestamp': String(timestamp),
			'webhook-signature': sign(secret, id, timestamp, body),
		},
	};
}

/** Async only to let the event loop breathe between timed chunks (this process also serves the sandbox). */
export async function measureSignature(
	iterations = 20_000,
	rounds = 7,
): Promise<SignatureBenchResult> {
	const { secret, body, headers } = sampleDelivery();
	const library = new Webhook(secret);
	let sink = 0;
	const variants: Array<{ key: string; label: string; op: () => void }> = [
		{
			key: 'ours',
			label: 'verifyWebhookSignature (this package)',
			op: () => {
				const result = verifyWebhookSignature({ secret, headers, rawBody: body });
				if (!result.ok) throw new Error(`ours rejected the delivery: ${result.reason}`);
				sink += result.timestamp;
			},
		},
		{
			key: 'library',
			label: 'standardwebhooks Webhook.verify (instance reused, jsonParse: false)',
			op: () => {
				library.verify(body, headers, { jsonParse: false });
				sink++;
			},
		},
		{
			key: 'libraryDefault',
			label: 'standardwebhooks Webhook.verify (instance reused, default: parses the JSON)',
			op: () => {
				sink += library.verify(body, headers) ? 1 : 0;
			},
		},
		{
			key: 'libraryPerCall',
			label: 'standardwebhooks new Webhook(secret).verify per delivery (jsonParse: false)',
			op: () => {
				new Webhook(secret).verify(body, headers, { jsonParse: false });
				sink++;
			},
		},
	];
	const samples = new Map<string, number[]>(variants.map((variant) => [variant.key, []]));
	// Round 0 warms up (JIT) and is not counted; the order rotates each round.
	for (let round = 0; round <= rounds; round++) {
		const order = variants.map((_, index) => variants[(index + round) % variants.length]);
		for (const variant of order) {
			await new Promise((resolve) => setImmediate(resolve));
			const started = process.hrtime.bigint();
			for (let i = 0; i < iterations; i++) variant.op();
			const ns = Number(process.hrtime.bigint() - started) / iterations;
			if (round > 0) samples.get(variant.key)!.push(ns);
		}
	}
	if (sink === 0) throw new Error('unreachable');
	return {
		node: process.version,
		iterations,
		rounds,
		bodyBytes: body.length,
		variants: variants.map((variant) => {
			const nsPerOp = samples.get(variant.key)!;
			return { key: variant.key, label: variant.label, nsPerOp, medianNs: median(nsPerOp) };
		}),
	};
}

if (require.main === module) {
	const iterations = Number(process.argv[2] ?? 20_000);
	const rounds = Number(process.argv[3] ?? 7);
	void measureSignature(iterations, rounds).then((result) =>
		process.stdout.write(JSON.stringify(result)),
	);
}
