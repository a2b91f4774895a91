/**
 * The API key is never shown in clear. Every answer is redacted where it is read (request.ts), before anything
 * parses, shows or outputs it, its headers included (redactHeaders):
 * - the key in each spelling of secretSpellings: as it is, and base64 or base64url-encoded (at any alignment, so also
 *   inside an encoded `user:key` or a longer encoded header);
 * - the text of an answer that is not JSON (an error page, a cut error body), in any spelling a reader would decode:
 *   each character of the key written plainly, JSON-escaped (`\u002b`, `\/`, …), percent-encoded (`%2B`) or as an
 *   HTML character reference (`&#43;`, `&#x2b;`, `&plus;`), in any mix;
 * - every string (and object key) of a JSON answer after JSON.parse decoded it, walked iteratively, so no nesting and
 *   no escape hides it.
 * Both are linear: the key is found in the decoded characters with Knuth–Morris–Pratt, and the walk visits each value
 * of the parsed answer once (the answer itself is bounded by READ.maxAnswerBytes).
 */

export const REDACTED = '[redacted]';

/** Keys shorter than this are left alone: replacing them would garble the text and hide nothing. */
const MIN_SECRET_LENGTH = 4;

const SHORT_ESCAPES: Record<string, number> = {
	'"': 0x22,
	'\\': 0x5c,
	'/': 0x2f,
	b: 0x08,
	f: 0x0c,
	n: 0x0a,
	r: 0x0d,
	t: 0x09,
};

const NAMED_REFERENCES: Record<string, number> = {
	amp: 0x26,
	quot: 0x22,
	apos: 0x27,
	lt: 0x3c,
	gt: 0x3e,
	sol: 0x2f,
	plus: 0x2b,
	equals: 0x3d,
};

function hexValue(text: string, from: number, digits: number): number {
	if (from + digits > text.length) return -1;
	let value = 0;
	for (let i = from; i < from + digits; i++) {
		const code = text.charCodeAt(i);
		const digit =
			code >= 0x30 && code <= 0x39
				? code - 0x30
				: code >= 0x61 && code <= 0x66
					? code - 0x57
					: code >= 0x41 && code <= 0x46
						? code - 0x37
						: -1;
		if (digit < 0) return -1;
		value = value * 16 + digit;
	}
	return value;
}

/** An HTML character reference at `at` (`&#43;`, `&#x2b;`, `&plus;`): the character and where it ends, or undefined. */
function characterReference(text: string, at: number): { code: number; end: number } | undefined {
	// The `;` is looked for within the longest reference only, so each `&` costs at most 10 steps (linear overall).
	let semicolon = -1;
	for (let index = at + 2; index < Math.min(text.length, at + 11); index++) {
		if (text.charCodeAt(index) === 0x3b) {
			semicolon = index;
			break;
		}
	}
	if (semicolon < 0) return undefined;
	const body = text.slice(at + 1, semicolon);
	let code: number | undefined;
	if (/^#[0-9]{1,7}$/.test(body)) code = Number(body.slice(1));
	else if (/^#[xX][0-9a-fA-F]{1,6}$/.test(body)) code = parseInt(body.slice(2), 16);
	else code = NAMED_REFERENCES[body];
	return code !== undefined && code <= 0xffff ? { code, end: semicolon + 1 } : undefined;
}

/**
 * The character (UTF-16 code unit) a reader decodes at `at`, and where its spelling ends: a JSON escape, a
 * percent-encoded ASCII byte, an HTML character reference, or the character itself.
 */
function unitAt(text: string, at: number): { code: number; end: number } {
	const code = text.charCodeAt(at);
	if (code === 0x5c && at + 1 < text.length) {
		const next = text[at + 1];
		if (next === 'u') {
			const value = hexValue(text, at + 2, 4);
			if (value >= 0) return { code: value, end: at + 6 };
		} else if (SHORT_ESCAPES[next] !== undefined) return { code: SHORT_ESCAPES[next], end: at + 2 };
	} else if (code === 0x25) {
		const value = hexValue(text, at + 1, 2);
		if (value >= 0 && value < 0x80) return { code: value, end: at + 3 };
	} else if (code === 0x26) {
		const reference = characterReference(text, at);
		if (reference) return reference;
	}
	return { code, end: at + 1 };
}

/** Knuth–Morris–Pratt failure table of a pattern. */
function failureTable(pattern: string): Int32Array {
	const table = new Int32Array(pattern.length);
	for (let i = 1, k = 0; i < pattern.length; i++) {
		while (k > 0 && pattern.charCodeAt(i) !== pattern.charCodeAt(k)) k = table[k - 1];
		if (pattern.charCodeAt(i) === pattern.charCodeAt(k)) k++;
		table[i] = k;
	}
	return table;
}

/** Replaces each spelling of `secret` in `text` (see unitAt) by REDACTED, in one pass over the text. */
function redactOne(text: string, secret: string): string {
	const table = failureTable(secret);
	const length = secret.length;
	// Where each of the last `length` decoded characters starts in the text (a ring), so a match maps back to its span.
	const starts = new Int32Array(length);
	const parts: string[] = [];
	let copiedTo = 0;
	let matched = 0;
	let unit = 0;
	for (let at = 0; at < text.length; unit++) {
		const { code, end } = unitAt(text, at);
		starts[unit % length] = at;
		while (matched > 0 && code !== secret.charCodeAt(matched)) matched = table[matched - 1];
		if (code === secret.charCodeAt(matched)) matched++;
		if (matched === length) {
			const start = starts[(unit - length + 1) % length];
			parts.push(text.slice(copiedTo, start), REDACTED);
			copiedTo = end;
			matched = 0;
		}
		at = end;
	}
	if (parts.length === 0) return text;
	parts.push(text.slice(copiedTo));
	return parts.join('');
}

/** The secrets worth redacting (long enough to mean something). */
function liveSecrets(secrets: readonly string[]): string[] {
	return secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
}

/** Whether the text may spell a character otherwise than plainly (else a plain search is enough). */
const mayBeEncoded = (text: string): boolean =>
	text.includes('\\') || text.includes('%') || text.includes('&');

const BASE64_URL: Record<string, string> = { '+': '-', '/': '_' };

/**
 * The texts to look for in place of one API key: the key, and its base64 and base64url encodings at each of the three
 * alignments it can have inside a longer encoded text (the characters that also encode a neighbouring byte are left
 * out, so each is found whatever stands around the key). Computed once per credential read (connection.ts).
 */
export function secretSpellings(key: string): string[] {
	const bytes = Buffer.from(key, 'utf8');
	const spellings = new Set([key]);
	for (let pad = 0; pad < 3; pad++) {
		const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
		const core = encoded.slice(
			Math.ceil((8 * pad) / 6),
			Math.floor((8 * (pad + bytes.length)) / 6),
		);
		spellings.add(core);
		spellings.add(core.replace(/[+/]/g, (char) => BASE64_URL[char]));
	}
	return liveSecrets([...spellings]);
}

/** Every unit of a text as unitAt decodes it, as one string (a spelling is found in it with `includes`). */
const UNIT = /\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])|%[0-7][0-9a-fA-F]|&[#a-zA-Z][0-9a-zA-Z]{0,8};/g;
const decodeUnits = (text: string): string =>
	text.replace(UNIT, (spelled) => {
		const unit = unitAt(spelled, 0);
		return unit.end === spelled.length ? String.fromCharCode(unit.code) : spelled;
	});

/** JSON's own escapes decoded, and each string's quotes made a character no spelling holds: the strings' text in a row. */
const JSON_LEVEL = /\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])|"/g;
const decodeJson = (text: string): string =>
	text.replace(JSON_LEVEL, (spelled) =>
		spelled === '"' ? '\u0000' : String.fromCharCode(unitAt(spelled, 0).code),
	);

