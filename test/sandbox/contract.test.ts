/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The sandbox CRM's contract, written once, against a real sandbox on loopback: each row of the tables is a request
 * and the answer that the spec (/work/shared/spec/crm-api.md, § in each table's name) or the switch or fault of
 * test/sandbox/README.md says. What one request cannot show (a walk through pages, deliveries and their retries,
 * streams, time) is in the flows after the tables, each bounded.
 *
 * A row: `name | given | request | status | answer | headers`.
 * - given: requests sent first (`;` between them), most to the control endpoints `/__sandbox/…` that the README
 *   documents; request: the one whose answer is checked. Each is `[N× ][as KEY ]METHOD /path[ body]`, KEY one of
 *   KEYS (the admin key when absent; none on /__sandbox), body JSON (sent as it is when it is not JSON). `{id}` is the
 *   id the last given answer carried.
 *   The request may be several, joined by ` || `, each answered so.
 * - answer: JSON the body matches (toMatchObject), `= JSON` the whole body, `"text"` the whole text, `~text` a part;
 *   in JSON, "/re/" matches a string, "<number>"/"<string>" any, "<absent>" nothing; a key `#items` is the length of
 *   `items` (`#` of the body), `*items` what every item matches.
 * - headers: JSON, null for a header that is absent.
 * - $NAMES in a row are the MACROS below.
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

import { Webhook } from 'standardwebhooks';

import { parseArgs } from './cli';
import { escapedKey } from './edgeFaults';
import {
	call,
	type CallOptions,
	type CallResult,
	type Receiver,
	startReceiver,
	waitFor,
} from './helpers';
import { jsonText } from './jsonText';
import { EXAMPLE_IDS, seedSummaryLines } from './seedSummary';
import { DEFAULT_ADMIN_KEY, DEFAULT_READ_ONLY_KEY, startSandbox } from './server';
import { createStore } from './store';
import type { Sandbox, SandboxOptions, SandboxPersonality } from './types';
import { RETRY_SCHEDULE_MS } from './webhooks';

jest.setTimeout(20_000);

const LEAD = 'lead_9271262b72ee8108'; // John Smith, the first seeded lead
const ODD_KEY = 'sk_live_R3dact/Me9+Pl3ase=='; // a key with characters a JSON encoder escapes
const NEW_KEY = 'sk_sandbox_rotated_key_0001';
const KEYS: Record<string, string | null> = {
	admin: DEFAULT_ADMIN_KEY,
	none: null,
	bad: 'sk_wrong',
	readOnly: DEFAULT_READ_ONLY_KEY,
	odd: ODD_KEY,
	new: NEW_KEY,
};
const deal = {
	title: 'Big deal',
	pipelineId: 'pip_sales',
	stageId: 'stg_new',
	clientId: EXAMPLE_IDS.clientId,
};
const invoice = {
	clientId: EXAMPLE_IDS.clientId,
	date: '2024-05-01T00:00:00Z',
	dueDate: '2024-05-31T00:00:00Z',
};
const inner = (value: object) => JSON.stringify(value).slice(1, -1);
const MACROS: Record<string, string> = {
	$LEAD: LEAD,
	$CLIENT: EXAMPLE_IDS.clientId,
	$PRODUCT: EXAMPLE_IDS.productId,
	$ADMIN_KEY: DEFAULT_ADMIN_KEY,
	$NEW_KEY: NEW_KEY,
	$DEAL: inner(deal),
	$INVOICE: inner(invoice),
	$ITEM: inner({ lineItems: [{ name: 'A', price: 1, quantity: 1 }] }),
	$HOOK: inner({ name: 'hook', url: 'https://example.com/hook', events: ['lead.created'] }),
	$UNAUTHORIZED: inner({ code: 'UNAUTHORIZED' }),
	$INVALID: inner({ code: 'VALIDATION_ERROR' }),
	$NOT_FOUND: inner({ code: 'NOT_FOUND' }),
	$FORBIDDEN: inner({ code: 'FORBIDDEN' }),
};

/** One request as a client sends it (no redirect followed); `/__sandbox` routes go without a key by default. */
async function send(crm: Sandbox, method: string, route: string, options: CallOptions = {}) {
	return await call(crm, method, route, {
		key: route.startsWith('/api') ? undefined : null,
		...options,
	});
}
type Answer = CallResult;

/** A request of a row: `[N× ][as KEY ]METHOD /path[ body]`; the answers of its N sends. */
async function sendSpec(sandbox: Sandbox, spec: string, id: string): Promise<Answer> {
	const [, times, keyName, method, route, body] =
		/^(?:(\d+)× )?(?:as (\w+) )?([A-Z]+) (\S+)(?: (.*))?$/.exec(spec.replaceAll('{id}', id)) ?? [];
	if (!method) throw new Error(`Not a request: ${spec}`);
	const options: CallOptions = {};
	if (keyName) options.key = KEYS[keyName];
	if (body !== undefined) {
		try {
			options.body = JSON.parse(body);
		} catch {
			options.rawBody = body;
		}
	}
	let answer = await send(sandbox, method, route, options);
	for (let n = 1; n < Number(times ?? 1); n++) answer = await send(sandbox, method, route, options);
	return answer;
}

/** The row's JSON with its matchers: "/re/", "<number>", "<string>"; "<absent>" keys left out (see absent). */
function matchers(value: unknown): any {
	if (typeof value === 'string' && /^\/.+\/$/.test(value))
		return expect.stringMatching(new RegExp(value.slice(1, -1)));
	if (value === '<number>') return expect.any(Number);
	if (value === '<string>') return expect.any(String);
	if (Array.isArray(value)) return value.map(matchers);
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value)
				.filter(([, item]) => item !== '<absent>')
				.map(([key, item]) => [key, matchers(item)]),
		);
	return value;
}

/** The "<absent>" keys of the row's JSON are not in the answer. */
function absent(actual: any, expected: unknown): void {
	if (!expected || typeof expected !== 'object') return;
	for (const [key, value] of Object.entries(expected)) {
		if (value === '<absent>') expect({ [key]: actual?.[key] }).toEqual({ [key]: undefined });
		else absent(actual?.[key], value);
	}
}

function expectAnswer(answer: Answer, expected: string): void {
	if (expected.startsWith('~')) return expect(answer.text).toContain(expected.slice(1));
	if (expected.startsWith('"')) return expect(answer.text).toBe(JSON.parse(expected));
	const whole = expected.startsWith('=');
	const json = JSON.parse(whole ? expected.slice(1) : expected);
	absent(answer.body, json);
	if (whole) return expect(answer.body).toEqual(matchers(json));
	const plain: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
		const part = key.length > 1 ? answer.body[key.slice(1)] : answer.body;
		if (key.startsWith('#')) expect(part).toHaveLength(value as number);
		else if (key.startsWith('*'))
			for (const item of part) expect(item).toMatchObject(matchers(value));
		else plain[key] = value;
	}
	if (Array.isArray(json) || Object.keys(plain).length > 0)
		expect(answer.body).toMatchObject(matchers(Array.isArray(json) ? json : plain));
}

let sandbox: Sandbox;

/** Runs each row of a table as a test of its own. */
function table(text: string): void {
	const expanded = text.replace(/\$[A-Z_]+/g, (name) => MACROS[name] ?? name);
	const rows = expanded
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line !== '')
		.map((line) => line.split(' | ').map((cell) => cell.trim()));
	it.each(rows)('%s', async (...cells: string[]) => {
		const [, given, request, status, expected, headers] = cells;
		let id = '';
		for (const step of given === '' ? [] : given.split(' ; ')) {
			const answer = await sendSpec(sandbox, step, id);
			// A switch must take: a given control request that fails is a mistake of the row.
			if (step.includes(' /__sandbox') && answer.status >= 400)
				throw new Error(`${step} → ${answer.status}: ${answer.text}`);
			id = answer.body?.id ?? answer.body?.nextCursor ?? id;
		}
		// Requests joined by ` || ` are each answered so.
		for (const one of request.split(' || ')) {
			const answer = await sendSpec(sandbox, one, id);
			expect({ one, status: answer.status }).toEqual({ one, status: Number(status) });
			if (expected) expectAnswer(answer, expected);
			for (const [name, value] of Object.entries(JSON.parse(headers || '{}') as object)) {
				const actual = answer.headers.get(name);
				if (value === null) expect(actual).toBeNull();
				else expect(actual).toEqual(matchers(value));
			}
		}
	});
}

/** The switches as the sandbox starts: reset keeps them, so each test sets them back. */
let defaults: object;
beforeAll(async () => {
	sandbox = await startSandbox({ rateLimit: false });
	defaults = { ...sandbox.config };
});
afterAll(async () => await sandbox.close());
beforeEach(async () => {
	sandbox.reset();
	await send(sandbox, 'POST', '/__sandbox/config', { body: defaults });
	await send(sandbox, 'POST', '/__sandbox/keys', { body: { key: ODD_KEY } });
});

