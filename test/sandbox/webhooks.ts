/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
import { createHmac, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';

import { jsonText } from './jsonText';
import type {
	DeliveryLogEntry,
	DeliveryOutcome,
	DeliveryStatus,
	WebhookSubscription,
} from './types';

/** Delay before each attempt (spec §8: 0, 5 s, 5 min, 30 min, 2, 5, 10, 14, 20, 24 h), before the time scale. */
export const RETRY_SCHEDULE_MS: readonly number[] = [
	0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000,
	86_400_000,
];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;
export const USER_AGENT = 'CRM-Sandbox-Webhooks/1.0';
const TIMER_MAX_MS = 2_147_483_647;

export function generateSecret(): string {
	return 'whsec_' + randomBytes(24).toString('base64');
}

/** One `v1,<base64>` entry: HMAC-SHA256 of "id.timestamp.body" keyed with the decoded secret. */
export function sign(secret: string, webhookId: string, timestamp: number, body: Buffer): string {
	const hmac = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'));
	hmac.update(`${webhookId}.${timestamp}.`);
	hmac.update(body);
	return 'v1,' + hmac.digest('base64');
}

/** The webhook-signature header: the current secret, plus the previous one during a rotation window. */
export function signatureHeader(
	subscription: WebhookSubscription,
	signed: { webhookId: string; timestamp: number; body: Buffer },
	now: number,
): string {
	const { webhookId, timestamp, body } = signed;
	const { secret, previousSecret, previousSecretExpiresAt } = subscription;
	const overlap = previousSecret && Date.parse(previousSecretExpiresAt ?? '') > now;
	const secrets = overlap ? [secret, previousSecret] : [secret];
	return secrets.map((key) => sign(key, webhookId, timestamp, body)).join(' ');
}

interface Delivery {
	subscriptionId: string;
	webhookId: string;
	event: string;
	body: Buffer;
	/** Attempts made so far. */
	attempts: number;
}

export interface DeliveryEngineHost {
	getSubscription(id: string): WebhookSubscription | undefined;
	timeScale(): number;
	deliveryTimeoutMs: number;
	log(entry: DeliveryLogEntry): void;
}

/**
 * Queues deliveries and runs attempts on unref'd timers, so nothing here keeps the process alive.
 * cancelAll() clears every pending timer and aborts requests in flight.
 */
export class DeliveryEngine {
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly inFlight = new Set<http.ClientRequest>();
	private generation = 0;

	constructor(private readonly host: DeliveryEngineHost) {}

	/** Queues one delivery per subscription; returns the webhook-ids. */
	enqueue(subscriptions: WebhookSubscription[], event: string, payload: unknown): string[] {
		const timestamp = new Date().toISOString();
		const body = Buffer.from(jsonText({ event, timestamp, payload }), 'utf8');
		return subscriptions.map((subscription) => {
			const delivery: Delivery = {
				subscriptionId: subscription.id,
				webhookId: 'msg_' + randomBytes(12).toString('hex'),
				event,
				body,
				attempts: 0,
			};
			this.schedule(delivery);
			return delivery.webhookId;
		});
	}

	get pending(): number {
		return this.timers.size + this.inFlight.size;
	}

	cancelAll(): void {
		this.generation++;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const request of this.inFlight) request.destroy();
		this.inFlight.clear();
	}

	private schedule(delivery: Delivery): void {
		const delay = Math.min(
			TIMER_MAX_MS,
			Math.max(0, RETRY_SCHEDULE_MS[delivery.attempts] * this.host.timeScale()),
		);
		const generation = this.generation;
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			if (generation === this.generation) this.attempt(delivery);
		}, delay);
		timer.unref();
		this.timers.add(timer);
	}

	private attempt(delivery: Delivery): void {
		const subscription = this.host.getSubscription(delivery.subscriptionId);
		// Deleted or disabled since: no further deliveries to that endpoint.
		if (!subscription || subscription.status !== 'active') return;
		delivery.attempts++;
		const attempt = delivery.attempts;
		const now = Date.now();
		const at = new Date(now).toISOString();
		const url = subscription.url;
		const generation = this.generation;
		let finished = false;
		const finish = (status: DeliveryStatus, error?: string): void => {
			if (finished) return;
			finished = true;
			clearTimeout(timeout);
			this.inFlight.delete(request);
			if (generation !== this.generation) return;
			const outcome = this.outcomeOf(status, attempt);
			const entry: DeliveryLogEntry = {
				subscriptionId: subscription.id,
				webhookId: delivery.webhookId,
				event: delivery.event,
				attempt,
				url,
				status,
				at,
				outcome,
			};
			if (error !== undefined) entry.error = error;
			this.host.log(entry);
			if (outcome === 'disabled') subscription.status = 'disabled';
			if (outcome === 'retrying') this.schedule(delivery);
		};
		const request = this.post(subscription, delivery, now);
		const timeout = setTimeout(() => {
			finish('timeout');
			request.destroy();
		}, this.host.deliveryTimeoutMs);
		timeout.unref();
		request.on('response', (response) => {
			// Drain the body; the status is all that matters, once the response is complete.
			response.resume();
			response.on('end', () => finish(response.statusCode ?? 0));
			response.on('error', (err) => finish('error', err.message));
		});
		request.on('error', (err) => finish('error', err.message));
		request.end(delivery.body);
	}

	/** The signed POST of one attempt (its body not yet written), counted in flight. */
	private post(subscription: WebhookSubscription, delivery: Delivery, now: number) {
		const target = new URL(subscription.url);
		const transport = target.protocol === 'https:' ? https : http;
		const { webhookId, body } = delivery;
		const timestamp = Math.floor(now / 1000);
		const request = transport.request(target, {
			method: 'POST',
			agent: false,
			headers: {
				'content-type': 'application/json',
				'content-length': String(body.length),
				'user-agent': USER_AGENT,
				'webhook-id': webhookId,
				'webhook-timestamp': String(timestamp),
				'webhook-signature': signatureHeader(subscription, { webhookId, timestamp, body }, now),
			},
		});
		this.inFlight.add(request);
		return request;
	}

	private outcomeOf(status: DeliveryStatus, attempt: number): DeliveryOutcome {
		if (typeof status === 'number') {
			if (status >= 200 && status < 300) return 'delivered';
			if (status === 410) return 'disabled';
			if (status >= 400 && status < 500 && status !== 429) return 'failed';
		}
		// 429, 5xx, other statuses, timeouts and network errors are retried.
		return attempt < MAX_ATTEMPTS ? 'retrying' : 'permanently_failed';
	}
}
