/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Starts a real n8n with this package installed the way users install it, and drives it over HTTP:
 * owner setup, an API key, credentials, workflows, activation and executions (n8n's public API).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
	createWriteStream,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { ROOT, type Runtime } from './runtime';
import { assertPortFree, stopChild } from './system';

export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Dev',
	lastName: 'Owner',
	password: 'Sandbox-Passw0rd',
};
export const PACKAGE_NAME = 'n8n-nodes-crm-invoicing';

/**
 * Installs the package into the user folder's `.n8n/nodes`, as n8n's Community Nodes screen does: by default this
 * checkout, packed now (as `npm publish` would); with `tarball` (a path from the current folder), that packed release
 * instead (test/fixtures/releases/, for upgrade tests and BENCH_TARBALL). Returns the tarball installed.
 */
export function installPackage(userFolder: string, tarball?: string): string {
	// npm installs from the nodes folder: a relative path must be read from here.
	if (tarball) tarball = path.resolve(tarball);
	else {
		const packDir = path.join(userFolder, 'pack');
		rmSync(packDir, { recursive: true, force: true });
		mkdirSync(packDir, { recursive: true });
		const pack = spawnSync('npm', ['pack', '--pack-destination', packDir, '--loglevel=error'], {
			cwd: ROOT,
			encoding: 'utf8',
		});
		if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
		tarball = path.join(packDir, readdirSync(packDir).find((file) => file.endsWith('.tgz')) ?? '');
	}

	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	rmSync(nodesDir, { recursive: true, force: true });
	mkdirSync(nodesDir, { recursive: true });
	writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true }, null, 2),
	);
	// --omit=peer: n8n-workflow comes from n8n itself, as in an install from the Community Nodes screen.
	const install = spawnSync(
		'npm',
		[
			'install',
			tarball,
			'--omit=peer',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
		],
		{ cwd: nodesDir, encoding: 'utf8' },
	);
	if (install.status !== 0) throw new Error(`npm install of ${tarball} failed: ${install.stderr}`);
	return tarball;
}

/** Where installPackage puts the package in a user folder: the folder n8n loads it from. */
export function installedPackageDir(userFolder: string): string {
	return path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
}