// prettier-ignore
describe('§5 authentication, §7 errors', () => table(String.raw`
no key: 401                             |  | as none GET /api/v1/leads | 401 | ={"error":{$UNAUTHORIZED,"message":"An API key is required in the x-api-key header."}}
an unknown key: 401                     |  | as bad GET /api/v1/leads | 401 | ={"error":{$UNAUTHORIZED,"message":"The API key in the x-api-key header is not valid."}}
an unknown key on v2: 401               |  | as bad GET /api/v2/contacts | 401 | ={"error":{$UNAUTHORIZED,"message":"The API key in the x-api-key header is not valid."}}
read-only: 403 to create leads          |  | as readOnly POST /api/v1/leads {"name":"x"} | 403 | ={"error":{$FORBIDDEN,"message":"The user who owns this API key does not have permission to create leads."}}
read-only: 403 to update leads          |  | as readOnly PATCH /api/v1/leads/$LEAD {"name":"x"} | 403 | {"error":{"message":"The user who owns this API key does not have permission to update leads."}}
read-only: 403 to create deals          |  | as readOnly POST /api/v1/deals {} | 403 | {"error":{"message":"The user who owns this API key does not have permission to create deals."}}
read-only: 403 to update deals          |  | as readOnly PATCH /api/v1/deals/deal_x {} | 403 | {"error":{"message":"The user who owns this API key does not have permission to update deals."}}
read-only: 403 to create invoices       |  | as readOnly POST /api/v1/invoices {} | 403 | {"error":{"message":"The user who owns this API key does not have permission to create invoices."}}
read-only: 403 to create webhooks       |  | as readOnly POST /api/v1/webhooks {} | 403 | {"error":{"message":"The user who owns this API key does not have permission to create webhooks."}}
read-only: 403 to delete webhooks       |  | as readOnly DELETE /api/v1/webhooks/whk_x | 403 | {"error":{"message":"The user who owns this API key does not have permission to delete webhooks."}}
read-only: a refused write writes nothing | as readOnly POST /api/v1/leads {"name":"x"} | GET /__sandbox/health | 200 | {"counts":{"leads":3}}
an added key acts for the admin         | POST /__sandbox/keys {"key":"$NEW_KEY"} ; as new POST /api/v1/leads {"name":"Via new"} | GET /api/v1/leads?search=Via%20new | 200 | {"items":[{"name":"Via new"}]}
POST /__sandbox/keys answers the key    |  | POST /__sandbox/keys {"key":"$NEW_KEY"} | 201 | ={"key":"$NEW_KEY","role":"admin"}
a revoked key: 401, a seeded one too    | DELETE /__sandbox/keys/$ADMIN_KEY | GET /api/v1/users | 401 | {"error":{"message":"The API key in the x-api-key header is not valid."}}
reset brings the seeded keys back       | DELETE /__sandbox/keys/$ADMIN_KEY ; POST /__sandbox/reset | GET /api/v1/users | 200
reset forgets an added key              | POST /__sandbox/keys {"key":"$NEW_KEY"} ; POST /__sandbox/reset | as new GET /api/v1/users | 401
an unknown route, v2 route, version, method: 404 |  | GET /api/v1/nothing || GET /api/v2/leads || GET /api/v3/contacts || DELETE /api/v1/leads/$LEAD | 404 | {"error":{$NOT_FOUND}}
an unknown lead: 404 naming it          |  | GET /api/v1/leads/lead_missing | 404 | ={"error":{$NOT_FOUND,"message":"Lead lead_missing was not found"}}
an unknown deal                         |  | GET /api/v1/deals/deal_missing | 404 | {"error":{"message":"Deal deal_missing was not found"}}
an unknown client                       |  | GET /api/v1/clients/cli_missing | 404 | {"error":{"message":"Client cli_missing was not found"}}
an unknown product                      |  | GET /api/v1/products/prd_missing | 404 | {"error":{"message":"Product prd_missing was not found"}}
an unknown webhook                      |  | GET /api/v1/webhooks/whk_missing | 404 | {"error":{"message":"Webhook whk_missing was not found"}}
an unknown invoice                      |  | GET /api/v1/invoices/inv_missing | 404 | {"error":{"message":"Invoice inv_missing was not found"}}
PATCH an unknown lead                   |  | PATCH /api/v1/leads/lead_missing {"name":"x"} | 404 | {"error":{"message":"Lead lead_missing was not found"}}
a body that is not JSON: 400            |  | POST /api/v1/leads {"name": | 400 | ={"error":{$INVALID,"message":"The request body is not valid JSON"}}
a body that is not an object: 400       |  | POST /api/v1/leads ["a"] | 400 | {"error":{"message":"The request body must be a JSON object"}}
`));

// prettier-ignore
describe('§4 leads', () => table(String.raw`
POST: a lead of its own id and number, defaults, extra keys kept |  | POST /api/v1/leads {"name":"Grace Hopper","email":"grace@example.com","value":2500,"stageId":"lst_new","customFields":{"tier":"gold"},"favouriteColour":"blue","id":"lead_forged"} | 200 | {"id":"/^lead_[0-9a-f]+$/","number":"L-00004","name":"Grace Hopper","email":"grace@example.com","value":2500,"archived":false,"customFields":{"tier":"gold"},"favouriteColour":"blue","title":null,"createdAt":"/^\\d{4}-\\d\\d-\\d\\dT/"}
GET reads back what POST created        | POST /api/v1/leads {"name":"Grace","customFields":{"tier":"gold"},"extra":1} | GET /api/v1/leads/{id} | 200 | {"name":"Grace","customFields":{"tier":"gold"},"extra":1,"number":"L-00004"}
POST: a null email, any website         |  | POST /api/v1/leads {"name":"N","email":null,"website":{"url":"x"}} | 200 | {"email":null,"website":{"url":"x"}}
POST without a name: 400                |  | POST /api/v1/leads {} | 400 | ={"error":{$INVALID,"message":"name is required"}}
POST an empty name                      |  | POST /api/v1/leads {"name":""} | 400 | {"error":{"message":"name must be at least 1 character"}}
POST a name not a string                |  | POST /api/v1/leads {"name":5} | 400 | {"error":{"message":"name must be a string"}}
POST a bad email                        |  | POST /api/v1/leads {"name":"A","email":"not-an-email"} | 400 | {"error":{"message":"email must be a valid email address"}}
POST a value not a number               |  | POST /api/v1/leads {"name":"A","value":"big"} | 400 | {"error":{"message":"value must be a number"}}
POST customFields not an object         |  | POST /api/v1/leads {"name":"A","customFields":[1]} | 400 | {"error":{"message":"customFields must be an object"}}
POST archived not a boolean             |  | POST /api/v1/leads {"name":"A","archived":"yes"} | 400 | {"error":{"message":"archived must be a boolean"}}
POST stageId not a string               |  | POST /api/v1/leads {"name":"A","stageId":3} | 400 | {"error":{"message":"stageId must be a string"}}
a refused POST creates nothing          | POST /api/v1/leads {} | GET /__sandbox/health | 200 | {"counts":{"leads":3}}
PATCH: only the fields sent (standard: archived and other keys too) |  | PATCH /api/v1/leads/$LEAD {"archived":true,"title":"CEO","extra":1} | 200 | {"id":"$LEAD","name":"John Smith","email":"john.smith@example.com","archived":true,"title":"CEO","extra":1}
PATCH without a body: the lead unchanged |  | PATCH /api/v1/leads/$LEAD | 200 | {"id":"$LEAD","name":"John Smith","archived":false}
PATCH validates an email                |  | PATCH /api/v1/leads/$LEAD {"email":"nope"} | 400 | {"error":{"message":"email must be a valid email address"}}
PATCH validates a name                  |  | PATCH /api/v1/leads/$LEAD {"name":""} | 400 | {"error":{"message":"name must be at least 1 character"}}
GET /leads: 20 a page by default        | POST /__sandbox/seed {"leads":30} | GET /api/v1/leads | 200 | {"#items":20,"hasMore":true,"nextCursor":"<string>"}
limit=0, 101, abc, 2.5, -1: 400         |  | GET /api/v1/leads?limit=0 || GET /api/v1/leads?limit=101 || GET /api/v1/leads?limit=abc || GET /api/v1/leads?limit=2.5 || GET /api/v1/leads?limit=-1 | 400 | ={"error":{$INVALID,"message":"limit must be between 1 and 100"}}
a cursor that is not one: 400           |  | GET /api/v1/leads?cursor=garbage | 400 | {"error":{"message":"cursor is not valid"}}
another list's cursor: 400              | GET /api/v1/users?limit=1 | GET /api/v1/leads?cursor={id} | 400
search: the name, any case              | POST /__sandbox/seed {"leads":100} | GET /api/v1/leads?search=SMITH&limit=100 | 200 | {"items":[{"name":"John Smith"}]}
search: the mobile                      |  | GET /api/v1/leads?search=%2B34600 | 200 | {"items":[{"name":"Maria Garcia"}]}
search: the email                       |  | GET /api/v1/leads?search=smith.example | 200 | {"items":[{"name":"John Smith"}]}
archived=true                           | POST /__sandbox/seed {"leads":100} | GET /api/v1/leads?archived=true&limit=100 | 200 | {"*items":{"archived":true}}
archived=false                          |  | GET /api/v1/leads?archived=false | 200 | {"#items":2,"*items":{"archived":false}}
stageId                                 | POST /__sandbox/seed {"leads":100} | GET /api/v1/leads?stageId=lst_contacted&limit=100 | 200 | {"*items":{"stageId":"lst_contacted"}}
archived=maybe: 400                     |  | GET /api/v1/leads?archived=maybe | 400 | {"error":{"message":"archived must be true or false"}}
`));

