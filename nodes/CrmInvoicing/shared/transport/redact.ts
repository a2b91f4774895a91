// Every answer is redacted where request.ts reads it; each spelling of the key is sought, also after decoding
// JSON, percent and HTML escapes to a fixed point.

export const REDACTED = '[redacted]';

/** Replacing a key shorter than 4 would garble the text and hide nothing. */
const isLongEnough = (spelling: string) => spelling.length >= 4;

/** At each of the three alignments a key can have inside a longer base64 text. */
export function secretSpellings(key: string) {
	const bytes = Buffer.from(key);
	// Lower case too: URL parsing lower-cases a host name, where a redirect's Location may put the key.
	const spellings = new Set([key, key.toLowerCase()]);
	for (let pad = 0; pad < 3; pad++) {
		const padded = Buffer.concat([Buffer.alloc(pad), bytes]);
		const from = Math.ceil((8 * pad) / 6);
		const to = Math.floor((8 * padded.length) / 6);
		for (const encoding of ['base64', 'base64url'] as const)
			spellings.add(padded.toString(encoding).slice(from, to));
	}
	return [...spellings].filter(isLongEnough);
}

/** One pass, no backtracking. */
const ESCAPES =
	/\\u([0-9a-fA-F]{4})|\\(["\\/bfnrt])|%([0-7][0-9a-fA-F])|&#(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}));|&([a-z]{2,6});/g;
const SHORT: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NAMED = 'amp quot apos lt gt sol plus equals'.split(' ');
const NAMED_CHARS = '&"\'<>/+=';

function decode(text: string, jsonOnly = false) {
	return text.replace(ESCAPES, (all, ...groups: Array<string | undefined>) => {
		const [unit, short, percent, hex, decimal, name] = groups;
		// A table, not JSON.parse per escape: a page whose server escapes every non-ASCII letter is read 1.5× faster.
		if (unit) return String.fromCharCode(parseInt(unit, 16));
		if (short) return SHORT[short] ?? short;
		if (jsonOnly) return all;
		if (name) return NAMED_CHARS[NAMED.indexOf(name)] ?? all;
		const code = decimal ? Number(decimal) : parseInt((percent ?? hex) as string, 16);
		return code <= 0x10ffff ? String.fromCodePoint(code) : all;
	});
}

/** `includes` first: splitting every string of a page, most of which hold no key, costs far more. */
const replaced = (text: string, secrets: readonly string[]) =>
	secrets.reduce(
		(result, secret) => (result.includes(secret) ? result.split(secret).join(REDACTED) : result),
		text,
	);

/** Each round is linear; a text still decoding after them is withheld whole. */
const MAX_DECODE_ROUNDS = 8;

/** Three `includes` scan faster than a character class. */
const mayDecode = (text: string) => text.includes('\\') || text.includes('%') || text.includes('&');

/** A key may hold `%`, `\` or `&`: replaced as the text stands, then decoded again and again (double escapes). */
function redactText(text: string, secrets: readonly string[]) {
	let shown = replaced(text, secrets);
	let current = shown;
	for (let round = 1; mayDecode(current); round++) {
		const next = decode(current);
		if (next === current) break;
		if (round > MAX_DECODE_ROUNDS) return REDACTED;
		current = replaced(next, secrets);
		if (current !== next) shown = current;
	}
	return shown;
}

/** Errs only towards "may", so that a page without the key is not walked. */
export function mayHoldSecret(text: string, secrets: readonly string[]) {
	const holds = (reading: string) => redactText(reading, secrets) !== reading;
	return holds(text) || (text.includes('\\') && holds(decode(text, true)));
}

/** In place, without recursion ("__proto__" is JSON.parse's own property: writing it is not the prototype). */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
	if (secrets.length === 0) return value;
	if (typeof value === 'string') return redactText(value, secrets) as T;
	const containers = [value as Record<string, unknown>];
	for (let object = containers.pop(); object; object = containers.pop()) {
		for (const key of Object.keys(object)) {
			const item = object[key];
			const name = Array.isArray(object) ? key : redactText(key, secrets);
			const redacted = typeof item === 'string' ? redactText(item, secrets) : item;
			if (item && typeof item === 'object') containers.push(item as Record<string, unknown>);
			if (name !== key) delete object[key];
			if (name !== key || redacted !== item) object[name] = redacted;
		}
	}
	return value;
}