/** The version of the package installed in a user folder (what n8n loads at its next start). */
export function installedVersion(userFolder: string): string {
	const manifest = path.join(installedPackageDir(userFolder), 'package.json');
	return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** `start`: the main process (editor, API, activation); `webhook` and `worker`: queue mode's other processes. */
export type N8nCommand = 'start' | 'webhook' | 'worker';

export interface N8nOptions {
	runtime: Runtime;
	userFolder: string;
	/** The HTTP port: the editor and API (start), webhooks (webhook) or the health check (worker). */
	port: number;
	command?: N8nCommand;
	/** Extra environment (overrides the defaults below). */
	env?: Record<string, string>;
	logFile?: string;
}

export class N8nProcess {
	readonly url: string;

	private child: ChildProcess | undefined;

	constructor(readonly options: N8nOptions) {
		this.url = `http://127.0.0.1:${options.port}`;
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	get command(): N8nCommand {
		return this.options.command ?? 'start';
	}

	/**
	 * A fresh user folder's first start runs n8n's migrations: minutes on two busy cores (CI starts both versions' n8n
	 * at once, while other suites run).
	 */
	async start(timeoutMs = 300_000): Promise<void> {
		const { runtime, userFolder, port } = this.options;
		// Another n8n on this port would answer in this one's place, and the tests would run against the wrong code.
		await assertPortFree(port, 'n8n');
		const env: NodeJS.ProcessEnv = {
			PATH: `${path.dirname(runtime.node)}:${process.env.PATH ?? ''}`,
			HOME: process.env.HOME,
			N8N_USER_FOLDER: userFolder,
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			N8N_ENCRYPTION_KEY: 'crm-invoicing-local-encryption-key',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_RUNNERS_ENABLED: 'false',
			// The task broker listens even with runners off; give each n8n its own port so several can run at once.
			N8N_RUNNERS_BROKER_PORT: String(port + 10_000),
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_LOG_LEVEL: 'info',
			WEBHOOK_URL: `http://127.0.0.1:${port}/`,
			N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
			...runtime.env,
			...this.options.env,
		};
		if (this.command === 'worker') {
			// A worker serves no webhooks or editor; its health check is what tells that it is ready.
			env.QUEUE_HEALTH_CHECK_ACTIVE = 'true';
			env.QUEUE_HEALTH_CHECK_PORT = String(port);
			env.N8N_WORKER_SERVER_ADDRESS = '127.0.0.1';
		}
		this.child = spawn(runtime.node, [runtime.n8nBin, this.command], {
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const log = this.options.logFile
			? createWriteStream(this.options.logFile, { flags: 'a' })
			: undefined;
		this.child.stdout?.on('data', (chunk: Buffer) => log?.write(chunk));
		this.child.stderr?.on('data', (chunk: Buffer) => log?.write(chunk));
		const exited = new Promise<never>((_, reject) =>
			this.child?.once('exit', (code) =>
				reject(
					new Error(
						`n8n ${this.command} exited with code ${code} while starting; see ${this.options.logFile ?? 'its output'}`,
					),
				),
			),
		);
		const deadline = Date.now() + timeoutMs;
		const ready = (async () => {
			while (Date.now() < deadline) {
				try {
					// n8n reports ready before its REST and public API routes are mounted: wait for all three (a
					// mounted route asks for a login: 401).
					const health = await fetch(`${this.url}/healthz/readiness`);
					// Webhook processes and workers have no editor or API: readiness (database and Redis reached) is all.
					if (this.command !== 'start' && health.ok) return;
					const rest = health.ok ? await fetch(`${this.url}/rest/workflows`) : undefined;
					const publicApi =
						rest && rest.status !== 404 ? await fetch(`${this.url}/api/v1/workflows`) : undefined;
					if (publicApi && publicApi.status !== 404) return;
				} catch {
					// not listening yet
				}
				await new Promise((resolve) => setTimeout(resolve, 300));
			}
			throw new Error(`n8n ${this.command} did not become ready within ${timeoutMs / 1000} s`);
		})();
		await Promise.race([ready, exited]);
	}

	/**
	 * Whether this n8n publishes through its publication service: the runtime's default (2.41), off with
	 * N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false. Known from how it was started: a lean n8n (leanEnv) serves no settings.
	 */
	get publicationService(): boolean {
		const off = this.options.env?.N8N_USE_WORKFLOW_PUBLICATION_SERVICE === 'false';
		return this.options.runtime.publishes && !off;
	}

	async stop(): Promise<void> {
		await stopChild(this.child, 'SIGTERM');
		this.child = undefined;
	}
}

/**
 * n8n's own Webhook node (version 2) as workflow JSON, answering POST on `/webhook/<path>`: how the scripts and tests
 * start a workflow over HTTP. `parameters` are added to (or replace) the method, path and empty options.
 */
export function webhookNode(
	path: string,
	parameters: Record<string, unknown> = {},
	node: { id?: string; name?: string; position?: [number, number] } = {},
): {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	webhookId: string;
	parameters: Record<string, unknown>;
} {
	return {
		id: node.id ?? randomUUID(),
		name: node.name ?? 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: node.position ?? [0, 0],
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, options: {}, ...parameters },
	};
}

/** What n8n 2.41 answers at `GET /rest/workflows/{id}/publication-status`. */
export interface PublicationStatus {
	status: 'in_progress' | 'not_published' | 'published' | 'partial' | 'failed';
	liveVersionId: string | null;
	pendingVersionId: string | null;
	triggers: Array<{ nodeId: string; status: string; errorMessage: string | null }>;
}

/** A small client for n8n's REST (owner setup, login) and public API. */
/** What the editor sends to n8n's dynamic-node-parameters endpoints for a node's method. */
interface DynamicParameterRequest {
	nodeType: string;
	version: number;
	methodName: string;
	parameterPath: string;
	parameters: Record<string, unknown>;
	credentials: Record<string, { id: string; name: string }>;
}

export class N8nClient {
	apiKey = '';

	/** The owner's session for n8n's internal REST API, once signed in. */
	private cookie: string | undefined;

	constructor(readonly url: string) {}

	private async rest<T>(
		method: string,
		route: string,
		body?: unknown,
		cookie?: string,
	): Promise<{ data: T; cookie?: string }> {
		const response = await fetch(`${this.url}/rest${route}`, {
			method,
			headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`n8n ${method} /rest${route} → ${response.status}: ${text.slice(0, 500)}`);
		const json = text ? (JSON.parse(text) as { data?: T }) : {};
		const setCookie = response.headers.get('set-cookie') ?? undefined;
		return { data: (json.data ?? json) as T, cookie: setCookie?.split(';')[0] };
	}

	/** Signs in as the owner; returns the session cookie for n8n's internal REST API. */
	async login(): Promise<string> {
		const login = await this.rest('POST', '/login', {
			emailOrLdapLoginId: OWNER.email,
			email: OWNER.email,
			password: OWNER.password,
		});
		if (!login.cookie) throw new Error('n8n login returned no cookie');
		return login.cookie;
	}

	/**
	 * What the editor's "Test" button answers for a saved credential edited to hold `data` (n8n 1.x only tests
	 * credentials that exist; the data sent replaces the saved data for the test, as in the editor).
	 */
	async testCredential(
		credential: { id: string; name: string },
		type: string,
		data: Record<string, unknown>,
	): Promise<{ status: string; message: string }> {
		const cookie = await this.login();
		const result = await this.rest<{ status: string; message: string }>(
			'POST',
			'/credentials/test',
			{ credentials: { id: credential.id, name: credential.name, type, data } },
			cookie,
		);
		return result.data;
	}

	/**
	 * What the editor's "From List" picker asks n8n for: a node's list search method run with a saved credential.
	 * Rejects with n8n's answer when the method fails.
	 */
	async listSearch(options: {
		nodeType: string;
		methodName: string;
		parameterPath: string;
		parameters: Record<string, unknown>;
		credentials: Record<string, { id: string; name: string }>;
		filter?: string;
	}): Promise<{ results: Array<{ name: string; value: string }>; paginationToken?: string }> {
		const cookie = await this.login();
		const result = await this.rest<{
			results: Array<{ name: string; value: string }>;
			paginationToken?: string;
		}>(
			'POST',
			'/dynamic-node-parameters/resource-locator-results',
			{
				path: options.parameterPath,
				nodeTypeAndVersion: { name: options.nodeType, version: 1 },
				currentNodeParameters: options.parameters,
				methodName: options.methodName,
				credentials: options.credentials,
				filter: options.filter,
			},
			cookie,
		);
		return result.data;
	}

	/**
	 * What the editor asks n8n for when it opens a resource mapper (node version `version`): the node's mapping method
	 * run with a saved credential and the node's current parameters. Rejects with n8n's answer when the method fails.
	 */
	async resourceMapperFields(
		options: DynamicParameterRequest,
	): Promise<{ fields: Array<Record<string, any>>; emptyFieldsNotice?: string }> {
		return await this.dynamicParameters('/dynamic-node-parameters/resource-mapper-fields', options);
	}

	/** One of n8n's dynamic-node-parameters endpoints, as the editor calls it (signed in). */
	private async dynamicParameters<T>(
		endpoint: string,
		options: DynamicParameterRequest,
	): Promise<T> {
		const cookie = await this.login();
		const result = await this.rest<T>(
			'POST',
			endpoint,
			{
				path: options.parameterPath,
				nodeTypeAndVersion: { name: options.nodeType, version: options.version },
				currentNodeParameters: options.parameters,
				methodName: options.methodName,
				credentials: options.credentials,
			},
			cookie,
		);
		return result.data;
	}

	/**
	 * What the editor asks n8n for when it opens a list that loads its options (node version `version`): the node's
	 * load-options method run with a saved credential. Rejects with n8n's answer when the method fails.
	 */
	async loadOptions(
		options: DynamicParameterRequest,
	): Promise<Array<{ name: string; value: string }>> {
		return await this.dynamicParameters<Array<{ name: string; value: string }>>(
			'/dynamic-node-parameters/options',
			options,
		);
	}

	/** Creates the owner account (first start) or logs in, then creates an API key for the public API. */
	async setUp(): Promise<void> {
		try {
			await this.rest('POST', '/owner/setup', OWNER);
		} catch (error) {
			if (!/already|40[03]/i.test(String(error))) throw error;
		}
		const cookie = await this.login();
		let scopes: string[] | undefined;
		try {
			scopes = (await this.rest<string[]>('GET', '/api-keys/scopes', undefined, cookie)).data;
		} catch {
			scopes = undefined;
		}
		const created = await this.rest<{ rawApiKey?: string; apiKey?: string }>(
			'POST',
			'/api-keys',
			{ label: `scripts-${Date.now()}`, scopes, expiresAt: null },
			cookie,
		);
		this.apiKey = created.data.rawApiKey ?? created.data.apiKey ?? '';
		if (!this.apiKey) throw new Error('n8n returned no API key');
	}

	/**
	 * n8n's public API. On a busy machine n8n's database check can lag and n8n then refuses every request with 503
	 * "Database is not ready!" (before handling it): such an answer is asked again, for at most 30 s.
	 */
	async api<T = any>(method: string, route: string, body?: unknown): Promise<T> {
		const deadline = Date.now() + 30_000;
		const refused = (answer: { status: number; text: string }) =>
			answer.status === 503 && answer.text.includes('Database is not ready');
		let answer = await this.publicApi(method, route, body);
		while (refused(answer) && Date.now() <= deadline) {
			await delay(500);
			answer = await this.publicApi(method, route, body);
		}
		const { status, text } = answer;
		if (status < 200 || status >= 300)
			throw new Error(`n8n ${method} /api/v1${route} → ${status}: ${text.slice(0, 800)}`);
		return (text ? JSON.parse(text) : {}) as T;
	}

	private async publicApi(method: string, route: string, body?: unknown) {
		const response = await fetch(`${this.url}/api/v1${route}`, {
			method,
			headers: { 'content-type': 'application/json', 'x-n8n-api-key': this.apiKey },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: response.status, text: await response.text() };
	}

	async createCredential(
		name: string,
		data: Record<string, unknown>,
	): Promise<{ id: string; name: string }> {
		let created: { id: string; name: string };
		try {
			created = await this.api('POST', '/credentials', { name, type: 'crmInvoicingApi', data });
		} catch (error) {
			// n8n 1.123's schema demands `allowedDomains` unless the (1.x-only) domain restriction is given explicitly,
			// and it also requires the credential's notice properties (`httpNotice`), which hold no value: send them empty.
			const text = String(error);
			const notices = [...text.matchAll(/requires property \\?"(\w*Notice)\\?"/g)].map(
				(match) => match[1],
			);
			if (!/allowedDomains/.test(text) && notices.length === 0) throw error;
			created = await this.api('POST', '/credentials', {
				name,
				type: 'crmInvoicingApi',
				data: {
					...data,
					allowedHttpRequestDomains: 'all',
					...Object.fromEntries(notices.map((notice) => [notice, ''])),
				},
			});
		}
		return { id: created.id, name: created.name };
	}

	/**
	 * Changes a saved credential's data as the editor does (n8n's REST API, signed in as the owner: the public API of
	 * 1.x cannot update a credential). `data` is the whole data, e.g. the same Base URL with another API key.
	 */
	async updateCredential(
		credential: { id: string; name: string },
		type: string,
		data: Record<string, unknown>,
	): Promise<void> {
		this.cookie ??= await this.login();
		await this.rest(
			'PATCH',
			`/credentials/${credential.id}`,
			{ name: credential.name, type, data },
			this.cookie,
		);
	}

	async createWorkflow(workflow: Record<string, unknown>): Promise<{ id: string }> {
		return await this.api<{ id: string }>('POST', '/workflows', { settings: {}, ...workflow });
	}

	/**
	 * Publishes (activates) a workflow and returns once n8n has registered its webhooks and run its triggers' create
	 * hooks. n8n 2.41's publication service answers the public API's activate first and does that work afterwards, and
	 * a trigger's failure (e.g. the CRM refused the subscription) is then no longer the activate answer but the
	 * workflow's publication status: this rejects with that failure, as activate itself did on 2.38 and 1.x (where the
	 * workflow then stays unpublished; on 2.41 it stays published with the error).
	 */
	async activate(id: string, timeoutMs = 90_000): Promise<void> {
		await this.api('POST', `/workflows/${id}/activate`);
		await this.waitForPublication(id, 'published', timeoutMs);
	}

	/** Unpublishes (deactivates) a workflow and returns once n8n has removed its webhooks and run the delete hooks. */
	async deactivate(id: string, timeoutMs = 90_000): Promise<void> {
		await this.api('POST', `/workflows/${id}/deactivate`);
		await this.waitForPublication(id, 'not_published', timeoutMs);
	}

	/**
	 * n8n 2.41's publication status of a workflow (`GET /rest/workflows/{id}/publication-status`): `in_progress` while
	 * the publication service works on it, then `published`, `partial`, `failed` (with each trigger's error) or
	 * `not_published`. Undefined where n8n has no publication service (1.x, 2.38, or 2.41 with
	 * N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false): there activate and deactivate answer once the work is done.
	 */
	async publicationStatus(id: string): Promise<PublicationStatus | undefined> {
		for (let attempt = 0; attempt < 2; attempt++) {
			this.cookie ??= await this.login();
			const response = await fetch(`${this.url}/rest/workflows/${id}/publication-status`, {
				headers: { cookie: this.cookie },
			});
			const text = await response.text();
			if (response.status === 404) return undefined;
			if (response.status === 401) {
				this.cookie = undefined;
				continue;
			}
			if (!response.ok)
				throw new Error(
					`n8n GET /rest/workflows/${id}/publication-status → ${response.status}: ${text.slice(0, 500)}`,
				);
			const json = JSON.parse(text) as { data?: PublicationStatus } & PublicationStatus;
			return json.data ?? json;
		}
		throw new Error("n8n refused the owner's session for the publication status");
	}

	/**
	 * Waits until n8n's publication service has settled a workflow in the `wanted` state. When it settles a
	 * publication as `failed` or `partial`, rejects with the triggers' errors.
	 */
	async waitForPublication(
		id: string,
		wanted: 'published' | 'not_published',
		timeoutMs = 90_000,
	): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		let last: PublicationStatus | undefined;
		for (;;) {
			last = await this.publicationStatus(id);
			if (!last || last.status === wanted) return;
			if (wanted === 'published' && (last.status === 'failed' || last.status === 'partial')) {
				const errors = last.triggers
					.filter((trigger) => trigger.status === 'failed')
					.map((trigger) => trigger.errorMessage);
				throw new Error(
					`n8n could not activate workflow ${id} (publication ${last.status}): ${errors.join('; ')}`,
				);
			}
			if (Date.now() > deadline) {
				throw new Error(
					`Timed out after ${timeoutMs} ms waiting for workflow ${id} to be ${wanted} (last: ${JSON.stringify(last)})`,
				);
			}
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}

	async deleteWorkflow(id: string): Promise<void> {
		await this.api('DELETE', `/workflows/${id}`);
	}

	async executions(workflowId: string, includeData = true): Promise<any[]> {
		const result = await this.api<{ data: any[] }>(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=${includeData}&limit=100`,
		);
		return result.data;
	}
}