// prettier-ignore
describe('§4 deals and invoices', () => table(String.raw`
POST /deals: an ACTIVE deal, extra keys kept |  | POST /api/v1/deals {$DEAL,"price":9000,"priority":"HIGH","expectedCloseDate":"2025-03-01T12:00:00Z","note":"x"} | 200 | {$DEAL,"id":"/^deal_/","number":"D-00001","status":"ACTIVE","price":9000,"priority":"HIGH","expectedCloseDate":"2025-03-01T12:00:00Z","note":"x"}
GET /deals/{id} reads it back           | POST /api/v1/deals {$DEAL,"note":"x"} | GET /api/v1/deals/{id} | 200 | {$DEAL,"note":"x","status":"ACTIVE"}
POST /deals without a title             |  | POST /api/v1/deals {"pipelineId":"pip_sales","stageId":"stg_new","clientId":"$CLIENT"} | 400 | ={"error":{$INVALID,"message":"title is required"}}
POST /deals an empty title              |  | POST /api/v1/deals {$DEAL,"title":""} | 400 | {"error":{"message":"title must be at least 1 character"}}
POST /deals without a pipelineId        |  | POST /api/v1/deals {"title":"t","stageId":"stg_new","clientId":"$CLIENT"} | 400 | {"error":{"message":"pipelineId is required"}}
POST /deals without a stageId           |  | POST /api/v1/deals {"title":"t","pipelineId":"pip_sales","clientId":"$CLIENT"} | 400 | {"error":{"message":"stageId is required"}}
POST /deals without a clientId          |  | POST /api/v1/deals {"title":"t","pipelineId":"pip_sales","stageId":"stg_new"} | 400 | {"error":{"message":"clientId is required"}}
POST /deals an unknown client           |  | POST /api/v1/deals {$DEAL,"clientId":"cli_nope"} | 400 | {"error":{"message":"clientId cli_nope does not refer to an existing client"}}
POST /deals priority URGENT             |  | POST /api/v1/deals {$DEAL,"priority":"URGENT"} | 400 | {"error":{"message":"priority must be one of LOW, MEDIUM, HIGH"}}
POST /deals price not a number          |  | POST /api/v1/deals {$DEAL,"price":"10"} | 400 | {"error":{"message":"price must be a number"}}
POST /deals a date that is not one, a date without a time |  | POST /api/v1/deals {$DEAL,"expectedCloseDate":"next week"} || POST /api/v1/deals {$DEAL,"expectedCloseDate":"2025-03-01"} | 400 | {"error":{"message":"expectedCloseDate must be an ISO 8601 date-time"}}
PATCH /deals: status, stage, other keys | POST /api/v1/deals {$DEAL} | PATCH /api/v1/deals/{id} {"status":"WON","stageId":"stg_won","price":1,"sourceId":"src_web","custom":true} | 200 | {"title":"Big deal","status":"WON","stageId":"stg_won","price":1,"sourceId":"src_web","custom":true}
PATCH /deals status PAUSED              | POST /api/v1/deals {$DEAL} | PATCH /api/v1/deals/{id} {"status":"PAUSED"} | 400 | {"error":{"message":"status must be one of ACTIVE, WON, LOST"}}
PATCH /deals an empty title             | POST /api/v1/deals {$DEAL} | PATCH /api/v1/deals/{id} {"title":""} | 400 | {"error":{"message":"title must be at least 1 character"}}
PATCH an unknown deal                   |  | PATCH /api/v1/deals/deal_nope {} | 404
POST /invoices: totals with tax and both discount types |  | POST /api/v1/invoices {$INVOICE,"salesPersonId":"usr_4bb40fa4b428e32e","subject":"May work","tags":[],"poNumber":"PO-1","lineItems":[{"productId":"$PRODUCT","quantity":2,"taxRateId":"tax_vat20","discount":10,"discountType":"percentage"},{"name":"Custom work","quantity":3,"price":100,"discount":50,"discountType":"fixed","taxRateId":"tax_zero","description":"ad hoc","buyPrice":20}]} | 200 | {"id":"/^inv_/","number":"INV-00001","status":"DRAFT","currency":"USD","isInclusiveTax":false,"subTotal":600,"discountTotal":80,"taxTotal":54,"total":574,"pendingTotal":574,"paidTotal":0,"salesPersonId":3,"subject":"May work","tags":[],"poNumber":"PO-1","clientId":"$CLIENT","lineItems":[{"name":"Consulting hour","quantity":2,"price":150,"tax":20,"discount":10,"discountType":"percentage","buyPrice":0,"viewType":"LINE_ITEM","amount":300,"discountAmount":30,"taxAmount":54,"productId":"<number>"},{"name":"Custom work","quantity":3,"price":100,"tax":0,"discount":50,"discountType":"fixed","buyPrice":20,"viewType":"LINE_ITEM","amount":300,"discountAmount":50,"taxAmount":0,"description":"ad hoc","productId":null}]}
GET /invoices/{id} reads it back        | POST /api/v1/invoices {$INVOICE,$ITEM,"subject":"S"} | GET /api/v1/invoices/{id} | 200 | {"subject":"S","total":1,"lineItems":[{"name":"A","amount":1}]}
POST /invoices: tax out of inclusive prices, SENT |  | POST /api/v1/invoices {$INVOICE,"isInclusiveTax":true,"status":"SENT","lineItems":[{"name":"Gross","quantity":1,"price":120,"taxRateId":"tax_vat20"}]} | 200 | {"status":"SENT","isInclusiveTax":true,"subTotal":100,"taxTotal":20,"discountTotal":0,"total":120,"lineItems":[{"amount":120,"taxAmount":20}]}
POST /invoices without a client         |  | POST /api/v1/invoices {"date":"2024-05-01T00:00:00Z","dueDate":"2024-05-31T00:00:00Z",$ITEM} | 400 | ={"error":{$INVALID,"message":"clientId is required"}}
POST /invoices an unknown client        |  | POST /api/v1/invoices {$INVOICE,$ITEM,"clientId":"cli_nope"} | 400 | {"error":{"message":"clientId cli_nope does not refer to an existing client"}}
POST /invoices without a date           |  | POST /api/v1/invoices {"clientId":"$CLIENT","dueDate":"2024-05-31T00:00:00Z",$ITEM} | 400 | {"error":{"message":"date is required"}}
POST /invoices a dueDate not a date     |  | POST /api/v1/invoices {$INVOICE,$ITEM,"dueDate":"tomorrow"} | 400 | {"error":{"message":"dueDate must be an ISO 8601 date-time"}}
POST /invoices without line items       |  | POST /api/v1/invoices {$INVOICE} | 400 | {"error":{"message":"lineItems is required"}}
POST /invoices no line item             |  | POST /api/v1/invoices {$INVOICE,"lineItems":[]} | 400 | {"error":{"message":"lineItems must contain at least 1 item"}}
POST /invoices status PAID              |  | POST /api/v1/invoices {$INVOICE,$ITEM,"status":"PAID"} | 400 | {"error":{"message":"status must be one of DRAFT, SENT"}}
POST /invoices isInclusiveTax no        |  | POST /api/v1/invoices {$INVOICE,$ITEM,"isInclusiveTax":"no"} | 400 | {"error":{"message":"isInclusiveTax must be a boolean"}}
POST /invoices tags not numbers         |  | POST /api/v1/invoices {$INVOICE,$ITEM,"tags":["a"]} | 400 | {"error":{"message":"tags must be an array of numbers"}}
POST /invoices an unknown sales person  |  | POST /api/v1/invoices {$INVOICE,$ITEM,"salesPersonId":"usr_nope"} | 400 | {"error":{"message":"salesPersonId usr_nope does not refer to an existing user"}}
POST /invoices an unknown product       |  | POST /api/v1/invoices {$INVOICE,"lineItems":[{"productId":"prd_nope","quantity":1}]} | 400 | {"error":{"message":"lineItems[0].productId prd_nope does not refer to an existing product"}}
POST /invoices an unknown tax rate      |  | POST /api/v1/invoices {$INVOICE,"lineItems":[{"name":"A","price":1,"taxRateId":"tax_nope"}]} | 400 | {"error":{"message":"lineItems[0].taxRateId tax_nope does not refer to an existing tax rate"}}
POST /invoices an item without price    |  | POST /api/v1/invoices {$INVOICE,"lineItems":[{"name":"A"}]} | 400 | {"error":{"message":"lineItems[0].price is required"}}
POST /invoices a bad discountType       |  | POST /api/v1/invoices {$INVOICE,"lineItems":[{"name":"A","price":1,"discountType":"bogus"}]} | 400 | {"error":{"message":"lineItems[0].discountType must be one of fixed, percentage"}}
POST /invoices an item not an object    |  | POST /api/v1/invoices {$INVOICE,"lineItems":[{"name":"A","price":1},"x"]} | 400 | {"error":{"message":"lineItems[1] must be an object"}}
a refused POST /invoices creates none   | POST /api/v1/invoices {$INVOICE,"lineItems":[]} | GET /__sandbox/health | 200 | {"counts":{"invoices":0}}
`));

// prettier-ignore
describe('§4 clients, products, users, v2 contacts', () => table(String.raw`
GET /clients/{id}: a company            |  | GET /api/v1/clients/$CLIENT | 200 | {"id":"$CLIENT","name":"Acme Corporation","number":"/^C-\\d{5}$/","type":"company","createdAt":"<string>"}
GET /clients/{id}: a contact            |  | GET /api/v1/clients/cli_f7bf96fbca6bac61 | 200 | {"name":"Jane Doe","number":"/^C-\\d{5}$/","type":"contact"}
GET /products/{id}                      |  | GET /api/v1/products/$PRODUCT | 200 | {"id":"$PRODUCT","name":"Consulting hour","price":150,"type":"<string>","isActive":true,"sku":"<string>"}
GET /users: five users, one page        |  | GET /api/v1/users | 200 | {"#items":5,"hasMore":false,"nextCursor":null,"*items":{"id":"/^usr_/","firstName":"<string>","email":"<string>","role":"<string>","createdAt":"<string>"}}
GET /users?active=false                 |  | GET /api/v1/users?active=false | 200 | {"items":[{"lastName":"Former"}]}
GET /users?active=true                  |  | GET /api/v1/users?active=true | 200 | {"#items":4}
standard: search, the last name         |  | GET /api/v1/users?search=READER | 200 | {"items":[{"firstName":"Rita"}]}
standard: search, the email             |  | GET /api/v1/users?search=maya.manager@ | 200 | {"items":[{"firstName":"Maya"}]}
GET /users?limit=101: 400               |  | GET /api/v1/users?limit=101 | 400
v2 /contacts: 30 a page, data and meta  |  | GET /api/v2/contacts | 200 | {"#data":30,"meta":{"hasMore":true,"nextCursor":"<string>"},"*data":{"id":"/^con_/","number":"<string>","firstName":"<string>","lastName":"<string>","email":"<string>"}}
v2 pageSize=100                         |  | GET /api/v2/contacts?pageSize=100 | 200 | {"#data":100}
v2 pageSize=0, 101: 400                 |  | GET /api/v2/contacts?pageSize=0 || GET /api/v2/contacts?pageSize=101 | 400 | ={"error":{$INVALID,"message":"pageSize must be between 1 and 100"}}
v2 search                               |  | GET /api/v2/contacts?search=ALICE&pageSize=100 | 200 | {"*data":{"firstName":"Alice"}}
v2 a cursor that is not one: 400        |  | GET /api/v2/contacts?cursor=!! | 400
`));

// prettier-ignore
describe('§4 §6 webhook subscriptions', () => table(String.raw`
POST: the whsec_ secret, a warning for http |  | POST /api/v1/webhooks {"name":"Local","url":"http://localhost:9/hook","events":["lead.created"]} | 200 | ={"id":"/^whk_/","name":"Local","url":"http://localhost:9/hook","events":["lead.created"],"status":"active","secret":"/^whsec_[A-Za-z0-9+/]{32}$/","createdAt":"<string>","warnings":["Webhook URL is not HTTPS; use HTTPS in production."]}
POST https: no warning                  |  | POST /api/v1/webhooks {$HOOK} | 200 | {"warnings":"<absent>","url":"https://example.com/hook"}
GET /webhooks/{id}: no secret           | POST /api/v1/webhooks {$HOOK} | GET /api/v1/webhooks/{id} | 200 | ={"id":"/^whk_/","name":"hook","url":"https://example.com/hook","events":["lead.created"],"status":"active","createdAt":"<string>"}
standard GET /webhooks: a page, no secrets | 3× POST /api/v1/webhooks {$HOOK} | GET /api/v1/webhooks?limit=2 | 200 | {"items":[{"name":"hook","secret":"<absent>"},{"name":"hook"}],"hasMore":true,"nextCursor":"<string>"}
GET /webhooks: the next page, no secrets | 3× POST /api/v1/webhooks {$HOOK} ; GET /api/v1/webhooks?limit=2 | GET /api/v1/webhooks?limit=2&cursor={id} | 200 | {"items":[{"name":"hook","secret":"<absent>"}],"hasMore":false,"nextCursor":null}
GET /__sandbox/webhooks: with secrets   | POST /api/v1/webhooks {$HOOK} | GET /__sandbox/webhooks | 200 | [{"secret":"/^whsec_/"}]
DELETE: 204, no body                    | POST /api/v1/webhooks {$HOOK} | DELETE /api/v1/webhooks/{id} | 204 | ""
a deleted subscription: 404             | POST /api/v1/webhooks {$HOOK} ; DELETE /api/v1/webhooks/{id} | GET /api/v1/webhooks/{id} | 404
POST without a name                     |  | POST /api/v1/webhooks {"url":"https://x.test","events":["lead.created"]} | 400 | ={"error":{$INVALID,"message":"name is required"}}
POST without a url                      |  | POST /api/v1/webhooks {"name":"n","events":["lead.created"]} | 400 | {"error":{"message":"url is required"}}
POST an ftp url, a url that is not one  |  | POST /api/v1/webhooks {"name":"n","url":"ftp://x.test","events":["lead.created"]} || POST /api/v1/webhooks {"name":"n","url":"not a url","events":["lead.created"]} | 400 | {"error":{"message":"url must be a valid http or https URL"}}
POST without events                     |  | POST /api/v1/webhooks {"name":"n","url":"https://x.test"} | 400 | {"error":{"message":"events is required"}}
POST no event                           |  | POST /api/v1/webhooks {"name":"n","url":"https://x.test","events":[]} | 400 | {"error":{"message":"events must contain at least 1 event"}}
POST events not an array                |  | POST /api/v1/webhooks {"name":"n","url":"https://x.test","events":"lead.created"} | 400 | {"error":{"message":"events must be an array of event names"}}
onePerUrl answer: the first one, no secret | POST /__sandbox/config {"onePerUrl":"answer"} ; POST /api/v1/webhooks {$HOOK} | POST /api/v1/webhooks {$HOOK} | 200 | {"id":"/^whk_/","secret":"<absent>"}
onePerUrl answer: still one             | POST /__sandbox/config {"onePerUrl":"answer"} ; 2× POST /api/v1/webhooks {$HOOK} | GET /__sandbox/webhooks | 200 | {"#":1}
onePerUrl conflict: 409                 | POST /__sandbox/config {"onePerUrl":"conflict"} ; POST /api/v1/webhooks {$HOOK} | POST /api/v1/webhooks {$HOOK} | 409
normalUrls: new URL(url).href           | POST /__sandbox/config {"normalUrls":true} | POST /api/v1/webhooks {"name":"n","url":"HTTPS://Example.COM:443/hook","events":["lead.created"]} | 200 | {"url":"https://example.com/hook"}
`));

