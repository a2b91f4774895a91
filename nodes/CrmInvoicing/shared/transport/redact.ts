/**
 * The API key is never shown in clear: every answer is redacted where it is read (request.ts), its headers included.
 * The key is sought in each of its spellings, in every string and object key of a parsed answer, and in any text
 * also after decoding JSON escapes, percent-encoded ASCII and HTML references. Decode, then search.
 */

export const REDACTED = '[redacted]';

/** Keys shorter than this are left alone: replacing them would garble the text and hide nothing. */
const MIN_SECRET_LENGTH = 4;

/**
 * The key and its base64 and base64url encodings at each of the three alignments it can have inside a longer encoded
 * text (without the characters that also encode a neighbouring byte, so each is found whatever stands around it).
 */
export function secretSpellings(key: string): string[] {
	const bytes = Buffer.from(key, 'utf8');
	const spellings = new Set([key]);
	for (let pad = 0; pad < 3; pad++) {
		const padded = Buffer.concat([Buffer.alloc(pad), bytes]);
		const [from, to] = [Math.ceil((8 * pad) / 6), Math.floor((8 * (pad + bytes.length)) / 6)];
		for (const encoding of ['base64', 'base64url'] as const)
			spellings.add(padded.toString(encoding).slice(from, to));
	}
	return [...spellings].filter((spelling) => spelling.length >= MIN_SECRET_LENGTH);
}

/** Escapes, one pass and no backtracking: JSON's (group 1), then percent-encoded ASCII and HTML references. */
const ESCAPES = new RegExp(
	[
		'(\\\\(?:u[0-9a-fA-F]{4}|["\\\\/bfnrt]))',
		'%([0-7][0-9a-fA-F])',
		'&#(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}));',
		'&([a-z]{2,6});',
	].join('|'),
	'g',
);
/** HTML's named references of the characters a key may hold, and those characters in the same order. */
const NAMED = ['amp', 'quot', 'apos', 'lt', 'gt', 'sol', 'plus', 'equals'];
const NAMED_CHARS = '&"\'<>/+=';

/** `text` with its escapes decoded; `jsonOnly`: JSON's alone, as JSON.parse decodes each string of an answer. */
function decode(text: string, jsonOnly = false): string {
	return text.replace(ESCAPES, (all: string, ...groups: Array<string | undefined>) => {
		const [json, percent, hex, decimal, name] = groups;
		if (json) return JSON.parse(`"${json}"`) as string;
		if (jsonOnly) return all;
		if (name) return NAMED_CHARS[NAMED.indexOf(name)] ?? all;
		const code = decimal ? Number(decimal) : parseInt((percent ?? hex) as string, 16);
		return code <= 0x10ffff ? String.fromCodePoint(code) : all;
	});
}

/** `includes` first: splitting every string of a page, most of which hold no key, costs far more. */
const replaced = (text: string, secrets: readonly string[]): string =>
	secrets.reduce(
		(result, secret) => (result.includes(secret) ? result.split(secret).join(REDACTED) : result),
		text,
	);

/** Each secret replaced as the text stands (a key may hold `%`, `\` or `&`), then decoded: if found so, shown so. */
function redactText(text: string, secrets: readonly string[]): string {
	const plain = replaced(text, secrets);
	// Three `includes` scan faster than a character class.
	if (!plain.includes('\\') && !plain.includes('%') && !plain.includes('&')) return plain;
	const decoded = decode(plain);
	const redacted = replaced(decoded, secrets);
	return redacted === decoded ? plain : redacted;
}

/**
 * Whether an answer's text may hold a secret that redactValue would find: a cheap first look, so that a page without
 * the key is not walked string by string. It errs only towards "may": it reads the raw text as the text scan does, and
 * with JSON's escapes decoded as the walk reads each string. Without `\`, `%` or `&`: one `includes` per spelling.
 */
export function mayHoldSecret(text: string, secrets: readonly string[]): boolean {
	const holds = (reading: string) => redactText(reading, secrets) !== reading;
	if (holds(text)) return true;
	const parsed = text.includes('\\') ? decode(text, true) : text;
	return parsed !== text && holds(parsed);
}

/**
 * A parsed answer (or its headers, or a text) with every string and object key redacted, in place, without recursion.
 * A key "__proto__" is JSON.parse's own property, so writing to it writes that property, not the prototype.
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
	if (secrets.length === 0) return value;
	if (typeof value === 'string') return redactText(value, secrets) as T;
	const containers: unknown[] = [value];
	for (let current = containers.pop(); current !== undefined; current = containers.pop()) {
		if (current === null || typeof current !== 'object') continue;
		const object = current as Record<string, unknown>;
		for (const key of Object.keys(object)) {
			const item = object[key];
			const name = Array.isArray(object) ? key : redactText(key, secrets);
			const redacted = typeof item === 'string' ? redactText(item, secrets) : item;
			if (typeof item === 'object') containers.push(item);
			if (name !== key) delete object[key];
			if (name !== key || redacted !== item) object[name] = redacted;
		}
	}
	return value;
}
