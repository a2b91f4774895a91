import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

/**
 * The same rule sets, with the same overrides, that n8n's `@n8n/scan-community-package` uses to vet community
 * packages (and `n8n-node lint` uses at dev time): @n8n/eslint-plugin-community-nodes (recommended) plus
 * eslint-plugin-n8n-nodes-base (community rules on package.json, credentials rules, nodes rules).
 */
export default [
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'runtime/**',
			'test/**',
			'scripts/**',
			'bench/**',
			'examples/**',
			'docs/**',
			'.tmp/**',
		],
	},
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{ files: ['package.json'], rules: { ...n8nNodesBase.configs.community.rules } },
	{
		files: ['**/credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['**/nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
	{ files: ['**/*.ts'], languageOptions: { parser: tsParser } },
];
