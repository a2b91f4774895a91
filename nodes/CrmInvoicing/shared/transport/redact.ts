/**
 * The API key is never shown in clear. Every answer is redacted where it is read (request.ts), before anything
 * parses, shows or outputs it, its headers included:
 * - the key in each spelling of secretSpellings: as it is, and base64 or base64url-encoded (at any alignment, so also
 *   inside an encoded `user:key` or a longer encoded header);
 * - in any text, each character of such a spelling written plainly, JSON-escaped (`\u002b`, `\/`, …), percent-encoded
 *   (`%2B`) or as an HTML character reference (`&#43;`, `&#x2b;`, `&plus;`), in any mix (one pattern per key);
 * - every string (and object key) of a JSON answer after JSON.parse decoded it, walked iteratively, so no nesting and
 *   no escape hides it.
 */

export const REDACTED = '[redacted]';

/** Keys shorter than this are left alone: replacing them would garble the text and hide nothing. */
const MIN_SECRET_LENGTH = 4;

/** JSON's short escapes and the named HTML references a reader decodes, by the character they stand for. */
const SHORT_ESCAPES: Record<string, string> = {
	'"': '"',
	'\\': '\\\\',
	'/': '/',
	'\b': 'b',
	'\f': 'f',
	'\n': 'n',
	'\r': 'r',
	'\t': 't',
};
const NAMED_REFERENCES: Record<string, string> = {
	'&': 'amp',
	'"': 'quot',
	"'": 'apos',
	'<': 'lt',
	'>': 'gt',
	'/': 'sol',
	'+': 'plus',
	'=': 'equals',
};

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const anyCase = (hex: string): string =>
	hex.replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);

/** Each way a reader may find one character (UTF-16 unit) spelled, as a regular expression. */
function spellingsOf(char: string): string {
	const code = char.charCodeAt(0);
	const hex = code.toString(16);
	const ways = [literal(char), `\\\\u${anyCase(hex.padStart(4, '0'))}`, `&#0*${code};`];
	ways.push(`&#[xX]0*${anyCase(hex)};`);
	if (SHORT_ESCAPES[char] !== undefined) ways.push(`\\\\${literal(SHORT_ESCAPES[char])}`);
	if (code < 0x80) ways.push(`%${anyCase(hex.padStart(2, '0'))}`);
	if (NAMED_REFERENCES[char] !== undefined) ways.push(`&${NAMED_REFERENCES[char]};`);
	return `(?:${ways.join('|')})`;
}

interface Matcher {
	/** The secrets worth redacting (long enough to mean something). */
	live: string[];
	/** Any of them in any spelling of its characters; undefined when there is none. */
	pattern: RegExp | undefined;
}

/** Built once per list of secrets (a connection's list is read for every string of an answer). */
const matchers = new WeakMap<readonly string[], Matcher>();

function matcherOf(secrets: readonly string[]): Matcher {
	let matcher = matchers.get(secrets);
	if (!matcher) {
		const live = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
		const each = live.map((secret) =>
			Array.from({ length: secret.length }, (_, at) => spellingsOf(secret[at])),
		);
		const pattern =
			live.length > 0 ? new RegExp(each.map((one) => one.join('')).join('|'), 'g') : undefined;
		matcher = { live, pattern };
		matchers.set(secrets, matcher);
	}
	return matcher;
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
	return [...spellings].filter((spelling) => spelling.length >= MIN_SECRET_LENGTH);
}

/** JSON's own escapes decoded, and each string's quotes made a character no spelling holds: the strings' text in a row. */
const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))|"/g;
const UNESCAPED: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const decodeJson = (text: string): string =>
	text.replace(JSON_ESCAPE, (_all, hex?: string, short?: string) =>
		hex ? String.fromCharCode(parseInt(hex, 16)) : short ? (UNESCAPED[short] ?? short) : '\u0000',
	);

/**
 * Whether an answer's text may hold a secret in any spelling redactValue finds: a cheap look at the raw text (a few
 * `includes`, and the pattern only when the text holds `\`, `%` or `&`), so that a page without the key is not walked
 * string by string. It errs only towards "may": the raw text (what the text scan reads), and with JSON's escapes
 * decoded first (what the walk reads in each string after JSON.parse).
 */
export function mayHoldSecret(text: string, secrets: readonly string[]): boolean {
	const { live, pattern } = matcherOf(secrets);
	if (!pattern) return false;
	const readings = text.includes('\\') ? [text, decodeJson(text)] : [text];
	return readings.some(
		(reading) =>
			live.some((secret) => reading.includes(secret)) ||
			(mayBeEncoded(reading) && reading.search(pattern) >= 0),
	);
}

/** `text` with every spelling of every secret replaced by REDACTED. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
	const { live, pattern } = matcherOf(secrets);
	let result = text;
	// Plainly first (a key may itself hold `%`, `\` or `&`), then in any other spelling.
	for (const secret of live)
		if (result.includes(secret)) result = result.split(secret).join(REDACTED);
	return pattern && mayBeEncoded(result) ? result.replace(pattern, REDACTED) : result;
}

/**
 * A parsed answer (or its headers) with every string and object key redacted (see redactSecrets); a text is redacted
 * as a text. Changes the value in place (it is the transport's own copy) and returns it. Iterative: any nesting
 * JSON.parse accepts is walked without recursion.
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
	if (matcherOf(secrets).live.length === 0) return value;
	const root: Record<string, unknown> = { value };
	// Slots still to visit: a container and the key (or index) of one of its values.
	const slots: Array<[Record<string, unknown> | unknown[], string | number]> = [[root, 'value']];
	for (let slot = slots.pop(); slot !== undefined; slot = slots.pop()) {
		const [container, key] = slot as [Record<string | number, unknown>, string | number];
		const current = container[key];
		if (typeof current === 'string') {
			const redacted = redactSecrets(current, secrets);
			if (redacted !== current) container[key] = redacted;
		} else if (Array.isArray(current)) {
			for (let index = 0; index < current.length; index++) slots.push([current, index]);
		} else if (current !== null && typeof current === 'object') {
			let object = current as Record<string, unknown>;
			const keys = Object.keys(object);
			if (keys.some((name) => redactSecrets(name, secrets) !== name)) {
				// Object.fromEntries defines own properties, so even a key named "__proto__" stays a plain key.
				object = Object.fromEntries(
					keys.map((name) => [redactSecrets(name, secrets), object[name]]),
				);
				container[key] = object;
			}
			for (const name of Object.keys(object)) slots.push([object, name]);
		}
	}
	return root.value as T;
}
