/**
 * Which node this is, for every node of the package: its workflow's id and its node id (its name where n8n gives no
 * id), and the one key made of them that keys this process's memories per node (the trigger's held secrets, delivery
 * ids and renewals; the polling trigger's overlap guard), and the one way to serialise work per key in this process.
 */

export interface NodeIdentityContext {
	getWorkflow(): { id?: string | number };
	getNode(): { id?: string; name: string };
}

export type NodeIdentity = ReturnType<typeof nodeIdentity>;

export function nodeIdentity(context: NodeIdentityContext) {
	const node = context.getNode();
	return { workflowId: String(context.getWorkflow().id ?? ''), nodeId: node.id ?? node.name };
}

/** The node's key in this process's memories (mode aside: a delivery does not know it). */
export function nodeKey(context: NodeIdentityContext): string {
	const { workflowId, nodeId } = nodeIdentity(context);
	return `${workflowId}:${nodeId}`;
}

const queues = new Map<string, Promise<unknown>>();
const noop = () => undefined;

/** Whether work for `key` runs (or waits) in this process: the polling trigger skips a poll then. */
export const isBusy = (key: string): boolean => queues.has(key);

/** Runs `work` after every earlier call for `key` in this process (each bounded by its caller), one at a time. */
export async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
	const current = (queues.get(key) ?? Promise.resolve()).then(work, work);
	const settled = current.then(noop, noop);
	queues.set(key, settled);
	try {
		return await current;
	} finally {
		if (queues.get(key) === settled) queues.delete(key);
	}
}
