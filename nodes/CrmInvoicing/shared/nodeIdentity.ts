import { nothing } from './values';

export interface NodeIdentityContext {
	getWorkflow(): { id?: string };
	getNode(): { id: string };
}

export function nodeIdentity(context: NodeIdentityContext) {
	return { workflowId: context.getWorkflow().id ?? '', nodeId: context.getNode().id };
}

/** Mode aside: a delivery does not know it. */
export function nodeKey(context: NodeIdentityContext) {
	const { workflowId, nodeId } = nodeIdentity(context);
	return `${workflowId}:${nodeId}`;
}

const queues = new Map<string, Promise<unknown>>();

export const isBusy = (key: string) => queues.has(key);

/** Serialises work per key in this process; each caller bounds its own work. */
export async function oneAtATime<T>(key: string, work: () => Promise<T>) {
	const current = (queues.get(key) ?? Promise.resolve()).then(work, work);
	const settled = current.then(nothing, nothing);
	queues.set(key, settled);
	try {
		return await current;
	} finally {
		if (queues.get(key) === settled) queues.delete(key);
	}
}
