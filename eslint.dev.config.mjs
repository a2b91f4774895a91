/**
 * The project's own lint of the code that is not shipped: tests, the sandbox CRM, scripts and benchmarks
 * (`npm run lint:dev`). The package's code is linted by n8n's own configuration, unchanged (eslint.config.mjs,
 * run by `n8n-node lint`), which applies n8n's rules for node code to every .ts file in the folder. Those rules forbid
 * what this code is for (Node's modules and globals, the console, test keys), so each file here that would break them
 * opens with one `eslint-disable` line for n8n's lint; this lint runs with --no-inline-config, so that line does not
 * reach it and its own rules below apply in full.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'runtime/**', '.tmp/**', 'bench/.work/**'] },
	{
		files: ['**/*.ts'],
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
);
