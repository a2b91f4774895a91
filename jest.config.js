/** @type {import('jest').Config} */
const common = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }] },
	modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.tmp/', '<rootDir>/runtime/'],
};

module.exports = {
	projects: [
		{
			...common,
			displayName: 'unit',
			testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/sandbox/**/*.test.ts'],
		},
		{
			...common,
			displayName: 'e2e',
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
		},
		{
			...common,
			displayName: 'ui',
			// The real n8n editor in Debian's chromium (scripts/ui.ts starts the stack and the browser's binary).
			testMatch: ['<rootDir>/test/ui/**/*.test.ts'],
		},
		{
			...common,
			displayName: 'dev',
			// `npm run dev` itself, started in a copy of the checkout (test/dev/reload.dev.test.ts).
			testMatch: ['<rootDir>/test/dev/**/*.test.ts'],
		},
		{
			...common,
			displayName: 'queue',
			// What only queue mode shows (main, webhook and worker processes); the rest of the end-to-end suite runs in
			// scripts/e2e.ts.
			testMatch: ['<rootDir>/test/queue/**/*.test.ts'],
		},
	],
};
