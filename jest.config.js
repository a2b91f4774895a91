/** @type {import('jest').Config} */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json', isolatedModules: true }];

module.exports = {
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/sandbox/**/*.test.ts'],
		},
		{
			displayName: 'e2e',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
		},
	],
};
