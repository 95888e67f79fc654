/** Unit tests run everywhere; integration tests need GNES (venv cache) and, for Docker ones, a daemon. */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
  testTimeout: 600000,
  verbose: true
}