/**
 * Whether an answer's text may hold a secret in any spelling redactValue finds: a cheap look at the raw text (a few
 * `includes`, and one decoding pass when the text holds `\`, `%` or `&`), so that a page without the key is not walked
 * string by string. It errs only towards "may": the raw text decoded once (what the text scan reads), and with JSON's
 * escapes decoded first (what the walk reads in each string after JSON.parse).
 */
export function mayHoldSecret(text: string, secrets: readonly string[]): boolean {
	const live = liveSecrets(secrets);
	if (live.length === 0) return false;
	const readings = text.includes('\\') ? [text, decodeJson(text)] : [text];
	return readings.some((reading) => {
		if (live.some((secret) => reading.includes(secret))) return true;
		if (!mayBeEncoded(reading)) return false;
		const decoded = decodeUnits(reading);
		return live.some((secret) => decoded.includes(secret));
	});
}

/** Headers with every secret redacted from their values (a Content-Type or Location that echoes the key). */
export function redactHeaders<T extends Record<string, unknown> | undefined>(
	headers: T,
	secrets: readonly string[],
): T {
	if (!headers || liveSecrets(secrets).length === 0) return headers;
	const redacted: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(headers)) {
		redacted[name] = Array.isArray(value)
			? value.map((one) => (typeof one === 'string' ? redactSecrets(one, secrets) : one))
			: typeof value === 'string'
				? redactSecrets(value, secrets)
				: value;
	}
	return redacted as T;
}

/** `text` with every spelling of every secret replaced by REDACTED. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
	let result = text;
	for (const secret of liveSecrets(secrets)) {
		// Plainly first (a key may itself hold `%`, `\` or `&`), then in any other spelling.
		if (result.includes(secret)) result = result.split(secret).join(REDACTED);
		if (mayBeEncoded(result)) result = redactOne(result, secret);
	}
	return result;
}

/**
 * A parsed answer with every string and object key redacted (see redactSecrets); a text is redacted as a text.
 * Changes the value in place (it is the transport's own copy, fresh from JSON.parse) and returns it. Iterative: any
 * nesting JSON.parse accepts is walked without recursion.
 */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
	const live = liveSecrets(secrets);
	if (live.length === 0) return value;
	const root: Record<string, unknown> = { value };
	// Slots still to visit: a container and the key (or index) of one of its values.
	const slots: Array<[Record<string, unknown> | unknown[], string | number]> = [[root, 'value']];
	for (let slot = slots.pop(); slot !== undefined; slot = slots.pop()) {
		const [container, key] = slot as [Record<string | number, unknown>, string | number];
		const current = container[key];
		if (typeof current === 'string') {
			const redacted = redactSecrets(current, live);
			if (redacted !== current) container[key] = redacted;
		} else if (Array.isArray(current)) {
			for (let index = 0; index < current.length; index++) slots.push([current, index]);
		} else if (current !== null && typeof current === 'object') {
			let object = current as Record<string, unknown>;
			const keys = Object.keys(object);
			if (keys.some((name) => redactSecrets(name, live) !== name)) {
				// Object.fromEntries defines own properties, so even a key named "__proto__" stays a plain key.
				object = Object.fromEntries(keys.map((name) => [redactSecrets(name, live), object[name]]));
				container[key] = object;
			}
			for (const name of Object.keys(object)) slots.push([object, name]);
		}
	}
	return root.value;
}
