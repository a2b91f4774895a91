/**
 * Which node this is, for every node of the package: its workflow's id and its node id (its name where n8n gives no
 * id), and the one key made of them that keys this process's memories per node (the trigger's held secrets, delivery
 * ids and renewals; the polling trigger's overlap guard).
 */

export interface NodeIdentityContext {
	getWorkflow(): { id?: string | number };
	getNode(): { id?: string; name: string };
}

export interface NodeIdentity {
	workflowId: string;
	nodeId: string;
}

export function nodeIdentity(context: NodeIdentityContext): NodeIdentity {
	const node = context.getNode();
	return { workflowId: String(context.getWorkflow().id ?? ''), nodeId: node.id ?? node.name };
}

/** The node's key in this process's memories (mode aside: a delivery does not know it). */
export function nodeKey(context: NodeIdentityContext): string {
	const { workflowId, nodeId } = nodeIdentity(context);
	return `${workflowId}:${nodeId}`;
}