// prettier-ignore
describe('the personalities, where the spec says "not shown" (README)', () => table(String.raw`
standard: any event name                |  | POST /api/v1/webhooks {"name":"h","url":"https://x.test/h","events":["lead.created","invoice.paid","custom.thing"]} | 200 | {"events":["lead.created","invoice.paid","custom.thing"]}
alternate: other event names, 400 in plain text | POST /__sandbox/config {"personality":"alternate"} | POST /api/v1/webhooks {"name":"h","url":"https://x.test/h","events":["lead.created","invoice.paid","deal.stage_changed"]} | 400 | "Unknown event names: invoice.paid, deal.stage_changed. Supported events: lead.created" | {"content-type":"text/plain; charset=utf-8"}
alternate: a refused subscription is not made | POST /__sandbox/config {"personality":"alternate"} ; POST /api/v1/webhooks {"name":"h","url":"https://x.test/h","events":["invoice.paid"]} | GET /__sandbox/webhooks | 200 | {"#":0}
alternate: lead.created alone           | POST /__sandbox/config {"personality":"alternate"} | POST /api/v1/webhooks {$HOOK} | 200 | {"events":["lead.created"],"secret":"/^whsec_/"}
alternate: PATCH /leads, 204, no body   | POST /__sandbox/config {"personality":"alternate"} | PATCH /api/v1/leads/$LEAD {"archived":true,"title":"CTO","customFields":{"a":1},"extra":"x"} | 204 | ""
alternate: PATCH ignores unlisted keys  | POST /__sandbox/config {"personality":"alternate"} ; PATCH /api/v1/leads/$LEAD {"archived":true,"title":"CTO","customFields":{"a":1},"extra":"x"} | GET /api/v1/leads/$LEAD | 200 | {"archived":false,"title":"CTO","extra":"<absent>","customFields":{"a":"<absent>"}}
alternate: PATCH still validates        | POST /__sandbox/config {"personality":"alternate"} | PATCH /api/v1/leads/$LEAD {"email":"not an email"} | 400 | "email must be a valid email address"
alternate: 400 in plain text            | POST /__sandbox/config {"personality":"alternate"} | POST /api/v1/leads {} | 400 | "name is required" | {"content-type":"text/plain; charset=utf-8"}
alternate: GET /webhooks, a bare array of all, no secrets | POST /__sandbox/config {"personality":"alternate"} ; 3× POST /api/v1/webhooks {$HOOK} | GET /api/v1/webhooks?limit=2 | 200 | [{"name":"hook","secret":"<absent>"},{"name":"hook"},{"name":"hook"}]
alternate: 404 is {message}             | POST /__sandbox/config {"personality":"alternate"} | GET /api/v1/leads/led_nope | 404 | ={"message":"Lead led_nope was not found"} | {"content-type":"/application\/json/"}
alternate: 404 of a route               | POST /__sandbox/config {"personality":"alternate"} | GET /api/v1/nothing | 404 | ={"message":"Route GET /api/v1/nothing was not found"}
alternate: 404 of DELETE                | POST /__sandbox/config {"personality":"alternate"} | DELETE /api/v1/webhooks/whk_nope | 404 | ={"message":"Webhook whk_nope was not found"}
alternate: 401 keeps the spec shape     | POST /__sandbox/config {"personality":"alternate"} | as bad GET /api/v1/users | 401 | ={"error":{$UNAUTHORIZED,"message":"The API key in the x-api-key header is not valid."}}
alternate: 403 keeps the spec shape     | POST /__sandbox/config {"personality":"alternate"} | as readOnly POST /api/v1/leads {"name":"x"} | 403 | {"error":{$FORBIDDEN}}
alternate: the users search is ignored  | POST /__sandbox/config {"personality":"alternate"} | GET /api/v1/users?search=ada.admin%40example.com | 200 | {"#items":5}
alternate: other user filters apply     | POST /__sandbox/config {"personality":"alternate"} | GET /api/v1/users?active=false&search=zzz | 200 | {"items":[{"lastName":"Former"}]}
standard: RateLimit-* on every answer after the key check | POST /__sandbox/config {"rateLimit":{"limit":1000,"windowMs":60000}} | GET /api/v1/leads/led_nope | 404 |  | {"ratelimit-limit":"1000","ratelimit-remaining":"999"}
alternate: no RateLimit-* on a 2xx      | POST /__sandbox/config {"personality":"alternate","rateLimit":{"limit":2,"windowMs":60000}} | GET /api/v1/users | 200 |  | {"ratelimit-limit":null,"ratelimit-remaining":null,"ratelimit-reset":null}
alternate: none on a 404                | POST /__sandbox/config {"personality":"alternate","rateLimit":{"limit":2,"windowMs":60000}} | GET /api/v1/leads/led_nope | 404 |  | {"ratelimit-limit":null}
alternate: RateLimit-* and Retry-After on a 429 | POST /__sandbox/config {"personality":"alternate","rateLimit":{"limit":2,"windowMs":60000}} ; 2× GET /api/v1/users | GET /api/v1/users | 429 | ={"error":{"code":"RATE_LIMITED","message":"Rate limit exceeded: 2 requests per minute per API key."}} | {"ratelimit-limit":"2","ratelimit-remaining":"0","retry-after":"/^(59|60)$/"}
a personality that is not one: 400      |  | POST /__sandbox/config {"personality":"strict"} | 400 | {"error":{"message":"personality must be one of standard, alternate"}}
reset keeps the personality             | POST /__sandbox/config {"personality":"alternate"} ; POST /__sandbox/reset | POST /__sandbox/config {} | 200 | {"personality":"alternate"}
`));

// prettier-ignore
describe('§8 the rate limit', () => table(String.raw`
60 a minute: RateLimit-* headers        | POST /__sandbox/config {"rateLimit":{"limit":60,"windowMs":60000}} | GET /api/v1/users | 200 |  | {"ratelimit-limit":"60","ratelimit-remaining":"59","ratelimit-reset":"/^(59|60)$/"}
a 404 and a 400 count too               | POST /__sandbox/config {"rateLimit":{"limit":3,"windowMs":60000}} ; GET /api/v1/nothing ; GET /api/v1/users?limit=0 | GET /api/v1/users | 200 |  | {"ratelimit-remaining":"0"}
over the limit: 429 in the spec's words | POST /__sandbox/config {"rateLimit":{"limit":1,"windowMs":1000}} ; GET /api/v1/users | GET /api/v1/users | 429 | ={"error":{"code":"RATE_LIMITED","message":"Rate limit exceeded: 1 requests per second per API key."}} | {"retry-after":"1","ratelimit-limit":"1","ratelimit-remaining":"0","ratelimit-reset":"1"}
v2 shares the limit of v1               | POST /__sandbox/config {"rateLimit":{"limit":1,"windowMs":60000}} ; GET /api/v1/users | GET /api/v2/contacts | 429
the limit is per key                    | POST /__sandbox/config {"rateLimit":{"limit":1,"windowMs":60000}} ; GET /api/v1/users | as readOnly GET /api/v1/users | 200 |  | {"ratelimit-remaining":"0"}
the key first: a 401 is not counted     | POST /__sandbox/config {"rateLimit":{"limit":1,"windowMs":60000}} ; 3× as bad GET /api/v1/users | GET /api/v1/users | 200
a 401 has no RateLimit-*                | POST /__sandbox/config {"rateLimit":{"limit":1,"windowMs":60000}} | as bad GET /api/v1/users | 401 |  | {"ratelimit-limit":null}
spentByOthers: spent before this client | POST /__sandbox/config {"rateLimit":{"limit":5,"windowMs":60000,"spentByOthers":3}} | GET /api/v1/users | 200 |  | {"ratelimit-remaining":"1"}
off: no limit, no RateLimit-*           | 70× GET /api/v1/users?limit=1 | GET /api/v1/users | 200 |  | {"ratelimit-limit":null,"ratelimit-remaining":null}
the control endpoints: not limited      | POST /__sandbox/config {"rateLimit":{"limit":1,"windowMs":60000}} ; GET /api/v1/users ; 5× GET /__sandbox/health | GET /__sandbox/health | 200
the control endpoints: not logged       | 5× GET /__sandbox/health ; GET /api/v1/users | GET /__sandbox/requests | 200 | {"#":1}
`));

