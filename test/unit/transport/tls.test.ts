/**
 * TLS failures are named: what is wrong with the certificate and what to check, never "Could not reach the CRM API",
 * and never retried (a certificate does not fix itself in a second). One real handshake against a self-signed
 * certificate is in bounds.test.ts; here every code Node.js gives, as n8n's helper hands it on.
 */
import nock from 'nock';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { BASE, errorOf, freshContext, networkError, setUpNock } from './support';

setUpNock();

describe.each([
	['DEPTH_ZERO_SELF_SIGNED_CERT', /is self-signed/],
	['SELF_SIGNED_CERT_IN_CHAIN', /a private certificate authority/],
	['CERT_HAS_EXPIRED', /has expired/],
	['CERT_NOT_YET_VALID', /is not valid yet/],
	['ERR_TLS_CERT_ALTNAME_INVALID', /was issued for another host name than the Base URL's/],
	['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /a certificate authority n8n does not know/],
	['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', /a certificate authority n8n does not know/],
	['ERR_SSL_WRONG_VERSION_NUMBER', /the server did not answer with TLS/],
	['CERT_REVOKED', /failed n8n's check/],
])('%s', (code, problem) => {
	it('says what is wrong with the certificate and what to check, and is not retried', async () => {
		const { context } = freshContext();
		const scope = nock(BASE)
			.get('/api/v1/leads/lead_1')
			.replyWithError(networkError(code, `request failed: ${code}`));

		const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));

		expect(scope.isDone()).toBe(true);
		expect(error.message).toMatch(problem);
		expect(error.message).toMatch(
			new RegExp(`\\(${code}\\); the node did not send GET /api/v1/leads/lead_1$`),
		);
		expect(error.message).not.toMatch(/Could not reach/);
		expect(error.description).toMatch(/valid certificate for this host name/);
	});
});

it.each([
	['self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'],
	['certificate has expired', 'CERT_HAS_EXPIRED'],
	["Hostname/IP does not match certificate's altnames", 'ERR_TLS_CERT_ALTNAME_INVALID'],
])('n8n 1.x hands on only the message "%s": still named as %s', async (message, code) => {
	const { context } = freshContext();
	nock(BASE).get('/api/v1/leads/lead_1').replyWithError(new Error(message));
	const error = await errorOf(apiRequest.call(context, { method: 'GET', path: '/leads/lead_1' }));
	expect(error.message).toMatch(new RegExp(`\\(${code}\\); the node did not send GET`));
});

it('a plain connection failure still reads "Could not reach the CRM API"', async () => {
	const { context } = freshContext();
	nock(BASE).post('/api/v1/leads').replyWithError(networkError('ECONNREFUSED'));
	const error = await errorOf(
		apiRequest.call(context, { method: 'POST', path: '/leads', body: { name: 'x' } }),
	);
	expect(error.message).toBe('Could not reach the CRM API for POST /api/v1/leads (ECONNREFUSED)');
});
