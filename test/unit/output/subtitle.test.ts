/** The node's subtitle on the canvas, evaluated through n8n-workflow's Expression engine as the editor does. */
import { RESOURCES } from '../../../nodes/CrmInvoicing/actions/resources';
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { createExecuteContext } from '../../helpers/harness';

const nodeType = new CrmInvoicing();
const { description } = nodeType;

/** The subtitle n8n shows for a node with these parameters. */
function subtitleOf(parameters: Record<string, string>, typeVersion = 4): unknown {
	const { workflow, node } = createExecuteContext({ nodeType, parameters, typeVersion });
	return workflow.expression.getSimpleParameterValue(
		node,
		description.subtitle!,
		'internal',
		{},
		undefined,
		'',
	);
}

/** Every resource and operation the node offers, with the labels the user picks them by. */
const PAIRS = RESOURCES.flatMap((resource) =>
	resource.operations.map((operation) => ({
		resource: resource.value,
		operation: operation.value,
	})),
);

describe('subtitle', () => {
	it.each(PAIRS)(
		'is n8n\'s ordinary "operation: resource": $operation: $resource (versions 1 and 4)',
		({ resource, operation }) => {
			expect(subtitleOf({ resource, operation })).toBe(`${operation}: ${resource}`);
			expect(subtitleOf({ resource, operation }, 1)).toBe(`${operation}: ${resource}`);
		},
	);

	it('shows the defaults for a node just added (resource and operation not set)', () => {
		expect(subtitleOf({}, 4)).toBe('create: lead');
	});
});