// prettier-ignore
describe('the faults and switches (README)', () => table(String.raw`
a status for the next N requests        | POST /__sandbox/faults {"status":503,"method":"get","pathPrefix":"/api/v1/users"} | GET /api/v1/users | 503 | ={"error":{"code":"INTERNAL_ERROR","message":"Sandbox fault: 503 Service Unavailable"}}
a fault skips other paths               | POST /__sandbox/faults {"status":503,"pathPrefix":"/api/v1/users"} | GET /api/v1/leads | 200
a fault skips other methods             | POST /__sandbox/faults {"status":503,"method":"POST"} | GET /api/v1/leads | 200
before the key check: an HTML page, extra headers | POST /__sandbox/faults {"status":502,"html":true,"headers":{"retry-after":"2"}} | as none POST /api/v1/leads {"name":"x"} | 502 | ~<title>502 Bad Gateway</title> | {"content-type":"text/html","retry-after":"2"}
a faulted request is logged, nothing written | POST /__sandbox/faults {"status":502,"html":true} ; POST /api/v1/leads {"name":"x"} | GET /__sandbox/requests | 200 | [{"status":502,"body":{"name":"x"}}]
GET /__sandbox/faults lists, a used one goes | POST /__sandbox/faults {"status":502,"count":2} ; GET /api/v1/leads | GET /__sandbox/faults | 200 | {"#":1}
DELETE /__sandbox/faults                | POST /__sandbox/faults {"status":500,"count":100} ; DELETE /__sandbox/faults | GET /api/v1/users | 200
htmlBytes: a 2 MB page                  | POST /__sandbox/faults {"status":502,"html":true,"htmlBytes":2000000} | GET /api/v1/leads | 502 | ~</html>
429 with Retry-After: 3600              | POST /__sandbox/faults {"status":429,"headers":{"retry-after":"3600"}} | GET /api/v1/leads | 429 | {"error":{"code":"RATE_LIMITED"}} | {"retry-after":"3600"}
a 200 HTML page                         | POST /__sandbox/faults {"status":200,"html":true,"method":"POST","pathPrefix":"/api/v1/leads"} | POST /api/v1/leads {"name":"Jane"} | 200 | ~<html> | {"content-type":"text/html"}
a 200 JSON without id                   | POST /__sandbox/faults {"status":200,"body":{"ok":true},"method":"POST"} | POST /api/v1/leads {"name":"Jane"} | 200 | ={"ok":true}
a 204 to a PATCH                        | POST /__sandbox/faults {"status":204,"method":"PATCH"} | PATCH /api/v1/leads/$LEAD {"title":"x"} | 204 | ""
echoKey: a 401 with the key             | POST /__sandbox/faults {"status":401,"echoKey":true} | GET /api/v1/leads/$LEAD | 401 | ~$ADMIN_KEY
echoKey escaped: \/, \u002b, \u003d     | POST /__sandbox/faults {"status":401,"echoKey":"escaped"} | as odd GET /api/v1/leads/$LEAD | 401 | ~The API key sk_live_R3dact\/Me9\u002bPl3ase\u003d\u003d is not valid for this workspace.
echoKey escaped: JSON.parse reads the key | POST /__sandbox/faults {"status":401,"echoKey":"escaped"} | as odd GET /api/v1/leads/$LEAD | 401 | {"error":{"message":"The API key sk_live_R3dact/Me9+Pl3ase== is not valid for this workspace."}}
echoKey escaped, 200: a lead record     | POST /__sandbox/faults {"status":200,"echoKey":"escaped","pathPrefix":"/api/v1/leads/"} | as odd GET /api/v1/leads/$LEAD | 200 | {"id":"lead_echo","title":"Key sk_live_R3dact/Me9+Pl3ase==","customFields":{"apiKey":"sk_live_R3dact/Me9+Pl3ase=="}}
echoKey escaped, 200 to a list: a lead without id | POST /__sandbox/faults {"status":200,"echoKey":"escaped","pathPrefix":"/api/v1/leads"} | as odd GET /api/v1/leads | 200 | ={"items":[{"name":"Key sk_live_R3dact/Me9+Pl3ase==","archived":false,"createdAt":"2026-01-01T00:00:00.000Z"}],"hasMore":false,"nextCursor":null}
location: that Location exactly         | POST /__sandbox/faults {"status":302,"location":"/admin/export-all"} | GET /api/v1/leads/$LEAD | 302 |  | {"location":"/admin/export-all"}
a page outside /api: 404, logged        | as none GET /admin/export-all | GET /__sandbox/requests | 200 | [{"method":"GET","path":"/admin/export-all","status":404,"headers":{"x-api-key":"<absent>"}}]
trickle: a patient client reads the body | POST /__sandbox/faults {"status":200,"trickle":{"intervalMs":1,"bytes":30},"body":{"id":"lead_9"}} | GET /api/v1/leads/$LEAD | 200 | "               {\"id\":\"lead_9\"}"
endlessBytes: the array closed          | POST /__sandbox/faults {"status":200,"endless":true,"endlessBytes":200000} | GET /api/v1/leads | 200 | ~{"id":"x"}]
endlessBytes: the stream log            | POST /__sandbox/faults {"status":200,"endless":true,"endlessBytes":20000} ; GET /api/v1/leads | GET /__sandbox/streams | 200 | [{"kind":"endless","done":true,"closedByClient":false}]
patchCustomFields replace (default)     | POST /api/v1/leads {"name":"Ann","customFields":{"industry":"Retail","seats":3}} ; PATCH /api/v1/leads/{id} {"customFields":{"seats":5}} | GET /api/v1/leads/{id} | 200 | {"customFields":{"seats":5,"industry":"<absent>"}}
patchCustomFields merge                 | POST /__sandbox/config {"patchCustomFields":"merge"} ; POST /api/v1/leads {"name":"Ann","customFields":{"industry":"Retail","seats":3}} ; PATCH /api/v1/leads/{id} {"customFields":{"seats":5}} | GET /api/v1/leads/{id} | 200 | {"customFields":{"seats":5,"industry":"Retail"}}
listOrder: a bad value                  |  | POST /__sandbox/config {"listOrder":"random"} | 400 | {"error":{"message":"listOrder must be one of oldest, newest, newestCreated"}}
a cursor keeps the order its listing started in | POST /__sandbox/seed {"leads":7} ; POST /__sandbox/config {"listOrder":"newest"} ; GET /api/v1/leads?limit=3 ; POST /__sandbox/config {"listOrder":"oldest"} | GET /api/v1/leads?limit=3&cursor={id} | 200 | {"items":[{"name":"Emeka Fischer 4"},{"name":"Dana Vargas 3"},{"name":"Chen Okafor 2"}]}
reset keeps the listOrder               | POST /__sandbox/config {"listOrder":"newest"} ; POST /__sandbox/reset | POST /__sandbox/config {} | 200 | {"listOrder":"newest"}
newestCreated: a cursor not one: 400    | POST /__sandbox/config {"listOrder":"newestCreated"} | GET /api/v1/leads?cursor=bGVhZHNkYXRlOng | 400
count: N answers, then the API again    | POST /__sandbox/faults {"status":503,"count":2,"pathPrefix":"/api/v1/users"} ; 2× GET /api/v1/users | GET /__sandbox/requests | 200 | [{"status":503},{"status":503}]
... and then the API                    | POST /__sandbox/faults {"status":503,"count":2,"pathPrefix":"/api/v1/users"} ; 2× GET /api/v1/users | GET /api/v1/users | 200
body: a fixed answer as often as asked  | POST /__sandbox/faults {"status":200,"method":"GET","pathPrefix":"/api/v1/leads","count":3,"body":{"items":[{"id":"lead_x"}],"hasMore":true,"nextCursor":"same"}} ; 2× GET /api/v1/leads?cursor=same | GET /api/v1/leads?cursor=same | 200 | ={"items":[{"id":"lead_x"}],"hasMore":true,"nextCursor":"same"}
... and then the list                   | POST /__sandbox/faults {"status":200,"method":"GET","pathPrefix":"/api/v1/leads","count":3,"body":{"items":[]}} ; 3× GET /api/v1/leads | GET /api/v1/leads | 200 | {"#items":3}
the request log: what came, as it came  | POST /api/v1/leads?dryRun=1 {"name":"Logged"} ; as none GET /api/v1/leads | GET /__sandbox/requests | 200 | [{"seq":"<number>","method":"POST","path":"/api/v1/leads","query":{"dryRun":"1"},"headers":{"x-api-key":"$ADMIN_KEY","content-type":"application/json"},"body":{"name":"Logged"},"status":200,"at":"/^\\d{4}-\\d\\d-\\d\\dT/"},{"method":"GET","headers":{"x-api-key":"<absent>"},"body":"<absent>","status":401}]
reset: data, logs, subscriptions go     | POST /api/v1/leads {"name":"Temp"} ; POST /api/v1/webhooks {$HOOK} ; POST /__sandbox/seed {"leads":5} ; POST /__sandbox/reset | GET /__sandbox/health | 200 | {"counts":{"leads":3,"webhooks":0,"requests":0}}
reset: faults go                        | POST /__sandbox/faults {"status":500,"count":5,"pathPrefix":"/api/v9"} ; POST /__sandbox/reset | GET /__sandbox/faults | 200 | {"#":0}
reset: numbers start again              | POST /api/v1/leads {"name":"Temp"} ; POST /__sandbox/reset | POST /api/v1/leads {"name":"After"} | 200 | {"number":"L-00004"}
reset: the config stays                 | POST /__sandbox/config {"timeScale":0.5} ; POST /__sandbox/reset | POST /__sandbox/config {} | 200 | {"timeScale":0.5}
DELETE /__sandbox/requests clears it    | GET /api/v1/users ; DELETE /__sandbox/requests | GET /__sandbox/requests | 200 | {"#":0}
GET /__sandbox/health                   |  | GET /__sandbox/health | 200 | {"status":"ok","url":"/^http://127\\.0\\.0\\.1:\\d+$/","counts":{"leads":3}}
POST /__sandbox/seed                    |  | POST /__sandbox/seed {"leads":10} | 200 | ={"added":10,"total":13}
seeded leads are numbered on            | POST /__sandbox/seed {"leads":10} | POST /api/v1/leads {"name":"After"} | 200 | {"number":"L-00014"}
an unknown control route: 404           |  | GET /__sandbox/nothing | 404
a control body not JSON: 400            |  | POST /__sandbox/seed { | 400 | ={"error":{$INVALID,"message":"The request body is not valid JSON"}}
a bad fault: 400 (no status, status 99, count 0, trickle interval 0, echoKey loud, redirectTo elsewhere, htmlBytes -1) |  | POST /__sandbox/faults {"count":1} || POST /__sandbox/faults {"status":99} || POST /__sandbox/faults {"status":500,"count":0} || POST /__sandbox/faults {"status":200,"trickle":{"intervalMs":0}} || POST /__sandbox/faults {"status":401,"echoKey":"loud"} || POST /__sandbox/faults {"status":302,"redirectTo":"https://x.test"} || POST /__sandbox/faults {"status":502,"html":true,"htmlBytes":-1} | 400
a bad config: 400 (patchCustomFields sometimes, onePerUrl always, rotation sideways, deliverOnCreate event 3, activity every 5 ms, rate limit 0, spentByOthers over the limit, timeScale -1) |  | POST /__sandbox/config {"patchCustomFields":"sometimes"} || POST /__sandbox/config {"onePerUrl":"always"} || POST /__sandbox/config {"rotation":"sideways"} || POST /__sandbox/config {"deliverOnCreate":{"event":3}} || POST /__sandbox/config {"activity":{"everyMs":5}} || POST /__sandbox/config {"rateLimit":{"limit":0}} || POST /__sandbox/config {"rateLimit":{"limit":2,"windowMs":1000,"spentByOthers":3}} || POST /__sandbox/config {"timeScale":-1} | 400
a seed of -1: 400                       |  | POST /__sandbox/seed {"leads":-1} | 400
an import without a date                |  | POST /__sandbox/import {"leads":[{"name":"x"}]} | 400
a key too short, with spaces: 400       |  | POST /__sandbox/keys {"key":"short"} || POST /__sandbox/keys {"key":"sk with spaces 123"} | 400
`));
// ---------------------------------------------------------------- flows: what one request cannot show

