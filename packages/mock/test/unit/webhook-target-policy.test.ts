import { describe, expect, it } from 'vitest'
import { addressProblem, hostProblem, targetProblem } from '../../src/domain/target-policy.js'

describe('webhook target policy', () => {
  it('refuses every address form the issue listed', () => {
    for (const url of [
      'https://[::127.0.0.1]/hook',
      'https://[fec0::1]/hook',
      'https://[64:ff9b::127.0.0.1]/hook',
      'https://198.18.0.1/hook',
      'https://localhost./hook',
    ]) {
      expect(targetProblem(url), url).toMatch(/^must point to a public host: /)
    }
  })

  it('refuses every special-purpose range, in every spelling a URL allows', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://127.1/',
      'https://2130706433/',
      'https://0x7f000001/',
      'https://0.0.0.0/',
      'https://10.1.2.3/',
      'https://172.16.0.1/',
      'https://192.168.1.1/',
      'https://169.254.169.254/latest',
      'https://100.64.0.1/',
      'https://192.0.2.1/',
      'https://198.51.100.7/',
      'https://203.0.113.9/',
      'https://224.0.0.1/',
      'https://255.255.255.255/',
      'https://240.0.0.1/',
      'https://[::1]/',
      'https://[::]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:10.0.0.1]/',
      'https://[64:ff9b::10.0.0.1]/',
      'https://[64:ff9b:1::8.8.8.8]/',
      'https://[fd00::1]/',
      'https://[fc00::1]/',
      'https://[fe80::1]/',
      'https://[ff02::1]/',
      'https://[2001:db8::1]/',
      'https://[2002:7f00:1::]/',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      'https://[100::1]/',
      'https://[3fff::1]/',
      'https://localhost/',
      'https://LOCALHOST../',
      'https://api.localhost/',
      'https://printer.local/',
      'https://db.internal/',
      'https://nas.home.arpa/',
      'https://intranet/',
    ]) {
      expect(targetProblem(url), url).not.toBeNull()
    }
  })

  it('passes public hosts, and IPv4 carried in public mapped and NAT64 forms', () => {
    for (const url of [
      'https://hooks.example.com/x',
      'https://hooks.example.com./x',
      'https://8.8.8.8/x',
      'https://[2606:4700:4700::1111]/x',
      'https://[::ffff:8.8.8.8]/x',
      'https://[64:ff9b::8.8.8.8]/x',
    ]) {
      expect(targetProblem(url), url).toBeNull()
    }
  })

  it('names the rule and the range in its message', () => {
    expect(targetProblem('http://hooks.example.com/')).toBe('must be an https:// URL: HTTP is refused')
    expect(targetProblem('https://198.18.0.1/')).toBe(
      'must point to a public host: 198.18.0.1 is a benchmarking (198.18.0.0/15) address',
    )
    expect(targetProblem('https://203.0.113.7/')).toBe(
      'must point to a public host: 203.0.113.7 is a documentation (203.0.113.0/24) address',
    )
    expect(targetProblem('https://[fec0::1]/')).toBe(
      'must point to a public host: fec0::1 is a site-local address',
    )
    expect(targetProblem('https://[::127.0.0.1]/')).toBe(
      'must point to a public host: ::7f00:1 is not a global unicast address',
    )
    expect(targetProblem('https://[64:ff9b::127.0.0.1]/')).toBe(
      'must point to a public host: 64:ff9b::7f00:1 translates to 127.0.0.1, which is a loopback address',
    )
  })

  it('refuses every scheme but https, and anything that is not a URL', () => {
    expect(targetProblem('ftp://hooks.example.com/')).toBe('must be an https:// URL')
    expect(targetProblem('hooks.example.com/x')).toBe('must be a valid URL')
  })

  it('judges resolved addresses and names', () => {
    expect(addressProblem('93.184.215.14')).toBeNull()
    expect(addressProblem('fe80::1%eth0')).not.toBeNull()
    expect(addressProblem('not-an-ip')).toMatch(/not an IP address/)
    expect(hostProblem('hooks.example.com')).toBeNull()
  })
})
