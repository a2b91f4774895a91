/**
 * TLS failures are named: the code and what to check for it, never "Could not reach the CRM API",
 * and never retried (a certificate does not fix itself in a second). One real handshake against a self-signed
 * certificate is in bounds.test.ts; here every code Node.js gives, as n8n's helper hands it on.
 */
import nock from 'nock';

import { apiRequest } from '../../../nodes/CrmInvoicing/shared/transport';
import { BASE, errorOf, freshContext, networkError, setUpNock } from './support';

setUpNock();

describe.each([
	['DEPTH_ZERO_SELF_SIGNED_CERT', /is self-signed/, /NODE_EXTRA_CA_CERTS/],
	['SELF_SIGNED_CERT_IN_CHAIN', /failed n8n's check/, /private certificate authority/],
	[
		'CERT_HAS_EXPIRED',
		/failed n8n's check/,
		/Expired or not yet valid: check the n8n server's clock/,
	],
	['CERT_NOT_YET_VALID', /failed n8n's check/, /not yet valid: check the n8n server's clock/],
	['ERR_TLS_CERT_ALTNAME_INVALID', /failed n8n's check/, /another host name \(ALTNAME\)/],
	['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /failed n8n's check/, /private certificate authority/],
	['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', /failed n8n's check/, /private certificate authority/],
	['ERR_SSL_WRONG_VERSION_NUMBER', /failed n8n's check/, /did not answer with TLS \(http:\/\//],
	['CERT_REVOKED', /failed n8n's check/, /install a valid certificate/],
])('%s', (code, problem, toCheck) => {
	it('names the code, says what to check for it, and is not retried', async () => {
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
		expect(error.description).toMatch(toCheck);
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