/** One request of a row's form, `[N× ][as KEY ]METHOD /path[ body]`, to `crm`. */
const ask = (spec: string, crm = sandbox) => sendSpec(crm, spec, '');
const post = async (crm: Sandbox, route: string, body: object) =>
	(await send(crm, 'POST', `/api/v1${route}`, { body })).body;
const hook = (url = 'https://example.com/hook') => ({ name: 'h', url, events: ['lead.created'] });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const settled = (crm: Sandbox) =>
	waitFor(() => crm.pendingDeliveries === 0, 10_000, 'no delivery pending');

/** Every item of a list, page by page (v1 `items` or v2 `data`); the page sizes. */
async function walk(route: string, between?: () => Promise<unknown>) {
	const items: any[] = [];
	const sizes: number[] = [];
	let cursor: string | null = null;
	do {
		const join = route.includes('?') ? '&' : '?';
		const answer = await ask(`GET ${cursor ? `${route}${join}cursor=${cursor}` : route}`);
		expect(answer.status).toBe(200);
		const page = answer.body.data ?? answer.body.items;
		const meta = answer.body.meta ?? answer.body;
		expect(meta.hasMore).toBe(meta.nextCursor !== null);
		items.push(...page);
		sizes.push(page.length);
		cursor = meta.nextCursor;
		if (sizes.length === 1) await between?.();
	} while (cursor);
	return { items, sizes };
}
const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);

describe('§4 §9 cursor pagination', () => {
	it('v1 leads: every lead once, in creation order, an opaque cursor (10,003 leads)', async () => {
		sandbox.seedLeads(10_000);
		const { items, sizes } = await walk('/api/v1/leads?limit=100');
		expect(sizes).toHaveLength(101);
		expect(ids(items)).toEqual(ids(sandbox.state.leads.values()));
		expect(new Set(ids(items)).size).toBe(10_003);
	});

	it.each([
		['/api/v1/users?limit=2', 'users', [2, 2, 1]],
		['/api/v2/contacts', 'contacts', [30, 30, 30, 30, 30, 30, 30, 30, 10]],
	] as const)('%s: every %s once, in pages of %j', async (route, name, pages) => {
		const { items, sizes } = await walk(route);
		expect(sizes).toEqual(pages);
		expect(ids(items)).toEqual(ids(sandbox.state[name].values()));
	});

	it.each(['oldest', 'newest'] as const)(
		'listOrder %s: every lead once across pages; a lead created between pages shifts nothing',
		async (order) => {
			sandbox.setListOrder(order);
			sandbox.seedLeads(7);
			const before = sandbox.state.leads.values();
			const times = before.map((lead) => Date.parse(lead.createdAt));
			expect(times).toEqual([...times].sort((a, b) => a - b));
			expect(new Set(times).size).toBe(10); // strictly increasing
			const { items, sizes } = await walk('/api/v1/leads?limit=3', () =>
				ask('POST /api/v1/leads {"name":"Between"}'),
			);
			const oldest = order === 'oldest';
			expect(sizes).toEqual(oldest ? [3, 3, 3, 2] : [3, 3, 3, 1]);
			expect(ids(items)).toEqual(
				oldest ? ids(sandbox.state.leads.values()) : ids(before).reverse(),
			);
		},
	);

	it('import keeps createdAt; newestCreated lists by it, newest by creation', async () => {
		sandbox.seedLeads(5);
		const lead = { name: 'Imported 2020', createdAt: '2020-01-01T00:00:00Z' };
		const imported = await ask(`POST /__sandbox/import ${JSON.stringify({ leads: [lead] })}`);
		const stamped = { ...lead, createdAt: '2020-01-01T00:00:00.000Z' };
		expect(imported.body).toEqual([expect.objectContaining(stamped)]);
		await ask('POST /api/v1/leads {"name":"Newest"}');
		sandbox.setListOrder('newestCreated');
		const listed = (await walk('/api/v1/leads?limit=3')).items.map((lead) => lead.name);
		expect([listed.length, listed[0], listed.at(-1)]).toEqual([10, 'Newest', 'Imported 2020']);
		sandbox.setListOrder('newest');
		const newest = (await ask('GET /api/v1/leads?limit=2')).body.items;
		expect(newest.map((lead: any) => lead.name)).toEqual(['Newest', 'Imported 2020']);
	});

	it('a lead nested deeper than JSON.stringify can write is listed and read back (jsonText)', async () => {
		const depth = 10_000;
		const raw = `{"name":"Deep","customFields":{"x":${'['.repeat(depth)}"bottom"${']'.repeat(depth)}}}`;
		expect((await send(sandbox, 'POST', '/api/v1/leads', { rawBody: raw })).status).toBe(200);
		let inner = (await ask('GET /api/v1/leads?limit=100')).body.items.at(-1).customFields.x;
		for (let level = 0; level < depth; level++) inner = inner[0];
		expect(inner).toBe('bottom');
		const value = { a: [1, 'two', null, { b: true, c: undefined }], d: { e: [] }, f: 'x"y' };
		expect(jsonText(value)).toBe(JSON.stringify(value));
	});
});

describe('faults in time', () => {
	it('delayMs: the answer after that long', async () => {
		sandbox.addFault({ status: 429, count: 1, delayMs: 300 });
		const started = Date.now();
		expect((await ask('GET /api/v2/contacts')).status).toBe(429);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});

	it('leadListDelayMs: GET /api/v1/leads answers after that long, its page as it is then', async () => {
		await ask('POST /__sandbox/config {"leadListDelayMs":300}');
		const list = ask('GET /api/v1/leads?limit=100');
		// Sent after the list was asked for, answered before it: the list answers after the delay.
		await ask('POST /api/v1/leads {"name":"During The Delay"}');
		expect((await list).body.items.at(-1).name).toBe('During The Delay');
	});

	it('htmlBytes: the page is that big', async () => {
		sandbox.addFault({ status: 502, count: 1, html: true, htmlBytes: 2_000_000 });
		expect((await ask('GET /api/v1/leads')).text.length).toBeGreaterThanOrEqual(2_000_000);
	});

	it('the rate limit window resets', async () => {
		sandbox.setRateLimit({ limit: 1, windowMs: 300 });
		await ask('GET /api/v1/users');
		expect((await ask('GET /api/v1/users')).status).toBe(429);
		await pause(350);
		expect((await ask('GET /api/v1/users')).headers.get('ratelimit-remaining')).toBe('0');
	});

	/** A raw GET that counts what arrives; gives up after `abortAfterMs`. */
	const rawGet = (route: string, abortAfterMs: number) =>
		new Promise<{ status?: number; bytes: number; ended: boolean }>((resolve) => {
			const result: { status?: number; bytes: number; ended: boolean } = { bytes: 0, ended: false };
			const headers = { 'x-api-key': DEFAULT_ADMIN_KEY };
			const request = http.get(`${sandbox.url}${route}`, { headers }, (response) => {
				result.status = response.statusCode;
				response.on('data', (chunk: Buffer) => (result.bytes += chunk.length));
				response.on('end', () => resolve({ ...result, ended: true }));
			});
			request.on('error', () => resolve(result));
			setTimeout(() => {
				request.destroy();
				resolve(result);
			}, abortAfterMs).unref();
		});
	const closedByClient = () =>
		waitFor(() => sandbox.streams[0]?.closedByClient, 10_000, 'the stream to see the close');

	it('hang: accepted, never answered, logged with status 0', async () => {
		sandbox.addFault({ status: 200, count: 1, hang: true });
		expect(await rawGet(`/api/v1/leads/${LEAD}`, 500)).toEqual({ bytes: 0, ended: false });
		expect(sandbox.requests.map((entry) => entry.status)).toEqual([0]);
	});

	it('trickle: headers at once, then a byte an interval; the stream log sees the client close', async () => {
		sandbox.addFault({ status: 200, count: 1, trickle: { intervalMs: 100, bytes: 1_000 } });
		const result = await rawGet(`/api/v1/leads/${LEAD}`, 750);
		expect(result).toMatchObject({ status: 200, ended: false });
		// At most a byte each 100 ms in 750 ms (a busy machine may read fewer, never more).
		expect(result.bytes).toBeGreaterThanOrEqual(1);
		expect(result.bytes).toBeLessThanOrEqual(9);
		await closedByClient();
		expect(sandbox.streams[0]).toMatchObject({ kind: 'trickle', done: false });
	});

	it('endless: as long as the client reads; GET /__sandbox/streams logs it', async () => {
		sandbox.addFault({ status: 200, count: 1, endless: true });
		const result = await rawGet('/api/v1/leads', 400);
		expect(result).toMatchObject({ status: 200, ended: false });
		expect(result.bytes).toBeGreaterThan(1024 * 1024);
		await closedByClient();
		const [stream] = (await ask('GET /__sandbox/streams')).body;
		expect(stream).toMatchObject({ kind: 'endless', done: false });
	});

	it('the catcher: another port, records what reaches it without the key; a redirect to it needs it started', async () => {
		const fresh = await startSandbox({ rateLimit: false });
		try {
			const early = 'POST /__sandbox/faults {"status":302,"redirectTo":"catcher"}';
			expect((await ask(early, fresh)).status).toBe(400);
			const { url } = (await ask('POST /__sandbox/catcher', fresh)).body;
			expect(new URL(url).hostname).toBe(new URL(fresh.url).hostname);
			expect(new URL(url).port).not.toBe(new URL(fresh.url).port);
			const answer = await fetch(`${url}/api/v1/leads?x=1`, {
				method: 'POST',
				headers: { 'x-api-key': DEFAULT_ADMIN_KEY },
				body: '{"name":"Jane"}',
			});
			expect(answer.status).toBe(200);
			const log = (await ask('GET /__sandbox/catcher', fresh)).body;
			const caught = { method: 'POST', path: '/api/v1/leads?x=1', apiKeyReceived: true };
			expect(log.caught).toEqual([expect.objectContaining({ ...caught, body: '{"name":"Jane"}' })]);
			expect(JSON.stringify(log)).not.toContain(DEFAULT_ADMIN_KEY);
			for (const status of [302, 307]) {
				const fault = { status, redirectTo: 'catcher', pathPrefix: '/api/v1/clients' };
				await ask(`POST /__sandbox/faults ${JSON.stringify(fault)}`, fresh);
				const redirect = await ask('GET /api/v1/clients/cl_1?a=b', fresh);
				expect([redirect.status, redirect.headers.get('location')]).toEqual([
					status,
					`${url}/api/v1/clients/cl_1?a=b`,
				]);
				expect(fresh.requests.at(-1)).toMatchObject({ path: '/api/v1/clients/cl_1', status });
			}
			expect((await ask('DELETE /__sandbox/catcher', fresh)).status).toBe(204);
			expect((await ask('GET /__sandbox/catcher', fresh)).body.caught).toEqual([]);
		} finally {
			await fresh.close();
		}
	});
});

