/**
 * What the API specification states that the transport needs. These are not choices: the choices made where the
 * spec is silent are in ../apiChoices.ts.
 */

/** Path prefixes of the two API versions, appended to the credential's Base URL (spec §9). */
export const API_PREFIX = { v1: '/api/v1', v2: '/api/v2' } as const;

/** Largest page the API serves (v1 `limit`, v2 `pageSize`; spec §8). Return All asks for this, so it needs the fewest requests. */
export const MAX_PAGE_SIZE = 100;
