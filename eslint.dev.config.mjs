/**
 * The project's own lint of the code that is not shipped: tests, the sandbox CRM, scripts and benchmarks
 * (`npm run lint:dev`). The package's code is linted by n8n's own configuration, unchanged (eslint.config.mjs,
 * run by `n8n-node lint`), which applies n8n's rules for node code to every .ts file in the folder. Those rules forbid
 * what this code is for (Node's modules and globals, the console, test keys), so each file here that would break them
 * opens with one `eslint-disable` line for n8n's lint; this lint runs with --no-inline-config, so that line does not
 * reach it and its own rules below apply in full.
 *
 * The second block holds the shipped code (nodes/, credentials/) to plain form, beside n8n's lint: no packing (comma
 * operator, assignment inside an expression, nested ternary, array-to-array assignment, `return void`), functions of
 * at most 60 lines and 4 parameters. `../shared/tools/readability.mjs` measures the rest.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'runtime/**', '.tmp/**', 'bench/.work/**'] },
	{
		files: ['test/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		rules: {
			// Mocks and fakes of n8n's contexts are typed loosely on purpose.
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
			eqeqeq: ['error', 'always', { null: 'ignore' }],
			'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
			// Scripts load n8n's tools and the built package by path at run time.
			'@typescript-eslint/no-require-imports': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		extends: [tseslint.configs.base],
		rules: {
			'no-sequences': ['error', { allowInParentheses: false }],
			'no-cond-assign': ['error', 'always'],
			'no-nested-ternary': 'error',
			'max-params': ['error', 4],
			'max-lines-per-function': ['error', { max: 60 }],
			'no-restricted-syntax': [
				'error',
				{
					selector: 'AssignmentExpression[left.type="ArrayPattern"][right.type="ArrayExpression"]',
					message: 'Assign each variable in its own statement.',
				},
				{
					selector: 'VariableDeclarator[id.type="ArrayPattern"][init.type="ArrayExpression"]',
					message: 'Declare each variable in its own statement.',
				},
				{
					selector: 'ReturnStatement > UnaryExpression[operator="void"]',
					message: 'Do the work, then return.',
				},
				{
					selector:
						':not(ExpressionStatement, ForStatement, ForInStatement, ForOfStatement) > AssignmentExpression',
					message: 'Assign in its own statement, not inside an expression.',
				},
			],
		},
	},
);
