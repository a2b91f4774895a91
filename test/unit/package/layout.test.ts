/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/** The layout CONTRIBUTING.md ("The code's layout") states, held by a test; and the nock rule of the unit tests. */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');
const SERVICE = path.join(ROOT, 'nodes', 'CrmInvoicing');
const SHARED = path.join(SERVICE, 'shared');
const TRANSPORT = path.join(SHARED, 'transport');
const ACTIONS = path.join(SERVICE, 'actions');

function tsFiles(folder: string): string[] {
	const names = readdirSync(folder, { recursive: true, encoding: 'utf8' });
	return names.filter((name) => name.endsWith('.ts')).map((name) => path.join(folder, name));
}

const SHIPPED = [...tsFiles(path.join(ROOT, 'nodes')), ...tsFiles(path.join(ROOT, 'credentials'))];

/** Every module a file imports or re-exports from (static `import … from`, `export … from`, `import '…'`). */
function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	return [
		...text.matchAll(
			/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm,
		),
	].map((match) => match[1] ?? match[2]);
}

/** A relative import resolved to the path it names (without extension; a folder means its index). */
const resolved = (file: string, specifier: string) => path.resolve(path.dirname(file), specifier);

const inside = (target: string, folder: string): boolean =>
	target === folder || target.startsWith(`${folder}${path.sep}`);
/** Whether `file`, from outside `folder`, imports `target` inside it other than through its index. */
const pastTheDoor = (file: string, target: string, folder: string): boolean =>
	!inside(file, folder) &&
	inside(target, folder) &&
	target !== folder &&
	target !== path.join(folder, 'index');
const relative = (file: string): string => path.relative(ROOT, file);

/** Every import of a shipped file, with the file it names when relative. */
const IMPORTS = SHIPPED.flatMap((file) =>
	importsOf(file).map((specifier) => ({
		file,
		specifier,
		target: specifier.startsWith('.') ? resolved(file, specifier) : undefined,
		shown: `${relative(file)} imports ${specifier}`,
	})),
);

describe('the package layout', () => {
	it('imports only what n8n allows a community node: n8n-workflow, node:crypto and relative files', () => {
		expect(SHIPPED.length).toBeGreaterThan(50);
		const allowed = ['n8n-workflow', 'node:crypto'];
		const outside = IMPORTS.filter(
			({ specifier, target }) => !target && !allowed.includes(specifier),
		);
		expect(outside.map(({ shown }) => shown)).toEqual([]);
	});

	it('reaches the shared layer through its one door (shared/index.ts), and the transport through its own index', () => {
		expect(SHIPPED.some((file) => inside(file, TRANSPORT))).toBe(true);
		const wrong = IMPORTS.filter(
			({ file, target }) =>
				target !== undefined &&
				(pastTheDoor(file, target, SHARED) || pastTheDoor(file, target, TRANSPORT)),
		);
		expect(wrong.map(({ shown }) => shown)).toEqual([]);
	});

	it('keeps actions/ to the action node: no trigger, poller or shared file imports it', () => {
		const wrong = IMPORTS.filter(
			({ file, target }) =>
				!inside(file, ACTIONS) &&
				path.basename(file) !== 'CrmInvoicing.node.ts' &&
				target !== undefined &&
				inside(target, ACTIONS),
		);
		expect(wrong.map(({ shown }) => shown)).toEqual([]);
	});

	it('has no import circle among shipped files, type-only imports included', () => {
		const edges = new Map<string, string[]>(SHIPPED.map((file) => [file, []]));
		for (const { file, target } of IMPORTS) {
			const candidates = target ? [`${target}.ts`, path.join(target, 'index.ts')] : [];
			const found = candidates.find((candidate) => edges.has(candidate));
			if (found) edges.get(file)?.push(found);
		}
		// Depth-first search: a file met again while it is still on the path closes a circle.
		const circles: string[] = [];
		const state = new Map<string, 'open' | 'done'>();
		const visit = (file: string, trail: string[]): void => {
			if (state.get(file) === 'done') return;
			if (state.get(file) === 'open') {
				circles.push([...trail.slice(trail.indexOf(file)), file].map(relative).join(' -> '));
				return;
			}
			state.set(file, 'open');
			for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
			state.set(file, 'done');
		};
		for (const file of SHIPPED) visit(file, []);
		expect(circles).toEqual([]);
	});

	it("has one state module per trigger: only it reaches n8n's static data of the node", () => {
		const reaching = SHIPPED.filter((file) =>
			readFileSync(file, 'utf8').includes('getWorkflowStaticData('),
		);
		expect(reaching.map(relative).sort()).toEqual([
			'nodes/CrmInvoicing/polling/memory.ts',
			'nodes/CrmInvoicing/trigger/store.ts',
		]);
	});

	it('has no shipped file over 300 lines (size itself is measured by ../shared/tools/readability.mjs, not pinned here)', () => {
		const lines = (file: string): number => (readFileSync(file, 'utf8').match(/\n/g) ?? []).length;
		expect(SHIPPED.filter((file) => lines(file) > 300).map(relative)).toEqual([]);
	});

	it('restores nock after every unit test file that loads it, directly or through a shared test module', () => {
		// Requiring nock patches the worker's one `http` module; two unrestored copies stacked in a worker made a later
		// file's real socket pass through both and never report its close (CI, stop 44).
		const loadsNock = (file: string, seen = new Set<string>()): boolean => {
			if (seen.has(file)) return false;
			seen.add(file);
			return importsOf(file).some((specifier) => {
				if (specifier === 'nock') return true;
				const target = `${resolved(file, specifier)}.ts`;
				return specifier.startsWith('.') && existsSync(target) && loadsNock(target, seen);
			});
		};
		const tests = tsFiles(path.join(ROOT, 'test', 'unit'))
			.concat(tsFiles(path.join(ROOT, 'test', 'sandbox')))
			.filter((file) => file.endsWith('.test.ts'));
		const unrestored = tests.filter(
			(file) =>
				loadsNock(file) &&
				!/\b(?:useNock|setUpNock|restoreNockAfterFile)\(\)/.test(readFileSync(file, 'utf8')),
		);
		expect(tests.filter((file) => loadsNock(file)).length).toBeGreaterThan(20);
		expect(unrestored.map(relative)).toEqual([]);
	});
});
