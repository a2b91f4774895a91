/**
 * nock's lifecycle for a jest test file. Call `useNock()` at the top level of every test file that uses nock.
 *
 * - No real network: a request nothing intercepts fails at once instead of leaving the machine.
 * - `nock.cleanAll()` after each test, so an interceptor a test left unused cannot answer the next test.
 * - `nock.restore()` after the file. jest gives every test file its own copy of nock, but they all patch the one
 *   `http` module of the worker process; a file that does not restore leaves its (by then torn-down) interceptor
 *   patched in, and a later file in the same worker can hang on `replyWithError` (the failed request falls through
 *   to the stale interceptor). It also keeps jest from warning about objects "accessed after being soft deleted".
 */
import nock from 'nock';

export function useNock(): void {
	beforeAll(() => {
		if (!nock.isActive()) nock.activate();
		nock.disableNetConnect();
	});
	afterEach(() => {
		nock.cleanAll();
	});
	afterAll(() => {
		nock.cleanAll();
		nock.enableNetConnect();
		nock.restore();
	});
}

/**
 * For a file that talks to a real server and loads nock only through shared fixtures: requiring nock patches the
 * worker's `http` module, so restore it after the file (a later file's socket would otherwise pass through nock's
 * mock socket, which does not pass a client's close on to the server).
 */
export function restoreNockAfterFile(): void {
	afterAll(() => {
		nock.restore();
	});
}