describe('the control endpoints', () => {
	it('the request log: seq goes on after a clear', async () => {
		await ask('GET /api/v1/users');
		const [first] = sandbox.requests;
		sandbox.clearRequests();
		await ask('GET /api/v1/users');
		expect(sandbox.requests.map((entry) => entry.seq)).toEqual([first.seq + 1]);
	});

	it('its own sandbox: the defaults (60 a minute, standard, oldest first, no delivery on create), reset keeps the seedLeads option, close() at once with a connection open; a bad personality refused', async () => {
		await expect(startSandbox({ personality: 'strict' as SandboxPersonality })).rejects.toThrow(
			'personality must be one of standard, alternate',
		);
		const other = await startSandbox({ seedLeads: 25 });
		expect(other.config).toMatchObject({
			rateLimit: { limit: 60, windowMs: 60_000 },
			personality: 'standard',
			listOrder: 'oldest',
			deliverOnCreate: false,
		});
		// Reset brings back the leads of the seedLeads option.
		other.seedLeads(10);
		other.reset();
		expect(other.state.leads.size).toBe(28);
		// It closes at once while a client keeps a connection open.
		const agent = new http.Agent({ keepAlive: true });
		await new Promise((resolve) =>
			http.get(`${other.url}/__sandbox/health`, { agent }, (res) =>
				res.resume().on('end', resolve),
			),
		);
		const started = Date.now();
		await other.close();
		// Not the minute an idle connection is kept open (server.ts): a busy machine may take a few seconds.
		expect(Date.now() - started).toBeLessThan(10_000);
		agent.destroy();
	});

	it('the activity switch: at an interval it creates, changes, archives a lead, until turned off', async () => {
		const on = await ask('POST /__sandbox/config {"activity":{"everyMs":100}}');
		expect(on.body).toMatchObject({ activity: { everyMs: 100 } });
		await waitFor(() => sandbox.state.leads.get(LEAD)!.archived, 3_000, 'the third step');
		// Step 1 created lead 4, step 2 moved it on, step 3 archived the oldest live lead (John Smith).
		const created = sandbox.state.leads.values().find((lead) => lead.name === 'Activity Lead 4');
		expect(created).toMatchObject({ value: 1500, stageId: 'lst_contacted' });
		await ask('POST /__sandbox/config {"activity":false}');
		const size = sandbox.state.leads.size;
		await pause(350);
		expect(sandbox.state.leads.size).toBe(size);
	});

	it('the seed: the same on every start; the ids it prints are the ones it holds and the examples use', () => {
		const [store, again] = [createStore(), createStore()];
		for (const name of ['users', 'contacts', 'leads'] as const)
			expect(ids(again[name].values())).toEqual(ids(store[name].values()));
		const sizes = [store.products.size, store.users.size, store.contacts.size, store.leads.size];
		expect(sizes).toEqual([4, 5, 250, 3]);
		const refs = [...store.leadStages.keys(), ...store.sources.keys()];
		expect(refs).toEqual(['lst_new', 'lst_contacted', 'src_web', 'src_referral']);
		expect([DEFAULT_ADMIN_KEY, DEFAULT_READ_ONLY_KEY]).toEqual([
			'sk_sandbox_admin_0123456789abcdef',
			'sk_sandbox_readonly_0123456789abcdef',
		]);
		expect(store.clients.get(EXAMPLE_IDS.clientId)?.name).toBe('Acme Corporation');
		expect(store.products.get(EXAMPLE_IDS.productId)?.name).toBe('Consulting hour');
		// The clients, products, pipeline and tax rates, as printed: the same on every start.
		const text = seedSummaryLines(store).join('\n');
		expect(seedSummaryLines(again).join('\n')).toBe(text);
		for (const client of store.clients.values())
			expect(text).toContain(`${client.id} (${client.name})`);
		const stages =
			'stg_new (New) · stg_qualified (Qualified) · stg_proposal (Proposal) · stg_won (Won)';
		expect(text).toContain(`pip_sales (Sales), stages ${stages}`);
		expect(text).toContain('tax_vat20 (VAT 20%) · tax_zero (Zero rated)');
		// The summary prints every seeded client, product, pipeline and stage as `id (name)`.
		const known = (id: string) => text.includes(`${id} (`);
		const examples = path.join(__dirname, '..', '..', 'examples');
		const found = readdirSync(examples)
			.filter((file) => file.endsWith('.json'))
			.flatMap((file) => [
				...readFileSync(path.join(examples, file), 'utf8').matchAll(/\b(?:cli|prd|pip|stg)_\w+/g),
			])
			.map(([id]) => id);
		expect(found.length).toBeGreaterThanOrEqual(3);
		for (const id of found) expect({ id, known: known(id) }).toEqual({ id, known: true });
		expect(escapedKey('a/b+c=')).toBe('a\\/b\\u002bc\\u003d');
	});

	it('npm run sandbox: its arguments', () => {
		expect(parseArgs([])).toEqual({
			port: 5680,
			host: '127.0.0.1',
			rateLimit: { limit: 60, windowMs: 60_000 },
			seedLeads: 0,
			timeScale: 1,
			personality: 'standard',
		});
		const args =
			'--rate-limit 5 --rate-window-ms=1000 --port 0 --time-scale 0.001 --personality alternate';
		const more = '--list-order newest --activity-ms 500';
		expect(parseArgs(`${args} ${more}`.split(' '))).toMatchObject({
			port: 0,
			rateLimit: { limit: 5, windowMs: 1_000 },
			timeScale: 0.001,
			personality: 'alternate',
			listOrder: 'newest',
			activity: { everyMs: 500 },
		});
		const offs = parseArgs(['--rate-limit', 'off', '--activity-ms', 'off']);
		expect([offs.rateLimit, offs.activity]).toEqual([false, undefined]);
		const refused: Array<[string[], string]> = [
			[['--port'], "Option '--port <value>' argument missing"],
			[['--port', 'x'], '--port must be an integer >= 0, got x'],
			[['--seed-leads', '1.5'], '--seed-leads must be an integer'],
			[['--nope'], "Unknown option '--nope'"],
		];
		for (const [refusedArgs, message] of refused)
			expect(() => parseArgs(refusedArgs)).toThrow(message);
	});

	it('npm run sandbox: the process prints its URL and keys, serves, stops on SIGINT', async () => {
		const root = path.resolve(__dirname, '../..');
		const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
		const cli = [tsx, path.join(__dirname, 'cli.ts'), '--port', '0', '--seed-leads', '5'];
		const child = spawn(process.execPath, cli, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
		const exited = new Promise((resolve) => child.on('exit', resolve));
		try {
			let output = '';
			child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
			await waitFor(() => output.includes('Press Ctrl-C'), 15_000, 'the banner');
			const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1];
			expect(output).toContain(DEFAULT_ADMIN_KEY);
			expect(output).toContain(DEFAULT_READ_ONLY_KEY);
			const answer = await fetch(`${url}/api/v1/leads?limit=100`, {
				headers: { 'x-api-key': DEFAULT_ADMIN_KEY },
			});
			expect(((await answer.json()) as { items: unknown[] }).items).toHaveLength(8);
			child.kill('SIGINT');
			expect(await exited).toBe(0);
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
		}
	});
});

