/** Shared set-up of the operation tests: run the node through the harness, and see what nock received. */
import nock from 'nock';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { errorOf, runNode, TEST_CREDENTIALS } from '../../helpers/harness';

export { useNock } from '../../helpers/nock';

export const BASE = TEST_CREDENTIALS.baseUrl;

/** A fresh interceptor scope on the test base URL that only answers requests carrying the credential's key. */
export function api(): nock.Scope {
	return nock(BASE).matchHeader('x-api-key', TEST_CREDENTIALS.apiKey);
}

export interface RunOptions {
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	typeVersion?: number;
}

let executions = 0;
let executionId: string | undefined;

/** Runs from here on belong to a new execution (Create or Update remembers emails per execution); `''`: n8n gave the
 * runs no execution id. */
export function newExecution(id?: string): void {
	executions++;
	executionId = id ?? `harness-execution-${executions}`;
}

/** Runs the CRM Invoicing node with these parameters; resolves with its only output. */
export async function run(
	parameters: INodeParameters,
	options: RunOptions = {},
): Promise<INodeExecutionData[]> {
	const output = await runNode({
		nodeType: new CrmInvoicing(),
		parameters,
		...options,
		executionId,
		// By default version 2, whose parameters these tests set (version 3's mapper: mapper.test.ts).
		typeVersion: options.typeVersion ?? 2,
	});
	expect(output).toHaveLength(1);
	return output[0];
}

/** The `json` of each output item. */
export function jsonOf(items: INodeExecutionData[]): IDataObject[] {
	return items.map((item) => item.json);
}

/** A resource locator value as n8n saves it. */
export function byId(value: string): INodeParameters {
	return { __rl: true, mode: 'id', value };
}

export function fromList(value: string): INodeParameters {
	return { __rl: true, mode: 'list', value };
}

/** Requests, as nock saw them: method, path with query, and parsed body. */
export interface SeenRequest {
	method: string;
	path: string;
	body: unknown;
}

/** Interceptor reply that logs the request into `seen` and answers with `status` and `body`. */
export function logging(seen: SeenRequest[], status: number, body?: unknown) {
	return function (
		this: nock.ReplyFnContext,
		path: string,
		requestBody: nock.Body,
	): nock.ReplyFnResult {
		seen.push({
			method: this.req.method ?? '',
			path,
			body: requestBody === '' ? undefined : requestBody,
		});
		return [status, (body ?? '') as nock.ReplyBody];
	};
}

/** Records every request nock could not match: how a test proves that no request left. */
export function unmatchedRequests(): { requests: string[]; stop: () => void } {
	const requests: string[] = [];
	const listener = (request: { method?: string; path?: string }) => {
		requests.push(`${request.method ?? ''} ${request.path ?? ''}`);
	};
	nock.emitter.on('no match', listener);
	return { requests, stop: () => nock.emitter.removeListener('no match', listener) };
}

/** Runs the node expecting a NodeOperationError whose message matches, with no request sent. */
export async function expectValidationError(
	parameters: INodeParameters,
	message: RegExp | string,
	options: RunOptions = {},
) {
	const unmatched = unmatchedRequests();
	try {
		const error = await errorOf(run(parameters, options));
		expect(error.name).toBe('NodeOperationError');
		expect(error.message).toMatch(message);
		expect(unmatched.requests).toEqual([]);
		expect(nock.pendingMocks()).toEqual([]);
		return error;
	} finally {
		unmatched.stop();
	}
}

/** `count` records named `prefix` + a running number starting at `from`. */
export function records(count: number, from = 1, prefix = 'rec_'): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({ id: `${prefix}${from + index}` }));
}
