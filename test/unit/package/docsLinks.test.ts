/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** Relative links and anchors (GitHub's slug rules) in the docs resolve; links with a scheme are not followed. */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');

/** The READMEs that live beside the code they describe (contributors' documents, and the examples' guide). */
const READMES_BESIDE_CODE = ['test/sandbox/README.md', 'bench/README.md', 'examples/README.md'];

/** The markdown files whose links must resolve, relative to ROOT. */
function documents(): string[] {
	const docs = readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`);
	return ['README.md', 'CONTRIBUTING.md', ...docs, ...READMES_BESIDE_CODE];
}

/** The text outside fenced code blocks, line by line (code blocks become empty lines, keeping line numbers). */
function proseLines(markdown: string): string[] {
	let fence: string | undefined;
	return markdown.split('\n').map((line) => {
		const opener = /^\s*(```+|~~~+)/.exec(line);
		if (opener) {
			if (fence === undefined) fence = opener[1][0];
			else if (opener[1][0] === fence) fence = undefined;
			return '';
		}
		return fence === undefined ? line : '';
	});
}

/** GitHub's anchor for a heading: its text without markdown, lower-cased, punctuation dropped, spaces to `-`. */
export function githubSlug(heading: string): string {
	const text = heading
		.replace(/!\[[^\]]*\]\([^)]*\)/g, '')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a markdown file offers: its headings' slugs (repeats numbered) and explicit `<a id|name="…">`. */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const counts = new Map<string, number>();
	for (const line of proseLines(markdown)) {
		const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (heading) {
			const slug = githubSlug(heading[1]);
			const seen = counts.get(slug) ?? 0;
			counts.set(slug, seen + 1);
			anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
		}
		for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
	}
	return anchors;
}

/** The link targets of a markdown text: inline links and images, and reference definitions; not inside code. */
export function linksOf(markdown: string): Array<{ target: string; line: number }> {
	const links: Array<{ target: string; line: number }> = [];
	proseLines(markdown).forEach((raw, index) => {
		const line = raw.replace(/`[^`]*`/g, '');
		for (const match of line.matchAll(
			/!?\[(?:[^\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
		)) {
			links.push({ target: match[1], line: index + 1 });
		}
		const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
		if (definition) links.push({ target: definition[1], line: index + 1 });
	});
	return links;
}

/** What is wrong with one link of `file`, or undefined when it resolves. */
function problemWith(file: string, target: string): string | undefined {
	if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
	const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
	const relative = decodeURIComponent(rawPath);
	const resolved =
		relative === ''
			? path.join(ROOT, file)
			: path.normalize(path.join(ROOT, path.dirname(file), relative));
	if (path.relative(ROOT, resolved).startsWith('..')) return 'points outside the repository';
	if (!existsSync(resolved)) return 'no such file';
	if (anchor === undefined) return undefined;
	if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return undefined;
	const anchors = anchorsOf(readFileSync(resolved, 'utf8'));
	return anchors.has(decodeURIComponent(anchor))
		? undefined
		: `no heading with the anchor #${anchor}`;
}

describe('GitHub slugs', () => {
	it.each([
		['Install in n8n', 'install-in-n8n'],
		["n8n's tooling (`@n8n/node-cli`)", 'n8ns-tooling-n8nnode-cli'],
		[
			"Subscriptions follow n8n's URL, and carry an owner tag",
			'subscriptions-follow-n8ns-url-and-carry-an-owner-tag',
		],
		['Limits, and how the node paces itself', 'limits-and-how-the-node-paces-itself'],
		['Lead → Create or Update', 'lead--create-or-update'],
		['The [sandbox](sandbox.md) CRM', 'the-sandbox-crm'],
		['Choices where the spec is silent', 'choices-where-the-spec-is-silent'],
	])('%s → #%s', (heading, slug) => {
		expect(githubSlug(heading)).toBe(slug);
	});

	it('numbers repeated headings and ignores headings inside code blocks', () => {
		const anchors = anchorsOf('# Lead\n## Lead\n```\n# Not a heading\n```\n<a id="custom"></a>\n');
		expect([...anchors].sort()).toEqual(['custom', 'lead', 'lead-1']);
	});

	it('finds inline links, images and reference definitions, but not links in code', () => {
		const links = linksOf(
			'See [a](docs/a.md#x) and ![b](b.png "t").\n`[c](c.md)`\n```\n[d](d.md)\n```\n[e]: e.md\n',
		);
		expect(links.map((link) => link.target)).toEqual(['docs/a.md#x', 'b.png', 'e.md']);
	});
});

describe('relative links in README.md, CONTRIBUTING.md, docs/*.md and the READMEs beside code', () => {
	it('checks the files the docs are made of', () => {
		const core = ['README.md', 'CONTRIBUTING.md', 'docs/security.md', 'docs/trigger.md'];
		expect(documents()).toEqual(expect.arrayContaining([...core, ...READMES_BESIDE_CODE]));
	});

	it.each(documents())('%s: every relative link and anchor resolves', (file) => {
		const markdown = readFileSync(path.join(ROOT, file), 'utf8');
		const broken = linksOf(markdown)
			.map((link) => ({ ...link, problem: problemWith(file, link.target) }))
			.filter((link) => link.problem !== undefined)
			.map((link) => `${file}:${link.line} ${link.target}: ${link.problem}`);
		expect(broken).toEqual([]);
	});
});

describe('the documentation links n8n shows for the nodes and the credential', () => {
	const homepage = 'https://github.com/crm-invoicing/n8n-nodes-crm-invoicing';
	const readmeAnchors = anchorsOf(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));

	/** The repository's URLs in the codex files and the credential: they open the README at a heading. */
	const sources = [
		'nodes/CrmInvoicing/CrmInvoicing.node.json',
		'nodes/CrmInvoicing/CrmInvoicingTrigger.node.json',
		'nodes/CrmInvoicing/CrmInvoicingPollingTrigger.node.json',
		'credentials/CrmInvoicingApi.credentials.ts',
	];
	const text = sources.map((file) => readFileSync(path.join(ROOT, file), 'utf8')).join('\n');
	const urls = [...new Set(text.match(/https:\/\/github\.com\/[^"'\s]+/g))];

	it('finds the URLs', () => {
		expect(urls.length).toBeGreaterThanOrEqual(3);
	});

	it.each(urls)('%s opens a heading of the README', (url) => {
		expect(url.startsWith(`${homepage}#`)).toBe(true);
		expect(readmeAnchors.has(url.slice(homepage.length + 1))).toBe(true);
	});
});
