// RESELLER_MOCK_* variables as command-line arguments (cli/env-flags.ts): names, values, lists,
// switches, the command line's precedence, and the refusals. The black-box suite runs the same
// rules through each way of running the server (test/blackbox/environment.test.ts).
import type { ParseArgsOptionsConfig } from 'node:util'
import { describe, expect, test } from 'vitest'
import { flagsFromEnvironment, variableName } from '../../src/cli/env-flags.js'
import { UsageError } from '../../src/cli/errors.js'

const OPTIONS = {
  port: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'insecure-webhooks': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies ParseArgsOptionsConfig

const read = (env: Record<string, string>, argv: string[] = []) => flagsFromEnvironment(OPTIONS, argv, env)

describe('flagsFromEnvironment', () => {
  test('names a flag RESELLER_MOCK_ + upper case with - as _', () => {
    expect(variableName('allowed-host')).toBe('RESELLER_MOCK_ALLOWED_HOST')
    expect(read({ RESELLER_MOCK_PORT: '4011', OTHER_PORT: '1' })).toEqual({
      args: ['--port=4011'],
      variables: new Map([['port', 'RESELLER_MOCK_PORT']]),
    })
  })

  test('splits a repeatable flag on commas, trimmed; an empty item is passed on, for the check that refuses it', () => {
    expect(read({ RESELLER_MOCK_ALLOWED_HOST: ' mock, mock.test:4010 ,,' }).args).toEqual([
      '--allowed-host=mock',
      '--allowed-host=mock.test:4010',
      '--allowed-host=',
      '--allowed-host=',
    ])
  })

  test('reads a switch from true/false words, any case', () => {
    for (const word of ['1', 'true', 'YES', 'on']) {
      expect(read({ RESELLER_MOCK_INSECURE_WEBHOOKS: word }).args).toEqual(['--insecure-webhooks'])
    }
    for (const word of ['0', 'false', 'No', 'off']) {
      expect(read({ RESELLER_MOCK_INSECURE_WEBHOOKS: word }).args).toEqual([])
    }
    expect(() => read({ RESELLER_MOCK_INSECURE_WEBHOOKS: 'maybe' })).toThrow(
      new UsageError(
        'RESELLER_MOCK_INSECURE_WEBHOOKS: must be true or false (or 1/0, yes/no, on/off), got "maybe"',
      ),
    )
  })

  test('takes an empty variable for an unset one', () => {
    expect(read({ RESELLER_MOCK_PORT: '', RESELLER_MOCK_ALLOWED_HOST: '  ' })).toEqual({
      args: [],
      variables: new Map(),
    })
  })

  test('leaves a flag the command line gives to the command line, a repeatable one too', () => {
    const env = {
      RESELLER_MOCK_PORT: 'bad',
      RESELLER_MOCK_ALLOWED_HOST: 'env.test',
      RESELLER_MOCK_INSECURE_WEBHOOKS: '1',
    }
    expect(read(env, ['--port', '0', '--allowed-host=cli.test'])).toEqual({
      args: ['--insecure-webhooks'],
      variables: new Map([['insecure-webhooks', 'RESELLER_MOCK_INSECURE_WEBHOOKS']]),
    })
  })

  test('ignores RESELLER_MOCK_URL: where test code finds a running mock, not a setting', () => {
    expect(read({ RESELLER_MOCK_URL: 'http://127.0.0.1:4010', RESELLER_MOCK_PORT: '0' })).toEqual({
      args: ['--port=0'],
      variables: new Map([['port', 'RESELLER_MOCK_PORT']]),
    })
  })

  test('refuses a RESELLER_MOCK_* name that is no setting, with the one it likely meant, help and version included', () => {
    expect(() => read({ RESELLER_MOCK_PROT: '4010' })).toThrow(
      'RESELLER_MOCK_PROT is not a setting of reseller-mock (did you mean RESELLER_MOCK_PORT?); the variables are RESELLER_MOCK_PORT, RESELLER_MOCK_ALLOWED_HOST, RESELLER_MOCK_INSECURE_WEBHOOKS',
    )
    expect(() => read({ RESELLER_MOCK_FROBNICATE: '1' })).toThrow(
      /FROBNICATE is not a setting of reseller-mock; the/,
    )
    expect(() => read({ RESELLER_MOCK_HELP: '1' })).toThrow(UsageError)
    expect(() => read({ RESELLER_MOCK_VERSION: '1' })).toThrow(UsageError)
  })
})