describe('§6 §8 signed deliveries and their retries', () => {
	const opened: Array<{ close(): Promise<void> }> = [];
	afterEach(async () => await Promise.all(opened.splice(0).map((item) => item.close())));
	/** A sandbox of its own (time scaled) and a receiver answering `respond`, subscribed to `events`. */
	async function setUp(
		respond?: Receiver['respond'],
		options: SandboxOptions = {},
		events?: string[],
	) {
		const crm = await startSandbox({ rateLimit: false, ...options });
		const receiver = await startReceiver(respond);
		opened.push(crm, receiver);
		const subscription = await post(crm, '/webhooks', {
			...hook(receiver.url),
			events: events ?? ['lead.created'],
		});
		const lead = async (body: object = { name: 'Webhook Lead' }) => await post(crm, '/leads', body);
		return { crm, receiver, subscription, lead };
	}
	const verify = (secret: string, request: Receiver['received'][number]) =>
		new Webhook(secret).verify(request.rawBody, request.headers) as { event: string; payload: any };
	/** Each attempt as `attempt status outcome`. */
	const attempts = (crm: Sandbox) =>
		crm.deliveries.map((entry) => `${entry.attempt} ${entry.status} ${entry.outcome}`);
	const webhookIds = (receiver: Receiver) =>
		new Set(receiver.received.map((request) => request.headers['webhook-id'])).size;

	it('lead.created: Standard Webhooks headers, a signature of the secret, the §6 payload, the delivery log', async () => {
		const { crm, receiver, subscription, lead } = await setUp();
		const sent = { name: 'Signed', email: 's@example.com', value: 42, customFields: { a: 1 } };
		const created = await lead({ ...sent, stageId: 'lst_contacted', sourceId: 'src_web' });
		const delivered = () => receiver.received.length > 0 && receiver.received;
		const [request] = await waitFor(delivered, 3_000, 'a delivery');
		expect(request.headers).toMatchObject({
			'content-type': 'application/json',
			'user-agent': 'CRM-Sandbox-Webhooks/1.0',
			'webhook-id': expect.stringMatching(/^msg_/),
			'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
		});
		const timestamp = Number(request.headers['webhook-timestamp']);
		expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(5);
		const body = verify(subscription.secret, request);
		expect(body.event).toBe('lead.created');
		expect(body.payload).toEqual({
			...sent,
			id: created.id,
			mobile: null,
			title: null,
			source: 'Website',
			stage: 'Contacted',
			stageId: 2,
			archived: false,
			createdAt: created.createdAt,
			ownerId: 1,
			ownerName: 'Ada Admin',
		});
		expect(() => verify('whsec_' + Buffer.alloc(24, 7).toString('base64'), request)).toThrow();
		await waitFor(() => crm.deliveries.length === 1, 10_000, 'the delivery log');
		expect((await ask('GET /__sandbox/deliveries', crm)).body).toEqual([
			{
				subscriptionId: subscription.id,
				webhookId: request.headers['webhook-id'],
				event: 'lead.created',
				attempt: 1,
				url: receiver.url,
				status: 200,
				outcome: 'delivered',
				at: expect.any(String),
			},
		]);
	});

	it('only the events selected: lead, deal and invoice events, /emit', async () => {
		const known = ['lead.updated', 'deal.created', 'deal.stage_changed', 'invoice.created'];
		const events = [...known, 'custom.event'];
		const { crm, receiver, subscription } = await setUp(undefined, {}, events);
		await ask(`PATCH /api/v1/leads/${LEAD} {"archived":true}`, crm);
		const dealId = (await post(crm, '/deals', deal)).id;
		await ask(`PATCH /api/v1/deals/${dealId} {"stageId":"stg_qualified"}`, crm);
		const lineItems = [{ name: 'x', price: 10 }];
		const invoiceId = (await post(crm, '/invoices', { ...invoice, lineItems })).id;
		const emit = 'POST /__sandbox/emit {"event":"custom.event","payload":{"n":2}}';
		expect((await ask(emit, crm)).body.webhookIds).toHaveLength(1);
		expect(crm.emit('other.event', {})).toEqual([]);
		await waitFor(() => receiver.received.length >= 5, 3_000, '5 deliveries');
		await settled(crm);
		expect(receiver.received).toHaveLength(5);
		const bodies = receiver.received.map((request) => verify(subscription.secret, request));
		const byEvent = Object.fromEntries(bodies.map((body) => [body.event, body.payload]));
		expect(Object.keys(byEvent).sort()).toEqual([...events].sort());
		expect(byEvent['lead.updated']).toMatchObject({ id: LEAD, archived: true });
		expect(byEvent['deal.created']).toMatchObject({ id: dealId, status: 'ACTIVE' });
		const stageChange = { stageId: 'stg_qualified', previousStageId: 'stg_new' };
		expect(byEvent['deal.stage_changed']).toMatchObject(stageChange);
		expect(byEvent['invoice.created']).toMatchObject({ id: invoiceId, total: 10 });
		expect(byEvent['custom.event']).toEqual({ n: 2 });
		expect(webhookIds(receiver)).toBe(5);
	});

	it('the API answers while the endpoint hangs', async () => {
		const { crm, receiver, lead } = await setUp(() => 'hang', { deliveryTimeoutMs: 10_000 });
		const started = Date.now();
		await lead();
		// Far less than the hanging delivery's 10 s: the API did not wait for it.
		expect(Date.now() - started).toBeLessThan(5_000);
		await waitFor(() => receiver.received.length === 1, 10_000, 'the hanging delivery');
		expect(crm.deliveries).toHaveLength(0);
	});

	it('5xx: retried on the §8 schedule (scaled) with the same webhook-id and body, permanently failed after 10', async () => {
		const timeScale = 0.00001;
		const { crm, receiver, subscription, lead } = await setUp(() => 500, { timeScale });
		await lead();
		await waitFor(() => crm.deliveries.length === 10, 10_000, '10 attempts');
		await settled(crm);
		const retries = RETRY_SCHEDULE_MS.slice(1).map((_delay, index) => `${index + 1} 500 retrying`);
		expect(attempts(crm)).toEqual([...retries, '10 500 permanently_failed']);
		const sent = receiver.received.map(
			(request) => request.headers['webhook-id'] + request.rawBody,
		);
		expect(new Set(sent).size).toBe(1);
		for (const request of receiver.received)
			expect(() => verify(subscription.secret, request)).not.toThrow();
		const first = receiver.received[0].receivedAt;
		let due = 0;
		receiver.received.forEach((request, index) => {
			due += RETRY_SCHEDULE_MS[index] * timeScale;
			expect(request.receivedAt - first).toBeGreaterThanOrEqual(Math.floor(due) - 2);
		});
		await pause(100);
		expect(receiver.received).toHaveLength(10);
	});

	const answers: Array<[string, Receiver['respond'], string[]]> = [
		[
			'429, 502, 504 retried until a 2xx',
			(n) => [429, 502, 504][n] ?? 204,
			['1 429 retrying', '2 502 retrying', '3 504 retrying', '4 204 delivered'],
		],
		['another 4xx: failed, not retried', () => 400, ['1 400 failed']],
		['410: the subscription disabled', () => 410, ['1 410 disabled']],
		[
			'no answer within the timeout: retried',
			(n) => (n === 0 ? 'hang' : 200),
			['1 timeout retrying', '2 200 delivered'],
		],
	];
	it.each(answers)('%s, the same webhook-id', async (_name, respond, expected) => {
		const options = { timeScale: 0.0001, deliveryTimeoutMs: 200 };
		const { crm, receiver, subscription, lead } = await setUp(respond, options);
		await lead();
		await waitFor(() => crm.deliveries.length === expected.length, 5_000, 'the attempts');
		await settled(crm);
		expect(attempts(crm)).toEqual(expected);
		expect(webhookIds(receiver)).toBe(1);
		const status = expected.at(-1)!.endsWith('disabled') ? 'disabled' : 'active';
		expect((await ask(`GET /api/v1/webhooks/${subscription.id}`, crm)).body.status).toBe(status);
		// Nothing more to a disabled subscription.
		receiver.respond = () => 200;
		if (status === 'disabled') expect(crm.emit('lead.created', {})).toEqual([]);
	});

	it('a connection error: retried', async () => {
		const { crm, receiver, lead } = await setUp(undefined, { timeScale: 0.0001 });
		await receiver.close();
		await lead();
		await waitFor(() => crm.deliveries.length >= 2, 3_000, 'two attempts');
		expect(crm.deliveries[0]).toMatchObject({ attempt: 1, status: 'error', outcome: 'retrying' });
	});

	it('a pending retry is dropped when the subscription is deleted', async () => {
		const respond = (index: number) => (index === 0 ? 500 : 200);
		const { crm, receiver, subscription, lead } = await setUp(respond, { timeScale: 0.05 });
		await lead();
		await waitFor(() => crm.deliveries.length === 1, 10_000, 'first attempt');
		expect((await ask(`DELETE /api/v1/webhooks/${subscription.id}`, crm)).status).toBe(204);
		await settled(crm);
		expect(receiver.received).toHaveLength(1);
	});

	it('close() cancels pending retries', async () => {
		const { crm, lead } = await setUp(() => 503);
		await lead();
		await waitFor(() => crm.deliveries.length === 1, 10_000, 'first attempt');
		expect(crm.pendingDeliveries).toBeGreaterThan(0);
		await crm.close();
		expect(crm.pendingDeliveries).toBe(0);
		expect(crm.emit('lead.created', {})).toEqual([]);
	});

	/** Which of `secrets` sign the delivery of a lead created now, per subscription. */
	async function signers(crm: Sandbox, receiver: Receiver, secrets: Record<string, string>) {
		receiver.received.length = 0;
		await post(crm, '/leads', { name: 'Signed' });
		await settled(crm);
		const signs = (secret: string, request: Receiver['received'][number]) => {
			try {
				return verify(secret, request) !== undefined;
			} catch {
				return false;
			}
		};
		return receiver.received.map((request) =>
			Object.keys(secrets).filter((name) => signs(secrets[name], request)),
		);
	}
	const secretOf = async (crm: Sandbox, id: string) =>
		(await ask('GET /__sandbox/webhooks', crm)).body.find((item: any) => item.id === id).secret;

	it('the rotation switch: "both" signs with new and old (new first), "new" with the new alone; later subscriptions keep their own; "new" alone: no overlap', async () => {
		const { crm, receiver, subscription } = await setUp();
		const old = subscription.secret;
		const both = await ask('POST /__sandbox/config {"rotation":"both"}', crm);
		expect(both.body.rotated).toEqual([subscription.id]);
		const rotated = await secretOf(crm, subscription.id);
		expect(await signers(crm, receiver, { old, rotated })).toEqual([['old', 'rotated']]);
		const [request] = receiver.received;
		const { 'webhook-id': id, 'webhook-timestamp': timestamp } = request.headers;
		const sign = (secret: string) =>
			'v1,' +
			createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
				.update(`${id}.${timestamp}.${request.rawBody}`)
				.digest('base64');
		expect(request.headers['webhook-signature']).toBe(`${sign(rotated)} ${sign(old)}`);
		await ask(`DELETE /api/v1/webhooks/${subscription.id}`, crm);
		const later = await post(crm, '/webhooks', { ...hook(receiver.url), name: 'l' });
		const ended = await ask('POST /__sandbox/config {"rotation":"new"}', crm);
		expect(ended.body.rotated).toEqual([subscription.id]);
		expect(await secretOf(crm, later.id)).toBe(later.secret);
		expect(await signers(crm, receiver, { old, later: later.secret })).toEqual([['later']]);
		// "new" with no "both" before it rotates every subscription with no overlap.
		await ask('POST /__sandbox/config {"rotation":"new"}', crm);
		const next = await secretOf(crm, later.id);
		expect(await signers(crm, receiver, { later: later.secret, next })).toEqual([['next']]);
	});

	it('deliverOnCreate: off by default; when on, that delivery to the new subscription only, after its answer; 503 retried', async () => {
		const { crm, receiver } = await setUp((index) => (index < 2 ? 503 : 200), { timeScale: 0.001 });
		await pause(100);
		expect(receiver.received).toEqual([]);
		const on = await ask(
			'POST /__sandbox/config {"deliverOnCreate":{"event":"deal.updated","payload":{"id":"lead_x"}}}',
			crm,
		);
		expect(on.body.deliverOnCreate).toEqual({ event: 'deal.updated', payload: { id: 'lead_x' } });
		const events = ['deal.updated', 'lead.created'];
		const second = await post(crm, '/webhooks', { name: 'n', url: `${receiver.url}/new`, events });
		const answeredAt = Date.now();
		const delivered = () => crm.deliveries.some((entry) => entry.outcome === 'delivered');
		await waitFor(delivered, 5_000, 'delivered');
		const [request] = receiver.received;
		const body = { event: 'deal.updated', payload: { id: 'lead_x' } };
		expect(JSON.parse(request.rawBody)).toMatchObject(body);
		expect(request.path).toBe('/hook/new');
		expect(request.receivedAt).toBeGreaterThanOrEqual(answeredAt - 50);
		expect(crm.deliveries.map((entry) => [entry.subscriptionId, entry.status])).toEqual([
			[second.id, 503],
			[second.id, 503],
			[second.id, 200],
		]);
	});
});
