/**
 * The one check every path passes before a request is sent (transport/request.ts), and that Custom API Request runs
 * on its "Path" first: IDs become path segments there, so an ID of "." or "..", or one with a line break, is refused
 * here whatever operation, list search or trigger call it came from.
 */

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

function hasControlCharacter(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x20 || code === 0x7f) return true;
	}
	return false;
}

/** A path as it can be shown in a message: control characters written out (`\n`), cut when long. */
export function showPath(path: string): string {
	const shown = JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path);
	return shown.slice(1, -1);
}

/**
 * Why a path must not be sent, or undefined when it is fine. Refused: control characters (raw or percent-encoded),
 * a backslash (URL parsers read it as "/"), and "." or ".." segments (raw, percent-encoded, or between encoded
 * slashes), which a server or n8n's URL parser would resolve to a path outside the API prefix.
 */
export function unsafePathReason(path: string): string | undefined {
	const pathOnly = path.split(/[?#]/, 1)[0];
	if (hasControlCharacter(path) || hasControlCharacter(safeDecode(path))) {
		return 'it contains a control character (such as a line break or a tab)';
	}
	if (pathOnly.includes('\\') || safeDecode(pathOnly).includes('\\'))
		return 'it contains a backslash (\\)';
	for (const segment of pathOnly.split('/')) {
		for (const part of safeDecode(segment).split(/[/\\]/)) {
			if (part === '.' || part === '..')
				return `it has a "${part}" segment, which would point outside the API path`;
		}
	}
	return undefined;
}
